// The state-sync bench's synthetic archive: a short automated-testing header chain whose blocks
// hold `outputs` copies of the cached value-0 pairs (bench/lib/state_sync_pairs.ts) spread evenly
// over `blocks` blocks, plus, in the last block, one output holding the chain's whole reward so
// far with its coinbase kernel, so the kernel sums at the tip balance with a zero kernel offset
// (Σ outputs − overage·H = Σ excesses). The three MMRs are built with the chain's own MMR code
// (core/mmr, the leaf encodings of actors/chain/txhashset.ts) and every header carries their
// roots and sizes at its height, so `validateArchiveMmrs` checks a kernel history of `blocks`
// headers. Headers are real: consensus facts from their parent and a Cuckatoo proof (the
// header-sync bench's generator), so the chain service's header sync accepts them.
//
// Such a chain could never be mined: its unspent outputs repeat commitments, which the block
// pipeline refuses (DuplicateCommitment). Archive validation does not look for duplicates, as
// Epic's does not; the import keeps one `output_pos` row per distinct commitment (INSERT OR
// REPLACE), so the imported index is smaller than a real one of the same size would be.
import { chainHeader, MemHeaderSource } from '../../core/chain/header_source.js';
import { nextBlockFacts } from '../../core/chain/next_header.js';
import { totalOverageAtHeight } from '../../core/consensus/rewards.js';
import { genesisHeader } from '../../core/genesis.js';
import { BitmapAccumulator } from '../../core/mmr/bitmap_accumulator.js';
import { pushHeader } from '../../core/mmr/header_mmr.js';
import { MemBackend } from '../../core/mmr/mem_backend.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { headerOutputRoot } from '../../core/mmr/output_root.js';
import { encode } from '../../core/ser/codec.js';
import { writeInput, writeKernel } from '../../core/ser/transaction.js';
import { Writer } from '../../core/ser/writer.js';
import { writeArchive } from '../../core/txhashset/archive.js';
import { describeMmr, type MmrDescription, type MmrKind } from '../../core/txhashset/mmr_files.js';
import type { BlockHeader } from '../../core/types/block.js';
import type { Output, TxKernel } from '../../core/types/transaction.js';
import { AUTO, CUCKATOO_POLICY, solve, unsolved } from './header_chain_gen.js';
import { type Pair, rewardPair } from './state_sync_pairs.js';

/** Seconds between headers: the target block time, as the header-sync bench's generator. */
const SPACING = 60;

export interface SyntheticArchive {
  readonly zip: Uint8Array;
  /** Headers 1…tip (genesis excluded), ascending: what header sync is given. */
  readonly headers: BlockHeader[];
  readonly tip: BlockHeader;
  readonly hash: Uint8Array;
  /** Unspent outputs (= range proofs) and kernels in the archive. */
  readonly outputs: number;
  readonly kernels: number;
  /** Positions of the three MMRs. */
  readonly sizes: { readonly output: number; readonly kernel: number };
  readonly buildSeconds: number;
}

/** The three MMRs as the chain builds them, in memory. */
class BodyMmrs {
  readonly output = new Mmr(new MemBackend({ prunable: true }));
  readonly rangeproof = new Mmr(new MemBackend({ prunable: true }));
  readonly kernel = new Mmr(new MemBackend({ prunable: false }));
  private readonly encoded = new WeakMap<object, { element: Uint8Array; data?: Uint8Array }>();

  /** An encoding made once per distinct output or kernel: the copies share it. */
  private once(key: object, make: () => { element: Uint8Array; data?: Uint8Array }) {
    let e = this.encoded.get(key);
    if (e === undefined) {
      e = make();
      this.encoded.set(key, e);
    }
    return e;
  }

  addOutput(o: Output): void {
    const id = this.once(o.commit, () => ({
      element: encode(writeInput, { features: o.features, commit: o.commit }, 2, AUTO, 'hash'),
    }));
    const proof = this.once(o.proof, () => {
      const w = new Writer('hash', 2, AUTO, o.proof.length + 8);
      w.lenPrefixed(o.proof);
      return { element: w.bytes().slice() };
    });
    this.output.push(id.element);
    this.rangeproof.push(proof.element);
  }

