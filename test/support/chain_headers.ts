// In-memory header chains for the chain tests: each header carries exactly the facts
// nextBlockFacts computes for its parent, with a proof of the scheduled algorithm's kind.

import assert from 'node:assert/strict';
import {
  type ChainHeader,
  chainHeader,
  type HeaderSource,
  MemHeaderSource,
} from '../../core/chain/header_source.js';
import { cuckooEdgeBits } from '../../core/chain/mining_algo.js';
import {
  type ChainFactsCode,
  ChainFactsError,
  type NextBlockFacts,
  nextBlockFacts,
} from '../../core/chain/next_header.js';
import type { ChainParams } from '../../core/chain_type.js';
import type { PolicyConfig } from '../../core/consensus/feijoada.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Difficulty, PowAlgo, Proof } from '../../core/types/pow.js';

/**
 * A proof of `algo`'s kind that does not verify (tests skip or fake the PoW). A header's hash
 * covers its proof but not its height, so `tag` goes into the proof to keep hashes apart.
 */
export function proofFor(algo: PowAlgo, params: ChainParams, tag: bigint): Proof {
  const edgeBits = cuckooEdgeBits(algo, params);
  if (edgeBits !== undefined) {
    const nonces = new Array<bigint>(params.proofSize).fill(0n);
    nonces[0] = tag;
    return { kind: 'Cuckoo', edgeBits, nonces };
  }
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setBigUint64(0, tag);
  return algo === 'randomx' ? { kind: 'RandomX', hash: bytes } : { kind: 'ProgPow', mix: bytes };
}

/** The header a miner would submit for `facts`, zero roots and sizes. */
export function headerFromFacts(
  facts: NextBlockFacts,
  params: ChainParams,
  timestamp: number,
  tag: bigint = facts.height,
): BlockHeader {
  const zero = new Uint8Array(32);
  return {
    version: facts.version,
    height: facts.height,
    timestamp,
    prevHash: facts.prevHash,
    prevRoot: zero,
    outputRoot: zero,
    rangeProofRoot: zero,
    kernelRoot: zero,
    totalKernelOffset: zero,
    outputMmrSize: 0n,
    kernelMmrSize: 0n,
    pow: {
      totalDifficulty: facts.totalDifficulty,
      secondaryScaling: facts.secondaryScaling,
      nonce: facts.height,
      proof: proofFor(facts.algo, params, tag),
      seed: facts.seed,
    },
    policy: facts.policy,
    bottles: facts.bottles,
  };
}

export interface BuiltBlock {
  readonly block: ChainHeader;
  /** The facts its parent gave it. */
  readonly facts: NextBlockFacts;
}

export interface ChainOptions {
  /** Seconds after its parent of the block at `height`; 60 when absent. */
  readonly spacing?: (height: bigint) => number;
  /** Keeps a fork's headers apart from the main chain's at the same heights. */
  readonly fork?: bigint;
}

/** Grows `source` by `count` blocks on top of `from`, returning them oldest first. */
export function extendChain(
  source: MemHeaderSource,
  from: ChainHeader,
  count: number,
  params: ChainParams,
  policy: PolicyConfig,
  opts: ChainOptions = {},
): BuiltBlock[] {
  const out: BuiltBlock[] = [];
  let tip = from;
  for (let i = 0; i < count; i++) {
    const facts = nextBlockFacts(tip, source, params, policy);
    const gap = opts.spacing?.(facts.height) ?? 60;
    const tag = facts.height + (opts.fork ?? 0n) * 1_000_000n;
    const header = headerFromFacts(facts, params, tip.header.timestamp + gap, tag);
    const block = chainHeader(header, params);
    source.add(block);
    out.push({ block, facts });
    tip = block;
  }
  return out;
}

/** Genesis (given, or the chain type's) plus `count` blocks. */
export function buildChain(
  params: ChainParams,
  genesis: BlockHeader,
  count: number,
  policy: PolicyConfig,
  opts: ChainOptions = {},
): { readonly source: MemHeaderSource; readonly genesis: ChainHeader; blocks: BuiltBlock[] } {
  const g = chainHeader(genesis, params);
  const source = new MemHeaderSource([g]);
  return { source, genesis: g, blocks: extendChain(source, g, count, params, policy, opts) };
}

const LETTER: Record<PowAlgo, string> = {
  cuckaroo: 'K',
  cuckatoo: 'C',
  randomx: 'R',
  progpow: 'P',
};

/** The blocks' algorithms as letters: K cuckaroo, C cuckatoo, R randomx, P progpow. */
export const letters = (blocks: readonly BuiltBlock[]): string =>
  blocks.map((b) => LETTER[b.facts.algo]).join('');

/** A four-entry difficulty map in type-id order. */
export const diff = (cuckaroo: bigint, cuckatoo: bigint, randomx: bigint, progpow: bigint) =>
  ({ cuckaroo, cuckatoo, randomx, progpow }) satisfies Difficulty;

export function factsRejects(f: () => unknown, code: ChainFactsCode): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ChainFactsError, String(e));
    assert.equal(e.code, code, e.message);
    return true;
  });
}

/** A source without the fast path, so ancestorAt must walk prev_hash links. */
export const walkOnly = (s: HeaderSource): HeaderSource => ({ byHash: (h) => s.byHash(h) });

/** The block's header with `change` applied, hashed again. */
export function altered(
  b: ChainHeader,
  change: (h: BlockHeader) => BlockHeader,
  params: ChainParams,
): ChainHeader {
  return chainHeader(change(b.header), params);
}
