// The chain state a block changes: the output, range-proof, kernel and header MMRs, the bitmap
// accumulator, and the output/kernel indexes, all in the chain's one SQLite file. Applying or
// rewinding a block writes through; the caller's transaction (`transaction`) makes a whole
// block, or a whole reorg, commit or vanish together.
//
// The bitmap accumulator is kept in memory and rebuilt from the output leaf set on open and
// after a rollback (it is derived data: one bit per unspent output).
import type Database from 'better-sqlite3';
import { equalBytes } from '../../core/bytes.js';
import type { ChainParams } from '../../core/chain_type.js';
import { BitmapAccumulator, CHUNK_BITS } from '../../core/mmr/bitmap_accumulator.js';
import { headerLeafPos, pushHeader } from '../../core/mmr/header_mmr.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { hashLeaf } from '../../core/mmr/node_hash.js';
import { headerOutputRoot } from '../../core/mmr/output_root.js';
import { leafIndex } from '../../core/mmr/pos.js';
import { encode } from '../../core/ser/codec.js';
import { writeInput, writeKernel } from '../../core/ser/transaction.js';
import { Writer } from '../../core/ser/writer.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import type { Input, TxKernel } from '../../core/types/transaction.js';
import { ChainError, commitmentDebug } from './errors.js';
import { KernelIndex } from './kernel_index.js';
import { mmrTransaction, SqliteMmrBackend, type StoredMmrState } from './mmr_store.js';
import type { KernelAt } from './read_source.js';
import { type UnspentAt, UnspentIndex } from './unspent_index.js';

/** What state sync imports (state_sync.ts): the MMRs and the index rows. */
export interface ImportedState {
  readonly output: StoredMmrState;
  readonly rangeproof: StoredMmrState;
  readonly kernel: StoredMmrState;
  readonly header: StoredMmrState;
  readonly outputs: Iterable<{
    readonly commit: Uint8Array;
    readonly pos: number;
    readonly height: number;
  }>;
  readonly kernels: Iterable<{
    readonly pos: number;
    readonly excess: Uint8Array;
    readonly height: number;
  }>;
}

/** Where a spent output sat: its output MMR position and the height of its block. */
export interface CommitPos {
  readonly pos: bigint;
  readonly height: bigint;
}

export interface MmrRoots {
  readonly outputRoot: Uint8Array;
  readonly rangeProofRoot: Uint8Array;
  readonly kernelRoot: Uint8Array;
  readonly outputMmrSize: bigint;
  readonly kernelMmrSize: bigint;
}

export type MmrName = 'output' | 'rangeproof' | 'kernel' | 'header';
/** Which MMRs drop spent leaves. */
export const PRUNABLE: Record<MmrName, boolean> = {
  output: true,
  rangeproof: true,
  kernel: false,
  header: false,
};

interface IndexStatements {
  readonly kernelExcesses: Database.Statement<[], Buffer>;
}

/** Bytes from the end of a kernel's v2 data to its excess: the excess (33), the signature (64). */
const EXCESS_FROM_END = 97;
const SIGNATURE_SIZE = 64;

export class TxHashSet {
  private readonly db: Database.Database;
  private readonly params: ChainParams;
  private readonly backends: Record<MmrName, SqliteMmrBackend>;
  private mmrs!: Record<MmrName, Mmr>;
  private bitmap = new BitmapAccumulator();
  private readonly st: IndexStatements;
  /** output_pos, with its rows in memory too. */
  private readonly unspent: UnspentIndex;
  /** kernel_pos, with fingerprints of its rows in memory too. */
  private readonly kernels: KernelIndex;

