// The costly checks of a block, run in the worker pool: its proof of work, its range proofs and
// its kernel signatures. The pipeline sees only this interface, so a test can run the real
// checks inline and the node runs them on Piscina workers.
import { toHex } from '../../core/bytes.js';
import type { ChainType } from '../../core/chain_type.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import { type PowVerdict, powItemOfHeader, verifyPows } from '../../jobs/pow.js';
import { type Verdict, verifyKernels, verifyRangeProofs } from '../../jobs/verify.js';
import type { WorkPool } from '../../runtime/index.js';

export interface BodyVerdicts {
  readonly rangeProofs: readonly Verdict[];
  readonly kernels: readonly Verdict[];
}

export interface BlockVerifier {
  /** The proof of work alone (target 0): valid or why not, and the difficulty it achieves. */
  pow(header: BlockHeader): Promise<PowVerdict>;
  /** The same for many headers at once (header sync), one verdict each, in order. */
  pows(headers: readonly BlockHeader[]): Promise<PowVerdict[]>;
  /** Every range proof and kernel signature of the block, one verdict each, in order. */
  body(block: Block): Promise<BodyVerdicts>;
}

export function poolVerifier(pool: WorkPool, chain: ChainType): BlockVerifier {
  return {
    pow: async (header) => {
      const [verdict] = await verifyPows(pool, [powItemOfHeader(header, chain, 0n)]);
      if (verdict === undefined) throw new Error('the pool returned no PoW verdict');
      return verdict;
    },
    pows: async (headers) => {
      // Items go to workers in contiguous chunks: ordered by RandomX key, a chunk (nearly
      // always) needs one key, and a worker's two cached keys are never thrashed. Other
      // algorithms need no key and go first.
      const key = (h: BlockHeader): string =>
        h.pow.proof.kind === 'RandomX' ? `1${toHex(h.pow.seed)}` : '0';
      const order = headers.map((h, i) => ({ i, key: key(h) }));
      order.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
      const items = order.map(({ i }) => powItemOfHeader(headers[i] as BlockHeader, chain, 0n));
      const sorted = await verifyPows(pool, items);
      const out = new Array<PowVerdict>(headers.length);
      order.forEach(({ i }, at) => {
        const verdict = sorted[at];
        if (verdict === undefined) throw new Error('the pool returned too few PoW verdicts');
        out[i] = verdict;
      });
      return out;
    },
    body: async (block) => {
      const [rangeProofs, kernels] = await Promise.all([
        block.body.outputs.length === 0 ? [] : verifyRangeProofs(pool, block.body.outputs),
        block.body.kernels.length === 0 ? [] : verifyKernels(pool, block.body.kernels),
      ]);
      return { rangeProofs, kernels };
    },
  };
}

/**
 * Starts a block's body checks (and a header page's proofs) as it arrives, ahead of its turn:
 * while the chain applies one block or page (SQLite, sums, roots), the workers already check
 * what is queued behind it, so a sync keeps every core busy. The pipeline's own call then gets
 * the verdicts already under way. Keyed by object, so nothing outlives the blocks and headers.
 */
export class AheadVerifier implements BlockVerifier {
  private readonly inner: BlockVerifier;
  private readonly started = new WeakMap<Block, Promise<BodyVerdicts>>();
  private readonly headerPows = new WeakMap<BlockHeader, Promise<PowVerdict>>();

  constructor(inner: BlockVerifier) {
    this.inner = inner;
  }

  start(block: Block): void {
    if (this.started.has(block)) return;
    const verdicts = this.inner.body(block);
    // A block refused before its body is checked never asks for these verdicts.
    verdicts.catch(() => undefined);
    this.started.set(block, verdicts);
  }

  pow(header: BlockHeader): Promise<PowVerdict> {
    return this.inner.pow(header);
  }

  /** The same for a page of headers from header sync: their proofs, as one pool batch. */
  startPows(headers: readonly BlockHeader[]): void {
    const all = this.inner.pows(headers);
    all.catch(() => undefined);
    headers.forEach((h, i) => {
      const one = all.then((verdicts) => {
        const v = verdicts[i];
        if (v === undefined) throw new Error('the pool returned too few PoW verdicts');
        return v;
      });
      one.catch(() => undefined);
      this.headerPows.set(h, one);
    });
  }

  pows(headers: readonly BlockHeader[]): Promise<PowVerdict[]> {
    const early = headers.map((h) => this.headerPows.get(h));
    for (const h of headers) this.headerPows.delete(h);
    if (early.every((p) => p !== undefined)) return Promise.all(early as Promise<PowVerdict>[]);
    return this.inner.pows(headers);
  }

  body(block: Block): Promise<BodyVerdicts> {
    const early = this.started.get(block);
    this.started.delete(block);
    return early ?? this.inner.body(block);
  }
}
