// A long, valid header-only chain on the automated-testing chain with the Cuckatoo-only policy
// (test/support/killable_node.ts CUCKATOO_ONLY), for the header-sync bench: each header carries
// what consensus computes for its parent (core/chain/next_header.ts: version, seed, policy,
// bottles, difficulty, scaling, total difficulty), `prev_root` the header MMR's root over its
// ancestors (header sync checks it against the node's header MMR), a timestamp 60 s after its
// parent (difficulty stays at the floor), and a real Cuckatoo proof on the chain's 9-edge-bit
// graph found by the test miner's solver. Roots of the body are zero: header sync never reads
// them.
//
// Each header's proof commits to its parent's hash, which covers the parent's proof: the chain
// is sequential by nature, so the generator runs on one thread and the result is cached on disk
// (header_chain_cache.ts) rather than parallelised.
import { toHex } from '../../core/bytes.js';
import {
  type ChainHeader,
  chainHeader,
  type HeaderSource,
} from '../../core/chain/header_source.js';
import { type NextBlockFacts, nextBlockFacts } from '../../core/chain/next_header.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { achievedDifficulty } from '../../core/consensus/difficulty.js';
import { customPolicyConfig, type PolicyConfig } from '../../core/consensus/feijoada.js';
import { SEEDHASH_EPOCH_BLOCKS } from '../../core/consensus/seed.js';
import { genesisHeader } from '../../core/genesis.js';
import { pushHeader } from '../../core/mmr/header_mmr.js';
import { MemBackend } from '../../core/mmr/mem_backend.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { mineCuckatoo } from '../../core/pow/solver.js';
import { encode } from '../../core/ser/codec.js';
import { prePow, writeHeader } from '../../core/ser/header.js';
import type { BlockHeader } from '../../core/types/block.js';
import { algoOfProof } from '../../core/types/pow.js';
import { cachedLengths, cachePath, readCost, writeChainFile, writeCost } from './chain_file.js';

export const AUTO = CHAIN_PARAMS.automated;
/** The node's `pow_policy = { cuckatoo = 100 }`, as the chain actor builds it. */
export const CUCKATOO_POLICY: PolicyConfig = customPolicyConfig({
  cuckaroo: 0,
  cuckatoo: 100,
  randomx: 0,
  progpow: 0,
});
/** Seconds between blocks: the target block time, so difficulty never moves off the floor. */
const SPACING = 60;
/**
 * Headers kept behind the tip for the difficulty window (Epic's 60-block window plus the
 * median-time headers) with a wide margin; a lookup beyond it fails loudly (MissingAncestor).
 */
const KEEP = 2_000;

/**
 * The headers consensus reads while building the next one: the last KEEP, and every RandomX
 * seed block (heights k·1000, looked up by hash from far ahead). Memory stays flat over a
 * 200,000-header chain.
 */
class WindowSource implements HeaderSource {
  private readonly byHex = new Map<string, ChainHeader>();
  private readonly byHeight = new Map<number, ChainHeader>();

  add(h: ChainHeader): void {
    const height = Number(h.header.height);
    this.byHex.set(toHex(h.hash), h);
    this.byHeight.set(height, h);
    const old = this.byHeight.get(height - KEEP);
    if (old !== undefined && old.header.height % SEEDHASH_EPOCH_BLOCKS !== 0n) {
      this.byHeight.delete(height - KEEP);
      this.byHex.delete(toHex(old.hash));
    }
  }

  byHash(hash: Uint8Array): ChainHeader | undefined {
    return this.byHex.get(toHex(hash));
  }

  // One chain only: the ancestor at a height is the chain's header there.
  ancestorAt(from: ChainHeader, height: bigint): ChainHeader | undefined {
    return height > from.header.height ? undefined : this.byHeight.get(Number(height));
  }
}

/** What a header commits to of its block's body: roots, sizes and the kernel offset. */
export type BodyCommitments = Pick<
  BlockHeader,
  | 'outputRoot'
  | 'rangeProofRoot'
  | 'kernelRoot'
  | 'totalKernelOffset'
  | 'outputMmrSize'
  | 'kernelMmrSize'
>;

/**
 * The header the facts call for, with `prevRoot` and time; its proof still to be found. The body
 * commitments are zero unless given (header sync never reads them; bench/lib/state_sync_archive.ts
 * gives the roots of its synthetic archive).
 */