  constructor(db: Database.Database, params: ChainParams) {
    this.db = db;
    this.params = params;
    const open = (name: MmrName) =>
      new SqliteMmrBackend(db, { name, prunable: PRUNABLE[name], keepData: true });
    this.backends = {
      output: open('output'),
      rangeproof: open('rangeproof'),
      kernel: open('kernel'),
      header: open('header'),
    };
    this.unspent = new UnspentIndex(db);
    this.kernels = new KernelIndex(db);
    this.st = {
      kernelExcesses: db.prepare<[], Buffer>('SELECT excess FROM kernel_pos ORDER BY pos').pluck(),
    };
    this.rebuildViews();
  }

  /** Fresh MMR views and bitmap after the backends' state changed under them (open, rollback). */
  private rebuildViews(): void {
    const b = this.backends;
    this.mmrs = {
      output: new Mmr(b.output),
      rangeproof: new Mmr(b.rangeproof),
      kernel: new Mmr(b.kernel),
      header: new Mmr(b.header),
    };
    // A fresh accumulator: `init` appends to whatever chunks an old one holds.
    this.bitmap = new BitmapAccumulator();
    this.bitmap.init(this.mmrs.output.leafIndices(0n), this.mmrs.output.leafCount);
  }

  /**
   * Runs `fn` in one SQLite transaction (a savepoint when nested). If it throws, SQLite rolls
   * back and so does every in-memory view; the error goes on.
   */
  transaction<T>(fn: () => T): T {
    try {
      return mmrTransaction(
        this.db,
        [...Object.values(this.backends), this.unspent.journal, this.kernels.journal],
        fn,
      );
    } catch (e) {
      this.rebuildViews();
      throw e;
    }
  }

  // ---- headers --------------------------------------------------------------------------

  /** Root of the header MMR: the `prev_root` the next header must carry. */
  headerRoot(): Uint8Array {
    return this.mmrs.header.root();
  }

  /** Number of headers in the header MMR (the next header's height). */
  headerCount(): bigint {
    return this.mmrs.header.leafCount;
  }

  pushHeader(header: BlockHeader): void {
    if (header.height !== this.headerCount())
      throw new ChainError('Other', `header ${header.height} after ${this.headerCount()} headers`);
    pushHeader(this.mmrs.header, header, this.params);
  }

  /** Keeps the headers at heights 0…`height`. */
  rewindHeaders(height: bigint): void {
    this.mmrs.header.rewind(headerLeafPos(height));
  }

  /** The hash of the header at `height` on the current header chain, if it is that long. */
  headerHashAt(height: bigint): Uint8Array | null {
    if (height < 0n || height >= this.headerCount()) return null;
    return this.mmrs.header.data(headerLeafPos(height));
  }

  // ---- blocks ---------------------------------------------------------------------------

  /** Epic's `apply_block`: outputs, then inputs, then kernels. Returns what the block spent. */
  applyBlock(block: Block): CommitPos[] {
    const height = block.header.height;
    const touched: bigint[] = [];
    for (const out of block.body.outputs) touched.push(this.applyOutput(out, out.proof, height));
    const spent = block.body.inputs.map((input) => this.applyInput(input));
    for (const s of spent) touched.push(s.pos);
    for (const k of block.body.kernels) this.applyKernel(k, height);
    this.refreshBitmap(touched);
    return spent;
  }

  private applyOutput(out: Input, proof: Uint8Array, height: bigint): bigint {
    const known = this.unspent.get(out.commit);
    if (known !== undefined && this.mmrs.output.hash(BigInt(known.pos)) !== null) {
      const data = this.mmrs.output.data(BigInt(known.pos));
      if (data !== null && equalBytes(data.subarray(1), out.commit))
        throw new ChainError('DuplicateCommitment', commitmentDebug(out.commit));
    }
    const pos = this.mmrs.output.push(outputElement(out, this.params));
    const proofPos = this.mmrs.rangeproof.push(rangeProofElement(proof, this.params));
    if (pos !== proofPos)
      throw new ChainError('Other', `output at ${pos} but its range proof at ${proofPos}`);
    this.unspent.put(out.commit, Number(pos), Number(height));
    return pos;
  }