  addKernel(k: TxKernel): void {
    const e = this.once(k.excessSig, () => ({
      element: encode(writeKernel, k, 1, AUTO, 'hash'),
      data: encode(writeKernel, k, 2, AUTO),
    }));
    this.kernel.push(e.element, e.data);
  }

  /** What a header at this point commits to (no kernel offset: every block's is zero). */
  commitments(version: number) {
    const leaves = this.output.leafCount;
    const bitmap = new BitmapAccumulator();
    bitmap.init(
      (function* () {
        for (let i = 0n; i < leaves; i++) yield i;
      })(),
      leaves,
    );
    return {
      outputRoot: headerOutputRoot(version, this.output.size, this.output.root(), bitmap.root()),
      rangeProofRoot: this.rangeproof.root(),
      kernelRoot: this.kernel.root(),
      totalKernelOffset: new Uint8Array(32),
      outputMmrSize: this.output.size,
      kernelMmrSize: this.kernel.size,
    };
  }

  describe(kind: MmrKind): MmrDescription {
    const mmr = this[kind];
    const backend = mmr.backend;
    const size = Number(mmr.size);
    return describeMmr({
      kind,
      size,
      hash: (pos) => backend.hash(pos),
      element: (pos) => backend.data(pos),
      leafSet: kind === 'kernel' ? null : backend.leafSet.positions(),
      pruneRoots: null,
    });
  }
}

/**
 * Builds the archive: `outputs` pair copies (and as many kernels) over `blocks` blocks, the
 * reward output and its kernel in the last. Takes seconds (MMR hashing, one range proof for the
 * reward, a Cuckatoo proof per header), so it is made afresh each run.
 */
export function buildArchive(
  pairs: readonly Pair[],
  outputs: number,
  blocks: number,
): SyntheticArchive {
  const started = performance.now();
  const reward = rewardPair(totalOverageAtHeight('automated', BigInt(blocks)));
  const body = new BodyMmrs();
  const source = new MemHeaderSource();
  const headerMmr = new Mmr(new MemBackend({ prunable: false, keepData: false }));
  let tip = chainHeader(genesisHeader('automated'), AUTO);
  source.add(tip);
  pushHeader(headerMmr, tip.header, AUTO);
  const headers: BlockHeader[] = [];
  for (let b = 1; b <= blocks; b++) {
    const from = Math.floor(((b - 1) * outputs) / blocks);
    const to = Math.floor((b * outputs) / blocks);
    const inBlock: Pair[] = [];
    for (let i = from; i < to; i++) inBlock.push(pairs[i % pairs.length] as Pair);
    if (b === blocks) inBlock.push(reward);
    // A block's outputs go in before its kernels (the order does not matter across MMRs).
    for (const p of inBlock) body.addOutput(p.output);
    for (const p of inBlock) body.addKernel(p.kernel);
    const facts = nextBlockFacts(tip, source, AUTO, CUCKATOO_POLICY);
    const draft = unsolved(
      facts,
      headerMmr.root(),
      tip.header.timestamp + SPACING,
      body.commitments(facts.version),
    );
    tip = chainHeader(solve(draft, facts).header, AUTO);
    source.add(tip);
    pushHeader(headerMmr, tip.header, AUTO);
    headers.push(tip.header);
  }
  const mmrs = {
    output: body.describe('output'),
    rangeproof: body.describe('rangeproof'),
    kernel: body.describe('kernel'),
  };
  const zip = writeArchive(mmrs, tip.header, AUTO);
  return {
    zip,
    headers,
    tip: tip.header,
    hash: tip.hash,
    outputs: outputs + 1,
    kernels: outputs + 1,
    sizes: { output: mmrs.output.size, kernel: mmrs.kernel.size },
    buildSeconds: (performance.now() - started) / 1000,
  };
}
