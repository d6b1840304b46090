// Single and batch verification of range proofs against their commitments, and the bisection
// that names the bad proofs of a failed batch. A batch is one equation: every proof's two
// checks scaled by fresh random 128-bit weights, the fixed-generator scalars summed across the
// batch, and all per-proof points in one Pippenger multiplication.
import { modN, Point, scalarInvBatch } from '../curve.js';
import { type MsmBackend, MsmTerms, msmBackend, writeScalar } from '../ec/backend.js';
import { GEN_H } from '../generators.js';
import { FIXED_COUNT, msmIsZero } from './fixed_msm.js';
import { bulletproofGenerators } from './generators.js';
import { IP_ROUNDS } from './layout.js';
import { addProofTerms, type ParsedProof, parseProof, type TermSink } from './verifier.js';

/** Shaped like core/types Output, so outputs can be passed as they are. */
export interface RangeProofItem {
  /** 33-byte Pedersen commitment (08/09). */
  readonly commit: Uint8Array;
  /** 675-byte bulletproof. */
  readonly proof: Uint8Array;
}

const weightBytes = new Uint32Array(4);

/** A uniformly random non-zero 128-bit weight; 2^-128 forgery odds per batch. */
function randomWeight(): bigint {
  for (;;) {
    globalThis.crypto.getRandomValues(weightBytes);
    let w = 0n;
    for (const word of weightBytes) w = (w << 32n) | BigInt(word);
    if (w !== 0n) return w;
  }
}

function parseItem(item: RangeProofItem): ParsedProof | null {
  return parseProof(item.commit, item.proof);
}

let fixedBytes: Uint8Array | null = null;

/** The fixed generators [G_0..G_63, H_0..H_63, G, H] as x‖y, for the native backend. */
function fixedGeneratorBytes(): Uint8Array {
  if (fixedBytes === null) {
    const { g, h } = bulletproofGenerators();
    const all = [...g, ...h, Point.BASE, GEN_H];
    fixedBytes = new Uint8Array(64 * all.length);
    const view = new DataView(fixedBytes.buffer);
    all.forEach((p, i) => {
      const a = p.toAffine();
      writeScalar(view, 64 * i, a.x);
      writeScalar(view, 64 * i + 32, a.y);
    });
  }
  return fixedBytes;
}

/** Fixed-generator terms joined to the per-proof ones: one native multiplication. */
function nativeIsZero(terms: MsmTerms, fixed: readonly bigint[], native: MsmBackend): boolean {
  const gens = fixedGeneratorBytes();
  fixed.forEach((s, k) => {
    if (s !== 0n) terms.addAffineBytes(gens, 64 * k, modN(s));
  });
  return terms.evaluate(native) === 1;
}

/** The final check over already parsed proofs (all non-null). */
function verifyParsed(proofs: readonly ParsedProof[]): boolean {
  if (proofs.length === 0) return true;
  const native = msmBackend();
  const toInvert: bigint[] = [];
  for (const p of proofs) toInvert.push(p.y, ...p.xs);
  const inv = scalarInvBatch(toInvert);
  const sink: TermSink = {
    points: [],
    scalars: [],
    fixed: new Array<bigint>(FIXED_COUNT).fill(0n),
    native: native === null ? null : new MsmTerms(proofs.length * 15 + FIXED_COUNT),
  };
  const stride = 1 + IP_ROUNDS;
  proofs.forEach((p, k) => {
    const base = k * stride;
    const yInv = inv[base] as bigint;
    const xInvs = inv.slice(base + 1, base + stride);
    addProofTerms(p, yInv, xInvs, randomWeight(), randomWeight(), sink);
  });
  if (native !== null && sink.native !== null) return nativeIsZero(sink.native, sink.fixed, native);
  return msmIsZero(sink.fixed.map(modN), sink.points, sink.scalars);
}

/** Verifies one proof against its commitment. */
export function verifyRange(commitment: Uint8Array, proof: Uint8Array): boolean {
  const p = parseItem({ commit: commitment, proof });
  return p !== null && verifyParsed([p]);
}

/** True iff every proof of the batch verifies (one combined equation; empty is true). */
export function verifyRangeBatch(items: readonly RangeProofItem[]): boolean {
  const parsed: ParsedProof[] = [];
  for (const item of items) {
    const p = parseItem(item);
    if (p === null) return false;
    parsed.push(p);
  }
  return verifyParsed(parsed);
}

/**
 * Indices (ascending) of the proofs that fail. Malformed proofs are found while parsing; the
 * rest are checked as one batch first (so an all-valid batch costs one verification, and this
 * can stand in for verifyRangeBatch when the caller wants names), then bisected: k bad proofs
 * among m cost about 2k·log2(m) sub-batch checks, each parsing nothing again.
 */
export function findInvalidRangeProofs(items: readonly RangeProofItem[]): number[] {
  const bad: number[] = [];
  const good: { index: number; parsed: ParsedProof }[] = [];
  items.forEach((item, index) => {
    const parsed = parseItem(item);
    if (parsed === null) bad.push(index);
    else good.push({ index, parsed });
  });
  const bisect = (group: typeof good, known: boolean | null): void => {
    if (group.length === 0) return;
    const ok = known ?? verifyParsed(group.map((g) => g.parsed));
    if (ok) return;
    if (group.length === 1) {
      bad.push((group[0] as (typeof good)[number]).index);
      return;
    }
    const mid = group.length >> 1;
    const left = group.slice(0, mid);
    const leftOk = verifyParsed(left.map((g) => g.parsed));
    bisect(left, leftOk);
    // When the whole group failed and its left half passed, the right half must fail.
    bisect(group.slice(mid), leftOk ? false : null);
  };
  bisect(good, null);
  return bad.sort((a, b) => a - b);
}