  private applyInput(input: Input): CommitPos {
    const known = this.unspent.get(input.commit);
    if (known === undefined) throw new ChainError('AlreadySpent', commitmentDebug(input.commit));
    const pos = BigInt(known.pos);
    const leaf = this.mmrs.output.hash(pos);
    // The features must match too: they are part of the leaf's hash.
    if (
      leaf === null ||
      !equalBytes(leaf, hashLeaf(known.pos - 1, outputElement(input, this.params)))
    )
      throw new ChainError('AlreadySpent', commitmentDebug(input.commit));
    this.mmrs.output.prune(pos);
    this.mmrs.rangeproof.prune(pos);
    this.unspent.delete(input.commit);
    return { pos, height: BigInt(known.height) };
  }

  private applyKernel(kernel: TxKernel, height: bigint): void {
    const element = encode(writeKernel, kernel, 1, this.params, 'hash');
    const data = encode(writeKernel, kernel, 2, this.params);
    const pos = this.mmrs.kernel.push(element, data);
    this.kernels.put(Number(pos), kernel.excess, Number(height));
  }

  /**
   * Undoes `block`, whose parent is `parent` and which spent `spent`: MMRs back to the parent's
   * sizes with the spent leaves unspent again, and the indexes as they were.
   */
  rewindBlock(block: Block, parent: BlockHeader, spent: readonly CommitPos[]): void {
    for (const out of block.body.outputs) {
      const known = this.unspent.get(out.commit);
      if (known !== undefined && BigInt(known.pos) > parent.outputMmrSize)
        this.unspent.delete(out.commit);
    }
    const restored = spent.map((s) => s.pos);
    this.mmrs.output.rewind(parent.outputMmrSize, restored);
    this.mmrs.rangeproof.rewind(parent.outputMmrSize, restored);
    this.mmrs.kernel.rewind(parent.kernelMmrSize);
    this.kernels.truncate(Number(parent.kernelMmrSize));
    for (const s of spent) {
      const data = this.mmrs.output.data(s.pos);
      if (data === null) throw new ChainError('Other', `no output data at ${s.pos} to restore`);
      this.unspent.put(data.slice(1), Number(s.pos), Number(s.height));
    }
    // Everything from the first truncated leaf on changed as well.
    this.refreshBitmap(restored, leafIndex(parent.outputMmrSize + 1n));
  }

  /** Rebuilds the bitmap from the chunk of the lowest touched output position on. */
  private refreshBitmap(positions: readonly bigint[], floor?: bigint): void {
    let from = floor ?? null;
    for (const p of positions) {
      const idx = leafIndex(p);
      if (from === null || idx < from) from = idx;
    }
    if (from === null) return;
    const start = (from / BigInt(CHUNK_BITS)) * BigInt(CHUNK_BITS);
    const out = this.mmrs.output;
    this.bitmap.apply([from], out.leafIndices(start), out.leafCount);
  }

  /** Roots and sizes as a header of `version` commits to them. */
  roots(version: number): MmrRoots {
    const output = this.mmrs.output;
    const outputMmrSize = output.size;
    return {
      outputRoot: headerOutputRoot(version, outputMmrSize, output.root(), this.bitmap.root()),
      rangeProofRoot: this.mmrs.rangeproof.root(),
      kernelRoot: this.mmrs.kernel.root(),
      outputMmrSize,
      kernelMmrSize: this.mmrs.kernel.size,
    };
  }

  /** Epic's `validate_roots` and `validate_sizes` for a block just applied. */
  checkAgainst(header: BlockHeader): void {
    const r = this.roots(header.version);
    const sameRoots =
      equalBytes(r.outputRoot, header.outputRoot) &&
      equalBytes(r.rangeProofRoot, header.rangeProofRoot) &&
      equalBytes(r.kernelRoot, header.kernelRoot);
    if (!sameRoots) throw new ChainError('InvalidRoot');
    if (r.outputMmrSize !== header.outputMmrSize || r.kernelMmrSize !== header.kernelMmrSize)
      throw new ChainError('InvalidMMRSize');
    if (this.mmrs.rangeproof.size !== r.outputMmrSize) throw new ChainError('InvalidMMRSize');
  }

