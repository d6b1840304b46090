// The node API's chain reads (node-api reference §4.1–4.8, §6), answered from the store and
// the txhashset as Epic's `api/src/foreign.rs` and handlers do. Replies are plain JSON built by
// the printable builders (core/serde/printable_*.ts) so they cross the actor's thread as data;
// domain failures come back as Epic's error variants, never as exceptions.
import { randomBytes } from 'node:crypto';
import { equalBytes, toHex } from '../../core/bytes.js';
import { compactBlockOf } from '../../core/chain/compact_block.js';
import { indentedJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import type { MmrBackend } from '../../core/mmr/backend.js';
import type { MerkleProof } from '../../core/mmr/merkle_proof.js';
import { merkleProofToHex } from '../../core/mmr/merkle_proof.js';
import { Mmr } from '../../core/mmr/mmr.js';
import { hashLeaf } from '../../core/mmr/node_hash.js';
import { decode, encode } from '../../core/ser/codec.js';
import { readKernel, writeInput } from '../../core/ser/transaction.js';
import {
  blockPrintable,
  compactBlockPrintable,
  headerPrintable,
} from '../../core/serde/printable_block.js';
import {
  locatedKernel,
  outputListing,
  outputPrintable,
  type PrintedParts,
  printedOutput,
  rangeProofHash,
} from '../../core/serde/printable_output.js';
import { kernelToJson } from '../../core/serde/transaction.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import type { Output, OutputFeatures } from '../../core/types/transaction.js';
import type { SharedRing } from '../../runtime/index.js';
import type {
  BlockRef,
  ChainRead,
  PrintedOutputs,
  PrintedOutputsQuery,
  ReadResult,
} from './messages.js';
import type { ChainReadSource, ReadTxHashSet } from './read_source.js';
import type { StoredHeader } from './store.js';
import type { CommitPos } from './txhashset.js';
import type { UnspentAt } from './unspent_index.js';

/** Epic's clamp on `max` for unspent-output listings. */
export const MAX_OUTPUT_LISTING = 10_000n;

const V2 = 2;
const COMMIT_SIZE = 33;
/** Bytes of the u64 length prefix in a range-proof MMR leaf. */
const PROOF_PREFIX = 8;

class ReadFailure extends Error {
  readonly result: ReadResult;
  constructor(result: ReadResult) {
    super('read failure');
    this.result = result;
  }
}

const notFound = (): never => {
  throw new ReadFailure({ err: 'NotFound' });
};

/** A read-only view of `backend` as it was at `size` (hashes at or below a size never change). */
function backendAt(backend: MmrBackend, size: bigint): MmrBackend {
  const n = Number(size);
  const refuse = (): never => {
    throw new Error('read-only MMR view');
  };
  return {
    prunable: backend.prunable,
    leafSet: backend.leafSet,
    pruneList: backend.pruneList,
    size: () => n,
    hash: (pos) => (pos <= n ? backend.hash(pos) : null),
    data: (pos) => (pos <= n ? backend.data(pos) : null),
    append: refuse,
    truncate: refuse,
    discard: refuse,
  };
}

export class ChainQueries {
  private readonly store: ChainReadSource;
  /** Printable parts of unspent outputs asked about, by their index entries. */
  private readonly printed = new WeakMap<UnspentAt, PrintedParts>();
  /** Their texts as get_outputs replies print them (printedOutputs), by the same entries. */
  private readonly texts = new WeakMap<UnspentAt, { indent: string; text: Buffer }>();
  private readonly replyRing: SharedRing | undefined;
  /** Where a reply body is gathered before it goes into the ring; as big as the biggest yet. */
  private scratch = Buffer.alloc(0);

  /**
   * `replyRing`: where printedOutputs lends its bodies to the gateway (shared_ring.ts); without
   * one they travel in the reply.
   */
  constructor(store: ChainReadSource, replyRing?: SharedRing) {
    this.store = store;
    this.replyRing = replyRing;
  }

  run(q: ChainRead): ReadResult {
    try {
      return { ok: this.answer(q) };
    } catch (e) {
      if (e instanceof ReadFailure) return e.result;
      throw e;
    }
  }

  private answer(q: ChainRead): JsonValue {
    switch (q.kind) {
      case 'header': {
        const h = this.headerOf(q.by);
        return headerPrintable(h.header, h.hash);
      }
      case 'block':
        if (q.compact === true) return this.compactBlockJson(this.headerOf(q.by));
        return this.blockJson(
          this.headerOf(q.by),
          q.includeProof ?? true,
          q.includeMerkleProof ?? true,
        );
      case 'blocks':
        return this.blocks(q.start, q.end);
      case 'kernel':
        return this.kernel(q.excess, q.minHeight, q.maxHeight);
      case 'lastKernels':
        return this.txhashset.kernelMmr
          .lastLeaves(q.n)
          .map((l) => kernelToJson(decode(readKernel, l.data, V2, this.store.params, 'kernel')));
      case 'outputs':
        return this.outputs(q);
      case 'unspentOutputs':
        return this.unspentOutputs(q.start, q.end, q.max, q.includeProof);
      case 'pmmrIndices':
        return this.pmmrIndices(q.start, q.end);
      case 'roots':
        return this.roots();
      case 'lastLeafHashes':
        return this.lastLeafHashes(q.mmr, q.n);
      case 'currentMerkleProof':
        return this.currentMerkleProof(q.commit);
    }
  }

  private get txhashset(): ReadTxHashSet {
    return this.store.txhashset;
  }

  private head(): StoredHeader {
    const head = this.store.tip('head');
    if (head === null) throw new ReadFailure({ err: 'Internal', message: 'no head' });
    return head;
  }

  /** Height → main-chain header; hash → any known header; commit → its unspent output's block. */
  private headerOf(by: BlockRef): StoredHeader {
    let h: StoredHeader | undefined;
    if ('height' in by) h = this.store.headerAtHeight(by.height);
    else if ('hash' in by) h = this.store.header(by.hash);
    else {
      const at = this.txhashset.outputPos(by.commit);
      h = at === undefined ? undefined : this.store.headerAtHeight(at.height);
    }
    return h ?? notFound();
  }

  /** get_block: range proofs and Merkle proofs for unspent coinbase outputs, unless told not to. */
  private blockJson(h: StoredHeader, proof: boolean, merkle: boolean): JsonValue {
    const block = this.store.block(h.hash) ?? notFound();
    return this.blockPrintable(block, h.hash, proof, merkle);
  }

  /**
   * Epic's CompactBlock of a stored block (a fresh random nonce keys the short ids), printed
   * in the compact block's own order: short ids sorted by their hash, as the wire has them.
   */
  private compactBlockJson(h: StoredHeader): JsonValue {
    const block = this.store.block(h.hash) ?? notFound();
    const nonce = new DataView(randomBytes(8).buffer).getBigUint64(0);
    const cb = compactBlockOf(block, h.hash, nonce, this.store.params);
    const outFull = cb.body.outFull.map((o) => this.outputJson(o, block.header, false, true));
    return compactBlockPrintable(block.header, h.hash, outFull, cb.body.kernFull, cb.body.kernIds);
  }

  private blockPrintable(block: Block, hash: Uint8Array, proof: boolean, merkle: boolean) {
    const outputs = block.body.outputs.map((o) => this.outputJson(o, block.header, proof, merkle));
    return blockPrintable(block, hash, outputs);
  }

  private blocks(start: bigint, end: bigint): JsonValue {
    const out: JsonValue[] = [];
    for (let height = start; height <= end; height++) {
      const h = this.store.headerAtHeight(height);
      const block = h && this.store.block(h.hash);
      if (h !== undefined && block !== undefined)
        out.push(this.blockPrintable(block, h.hash, true, true));
    }
    return out;
  }

  /** Epic's `is_unspent`: the index entry, and the MMR leaf matching features and commitment. */
  private unspent(features: OutputFeatures, commit: Uint8Array): CommitPos | undefined {
    const at = this.txhashset.outputPos(commit);
    if (at === undefined) return undefined;
    const leaf = this.txhashset.outputMmr.hash(at.pos);
    const element = encode(writeInput, { features, commit }, V2, this.store.params, 'hash');
    return leaf !== null && equalBytes(leaf, hashLeaf(Number(at.pos) - 1, element))
      ? at
      : undefined;
  }

  /** OutputPrintable of `o`; `header` is the block holding it (for its Merkle proof). */
  private outputJson(
    o: Output,
    header: BlockHeader | null,
    proof: boolean,
    merkle: boolean,
    /** Where `o` is known to sit unspent (saves the lookups on the get_outputs hot path). */
    known?: CommitPos,
  ) {
    const at = known ?? this.unspent(o.features, o.commit);
    let merkleProof: MerkleProof | null = null;
    if (merkle && o.features === 'Coinbase' && at !== undefined && header !== null)
      merkleProof = this.merkleProofAt(at.pos, header.outputMmrSize);
    return outputPrintable({
      features: o.features,
      commit: o.commit,
      proof: o.proof,
      unspentHeight: at?.height ?? null,
      mmrIndex: known?.pos ?? this.txhashset.outputPos(o.commit)?.pos ?? 0n,
      includeProof: proof,
      merkleProof,
    });
  }

  /** Epic rewinds the output MMR to the block's header first: the same proof, without the rewind. */
  private merkleProofAt(pos: bigint, size: bigint): MerkleProof | null {
    const mmr = this.txhashset.outputMmr;
    if (pos > size || size > mmr.size) return null;
    try {
      return new Mmr(backendAt(mmr.backend, size)).merkleProof(pos);
    } catch {
      return null; // Epic's `.ok()`: no proof rather than a failed reply
    }
  }

  /** The unspent output with `commit`, from the MMRs (Epic's `get_unspent`). */
  private unspentOutput(commit: Uint8Array): { output: Output; at: CommitPos } | undefined {
    const at = this.txhashset.outputPos(commit);
    if (at === undefined) return undefined;
    const id = this.txhashset.outputMmr.data(at.pos);
    const rp = this.txhashset.rangeProofMmr.data(at.pos);
    if (id === null || rp === null || !equalBytes(id.subarray(1), commit)) return undefined;
    const features: OutputFeatures = id[0] === 1 ? 'Coinbase' : 'Plain';
    return { output: { features, commit, proof: rp.subarray(PROOF_PREFIX) }, at };
  }

  /**
   * An unspent output's printable parts without its proof or Merkle proof, kept for as long as
   * the index keeps its entry (a spend or a rewind replaces it): a wallet asks about the same
   * outputs at every refresh, and then no MMR read is needed.
   */
  private printedUnspent(commit: Uint8Array): PrintedParts | undefined {
    const at = this.txhashset.unspentAt(commit);
    if (at === undefined) return undefined;
    const cached = this.printed.get(at);
    if (cached !== undefined) return cached;
    const parts = this.partsOf(at, commit);
    if (parts !== undefined) this.printed.set(at, parts);
    return parts;
  }

  /** The printable parts (no proofs) of the output the index entry `at` says is unspent. */
  private partsOf(at: UnspentAt, commit: Uint8Array): PrintedParts | undefined {
    const pos = BigInt(at.pos);
    const id = this.txhashset.outputMmr.data(pos);
    const rp = this.txhashset.rangeProofMmr.data(pos);
    if (id === null || rp === null || !equalBytes(id.subarray(1), commit)) return undefined;
    return {
      outputType: id[0] === 1 ? 'Coinbase' : 'Transaction',
      commit: toHex(commit),
      proof: null,
      proofHash: toHex(rangeProofHash(rp.subarray(PROOF_PREFIX))),
      unspentHeight: BigInt(at.height),
      merkleProof: null,
      mmrIndex: pos,
    };
  }

  /**
   * get_outputs of a wallet's refresh (no proofs), the whole reply body: `before`, each unspent
   * output's text as the JSON-RPC reply prints its elements (lines indented by `indent`, joined
   * by `,\n` + `indent`, kept with the output's index entry as the parts are), `after`.
   */
  printedOutputs(q: PrintedOutputsQuery): PrintedOutputs {
    const { commits, indent } = q;
    const keys = Buffer.from(commits.buffer, commits.byteOffset, commits.byteLength).toString(
      'latin1',
    );
    const separator = Buffer.from(`,\n${indent}`, 'latin1');
    const texts: Buffer[] = [Buffer.from(q.before, 'latin1')];
    let count = 0;
    let length = (texts[0] as Buffer).length;
    for (let i = 0; i + COMMIT_SIZE <= keys.length; i += COMMIT_SIZE) {
      const at = this.txhashset.unspentAtKey(keys.slice(i, i + COMMIT_SIZE));
      if (at === undefined) continue; // Epic skips what it cannot find
      const text = this.printedText(at, commits.subarray(i, i + COMMIT_SIZE), indent);
      if (text === undefined) continue;
      if (count++ > 0) {
        texts.push(separator);
        length += separator.length;
      }
      texts.push(text);
      length += text.length;
    }
    if (count === 0) return { count, text: new Uint8Array(0), lent: null };
    const after = Buffer.from(q.after, 'latin1');
    texts.push(after);
    length += after.length;
    const lent = this.replyRing?.lend(length);
    if (lent === undefined) return { count, text: Buffer.concat(texts, length), lent: null };
    // Gathered in private memory, then one copy into the shared ring: a thousand small copies
    // into shared memory cost several times more.
    if (this.scratch.length < length) this.scratch = Buffer.allocUnsafeSlow(2 * length);
    let at = 0;
    for (const t of texts) {
      this.scratch.set(t, at);
      at += t.length;
    }
    lent.bytes.set(this.scratch.subarray(0, length));
    return { count, text: new Uint8Array(0), lent: lent.slice };
  }

  private printedText(at: UnspentAt, commit: Uint8Array, indent: string): Buffer | undefined {
    const cached = this.texts.get(at);
    if (cached !== undefined && cached.indent === indent) return cached.text;
    const parts = this.partsOf(at, commit);
    if (parts === undefined) return undefined;
    const text = Buffer.from(indentedJson(printedOutput(parts), indent), 'latin1');
    this.texts.set(at, { indent, text });
    return text;
  }

  private outputs(q: Extract<ChainRead, { kind: 'outputs' }>): JsonValue {
    const out: JsonValue[] = [];
    for (const commit of q.commits) {
      if (!q.includeProof) {
        const parts = this.printedUnspent(commit);
        if (parts === undefined) continue; // Epic skips what it cannot find
        if (!q.includeMerkleProof || parts.outputType !== 'Coinbase') {
          out.push(printedOutput(parts));
          continue;
        }
      }
      const found = this.unspentOutput(commit);
      if (found === undefined) continue; // Epic skips what it cannot find
      const { output, at } = found;
      const wantsProof = q.includeMerkleProof && output.features === 'Coinbase';
      const header = wantsProof ? (this.store.headerAtHeight(at.height)?.header ?? null) : null;
      out.push(this.outputJson(output, header, q.includeProof, wantsProof, at));
    }
    if (q.heights === null) return out;
    for (let height = q.heights.end; height >= q.heights.start; height--) {
      const h = this.store.headerAtHeight(height);
      const block = h && this.store.block(h.hash);
      if (block === undefined) continue;
      for (const o of block.body.outputs)
        out.push(this.outputJson(o, block.header, q.includeProof, q.includeMerkleProof));
    }
    return out;
  }

  private unspentOutputs(start: bigint, end: bigint | null, max: bigint, proof: boolean) {
    const cap = max < MAX_OUTPUT_LISTING ? max : MAX_OUTPUT_LISTING;
    const mmr = this.txhashset.outputMmr;
    const ids = mmr.elementsFrom(start, cap, end ?? mmr.size);
    const rps = this.txhashset.rangeProofMmr.elementsFrom(start, cap, end ?? mmr.size);
    if (ids.elements.length !== rps.elements.length) throw new ReadFailure({ err: 'NotFound' }); // Epic: "Output and rangeproof sets don't match"
    const outputs = ids.elements.map((id, i) => {
      const features: OutputFeatures = id[0] === 1 ? 'Coinbase' : 'Plain';
      const rp = rps.elements[i] as Uint8Array;
      const o = { features, commit: id.slice(1), proof: rp.subarray(PROOF_PREFIX) };
      return this.outputJson(o, null, proof, false);
    });
    return outputListing(end ?? mmr.size, ids.last, outputs);
  }

  private pmmrIndices(start: bigint, end: bigint | null): JsonValue {
    const from = this.store.headerAtHeight(start > 0n ? start - 1n : 0n) ?? notFound();
    const to = this.store.headerAtHeight(end ?? this.head().header.height) ?? notFound();
    return outputListing(to.header.outputMmrSize, from.header.outputMmrSize + 1n, []);
  }

  /** Newest match in `[min, max]` heights (as kernel MMR positions); `min` 0 is genesis. */
  private kernel(excess: Uint8Array, min: bigint | null, max: bigint | null): JsonValue {
    const sizeAt = (height: bigint): bigint => {
      const h = this.store.headerAtHeight(height);
      if (h === undefined)
        throw new ReadFailure({
          err: 'Internal',
          message: 'Other Error: get header hash by height',
        });
      return h.header.kernelMmrSize;
    };
    const low = min === null || min === 0n ? 1n : sizeAt(min - 1n) + 1n;
    const high = max === null ? this.txhashset.kernelMmr.size : sizeAt(max);
    const hit = this.txhashset.kernelsByExcess(excess).find((k) => k.pos >= low && k.pos <= high);
    if (hit === undefined) return notFound();
    const k = decode(readKernel, hit.data, V2, this.store.params, 'kernel');
    return locatedKernel(k, hit.height, hit.pos);
  }

  /** `/v1/txhashset/roots`: the head header's three roots. */
  private roots(): JsonValue {
    const h = this.head().header;
    return {
      output_root_hash: toHex(h.outputRoot),
      range_proof_root_hash: toHex(h.rangeProofRoot),
      kernel_root_hash: toHex(h.kernelRoot),
    };
  }

  private lastLeafHashes(name: 'output' | 'rangeproof' | 'kernel', n: bigint): JsonValue {
    const t = this.txhashset;
    const mmr = name === 'output' ? t.outputMmr : name === 'kernel' ? t.kernelMmr : t.rangeProofMmr;
    return mmr.lastLeaves(n).map((l) => ({ hash: toHex(l.hash) }));
  }

  /** `/v1/txhashset/merkleproof`: Epic's fixed stand-in output fields around a proof to the current root. */
  private currentMerkleProof(commit: Uint8Array): JsonValue {
    const at = this.txhashset.outputPos(commit) ?? notFound();
    let proof: MerkleProof;
    try {
      proof = this.txhashset.outputMmr.merkleProof(at.pos);
    } catch {
      return notFound();
    }
    return {
      output_type: 'Coinbase',
      commit: toHex(new Uint8Array(33)),
      spent: false,
      proof: null,
      proof_hash: '',
      block_height: null,
      merkle_proof: merkleProofToHex(proof),
      mmr_index: at.pos,
    };
  }
}