export function unsolved(
  facts: NextBlockFacts,
  prevRoot: Uint8Array,
  timestamp: number,
  body?: BodyCommitments,
): BlockHeader {
  const zero = new Uint8Array(32);
  return {
    version: facts.version,
    height: facts.height,
    timestamp,
    prevHash: facts.prevHash,
    prevRoot,
    outputRoot: zero,
    rangeProofRoot: zero,
    kernelRoot: zero,
    totalKernelOffset: zero,
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    ...body,
    pow: {
      totalDifficulty: facts.totalDifficulty,
      secondaryScaling: facts.secondaryScaling,
      nonce: 0n,
      proof: { kind: 'Cuckoo', edgeBits: AUTO.minEdgeBits, nonces: [] },
      seed: facts.seed,
    },
    policy: facts.policy,
    bottles: facts.bottles,
  };
}

/**
 * The first nonce from 0 whose graph has a 4-cycle reaching the header's target (the increase
 * of total difficulty for the proof's algorithm, as checkDifficulty compares).
 */
export function solve(
  header: BlockHeader,
  facts: NextBlockFacts,
): { header: BlockHeader; tries: number } {
  const edgeBits = AUTO.minEdgeBits;
  let found: BlockHeader | null = null;
  const mined = mineCuckatoo(prePow(header, AUTO), edgeBits, AUTO.proofSize, {
    accept: (nonces, work) => {
      const nonce = new DataView(work.buffer, work.byteOffset).getBigUint64(work.length - 8);
      const proof = { kind: 'Cuckoo', edgeBits, nonces: [...nonces] } as const;
      const target = facts.difficulty[algoOfProof(proof)] ?? 0n;
      const candidate = { ...header, pow: { ...header.pow, nonce, proof } };
      if (achievedDifficulty(AUTO, header.height, candidate.pow) < target) return false;
      found = candidate;
      return true;
    },
  });
  if (mined === null || found === null) throw new Error(`no proof at ${header.height}`);
  return { header: found, tries: mined.tries };
}

export interface GenStats {
  readonly headers: number;
  readonly ms: number;
  /** Graphs solved in all (each a 512-edge siphash, trim and cycle search). */
  readonly graphs: number;
}

/**
 * Builds `count` headers after the automated-testing genesis, handing each (lowest first) to
 * `emit`. `progress` is called every 10,000 headers.
 */
export function generateHeaders(
  count: number,
  emit: (h: ChainHeader) => void,
  progress: (done: number) => void = () => undefined,
): GenStats {
  const started = performance.now();
  const source = new WindowSource();
  const mmr = new Mmr(new MemBackend({ prunable: false, keepData: false }));
  let tip = chainHeader(genesisHeader('automated'), AUTO);
  source.add(tip);
  pushHeader(mmr, tip.header, AUTO);
  let graphs = 0;
  for (let i = 1; i <= count; i++) {
    const facts = nextBlockFacts(tip, source, AUTO, CUCKATOO_POLICY);
    const draft = unsolved(facts, mmr.root(), tip.header.timestamp + SPACING);
    const solved = solve(draft, facts);
    graphs += solved.tries;
    tip = chainHeader(solved.header, AUTO);
    source.add(tip);
    pushHeader(mmr, tip.header, AUTO);
    emit(tip);
    if (i % 10_000 === 0) progress(i);
  }
  return { headers: count, ms: performance.now() - started, graphs };
}

/** Changes whenever the generator would make a different chain (the cache file's name). */
const GEN_VERSION = 'auto-cuckatoo100-h1';

export interface HeaderChain {
  readonly file: string;
  /** What generating it cost (recorded beside the cached file); null if not recorded. */
  readonly generated: GenStats | null;
  /** Whether this run found it cached. */
  readonly cached: boolean;
}

/**
 * A cached header chain of at least `count` headers (the generator is deterministic, so a longer
 * cached chain begins with the shorter one: peers serve a prefix), generated (and cached) first
 * when there is none.
 */
export function ensureHeaderChain(count: number, log: (line: string) => void): HeaderChain {
  const longer = cachedLengths(`headers-${GEN_VERSION}-`).find((n) => n >= count);
  if (longer !== undefined) {
    const cached = cachePath(`headers-${GEN_VERSION}-${longer}.bin`);
    return { file: cached, generated: readCost<GenStats>(cached), cached: true };
  }
  const file = cachePath(`headers-${GEN_VERSION}-${count}.bin`);
  log(`generating ${count} headers (cached in ${file} for later runs)`);
  const genesis = chainHeader(genesisHeader('automated'), AUTO);
  const hashes: Uint8Array[] = [genesis.hash];
  const headers: Uint8Array[] = [encode(writeHeader, genesis.header, 2, AUTO)];
  const stats = generateHeaders(
    count,
    (h) => {
      hashes.push(h.hash);
      headers.push(encode(writeHeader, h.header, 2, AUTO));
    },
    (done) => log(`  ${done} headers`),
  );
  writeChainFile(file, hashes, headers, null);
  writeCost(file, stats);
  return { file, generated: stats, cached: false };
}