  /** Removes spent outputs and proofs up to `cutoff` except `keep` (spent after the horizon). */
  compact(cutoff: bigint, keep: readonly bigint[]): void {
    this.mmrs.output.compact(cutoff, keep);
    this.mmrs.rangeproof.compact(cutoff, keep);
  }

  /**
   * State sync: the output, range-proof and kernel MMRs and both indexes become `state`'s, and
   * the header MMR becomes `headerNodes` (the header chain's up to the archive header). Inside
   * the caller's transaction.
   */
  importState(state: ImportedState): void {
    this.backends.output.replace(state.output);
    this.backends.rangeproof.replace(state.rangeproof);
    this.backends.kernel.replace(state.kernel);
    this.backends.header.replace(state.header);
    this.unspent.replace(state.outputs);
    this.kernels.replace(state.kernels);
    this.rebuildViews();
  }

  /** Epic's fast `validate`: every stored parent hash of the three MMRs rehashed. */
  validateMmrs(): void {
    for (const name of ['output', 'rangeproof', 'kernel'] as const) this.mmrs[name].validate();
  }

  /** Commitments of every unspent output, by output MMR position. */
  unspentCommitments(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const pos of this.mmrs.output.leafPositions()) {
      const data = this.mmrs.output.data(pos);
      if (data === null) throw new ChainError('Other', `no output data at ${pos}`);
      out.push(data.slice(1));
    }
    return out;
  }

  /** Excesses of every kernel, in MMR order. */
  kernelExcesses(): Uint8Array[] {
    return this.st.kernelExcesses.all().map((b) => new Uint8Array(b));
  }

  /** Kernels with `excess`, highest position first: (position, height). */
  kernelsByExcess(excess: Uint8Array): KernelAt[] {
    // A fingerprint match is confirmed on the kernel's bytes (a miss reads nothing), which the
    // caller then prints from.
    const found: KernelAt[] = [];
    for (const k of this.kernels.candidates(excess)) {
      const data = this.mmrs.kernel.data(k.pos);
      if (data === null) continue;
      const end = data.length - SIGNATURE_SIZE;
      if (equalBytes(data.subarray(data.length - EXCESS_FROM_END, end), excess))
        found.push({ ...k, data });
    }
    return found;
  }

  /** The index entry of the unspent output with `commit` (a new object whenever it changes). */
  unspentAt(commit: Uint8Array): UnspentAt | undefined {
    return this.unspent.get(commit);
  }

  /** As `unspentAt`, by the commitment's key (unspent_index.ts `keyOf`). */
  unspentAtKey(key: string): UnspentAt | undefined {
    return this.unspent.getByKey(key);
  }

  /** Where the unspent output with `commit` sits, if any. */
  outputPos(commit: Uint8Array): CommitPos | undefined {
    const row = this.unspent.get(commit);
    return row && { pos: BigInt(row.pos), height: BigInt(row.height) };
  }

  /** The output MMR (reads only: proofs, unspent scans). */
  get outputMmr(): Mmr {
    return this.mmrs.output;
  }

  get rangeProofMmr(): Mmr {
    return this.mmrs.rangeproof;
  }

  get kernelMmr(): Mmr {
    return this.mmrs.kernel;
  }
}

/** An output MMR leaf: the output identifier (features ‖ commitment) in hash mode. */
function outputElement(out: Input, params: ChainParams): Uint8Array {
  return encode(writeInput, { features: out.features, commit: out.commit }, 2, params, 'hash');
}

/** A range-proof MMR leaf: u64 length ‖ proof. */
function rangeProofElement(proof: Uint8Array, params: ChainParams): Uint8Array {
  const w = new Writer('hash', 2, params, proof.length + 8);
  w.lenPrefixed(proof);
  return w.bytes().slice();
}
