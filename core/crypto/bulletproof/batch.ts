// Single and batch verification of range proofs against their commitments, and the bisection
// that names the bad proofs of a failed batch. A batch is one equation: every proof's two
// checks scaled by fresh random 128-bit weights, the fixed-generator scalars summed across the
// batch, and all per-proof points in one Pippenger multiplication.
import { modN, Point, scalarInvBatch } from '../curve.js';
import { type MsmBackend, msmBackend, writeScalar } from '../ec/backend.js';
import { GEN_H } from '../generators.js';
import { FIXED_COUNT, msmIsZero } from './fixed_msm.js';
import { bulletproofGenerators } from './generators.js';
import { IP_ROUNDS } from './layout.js';
import {
  addProofTerms,
  type ParsedProof,
  POINT_COUNT,
  parseProof,
  type TermSink,
} from './verifier.js';

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

/** Scalars per proof record of MsmBackend.bulletproofBatch (native/secp256k1/src/bulletproof.h). */
const RECORD = 32 * 18;

/** A proof's record: y, z, x, u, x_0..x_4, t, −taux, −mu, a1, a2, b1, b2, then two weights. */
function writeRecord(view: DataView, at: number, p: ParsedProof): void {
  const values = [p.y, p.z, p.x, p.u, ...p.xs, p.t, p.tauxNeg, p.muNeg, ...p.ab];
  values.forEach((v, i) => {
    writeScalar(view, at + 32 * i, v);
  });
  // The weights w1, w2: 128 random bits each in the low halves of the last two slots.
  const weights = new Uint8Array(view.buffer, view.byteOffset + at + 32 * 16, 64);
  for (const half of [16, 48]) {
    const w = weights.subarray(half, half + 16);
    do globalThis.crypto.getRandomValues(w);
    while (w.every((b) => b === 0));
  }
}

/** The whole batch equation in the native backend; same terms as the JavaScript path. */
function verifyNative(proofs: readonly ParsedProof[], native: MsmBackend): boolean {
  const records = new Uint8Array(RECORD * proofs.length);
  const view = new DataView(records.buffer);
  const points = new Uint8Array(64 * POINT_COUNT * proofs.length);
  const pointView = new DataView(points.buffer);
  proofs.forEach((p, k) => {
    writeRecord(view, RECORD * k, p);
    const at = 64 * POINT_COUNT * k;
    if (p.pointBytes !== null) points.set(p.pointBytes, at);
    else {
      p.points.forEach((a, i) => {
        writeScalar(pointView, at + 64 * i, a.x);
        writeScalar(pointView, at + 64 * i + 32, a.y);
      });
    }
  });
  return native.bulletproofBatch(records, points, fixedGeneratorBytes()) === 1;
}

/** The final check over already parsed proofs (all non-null). */
function verifyParsed(proofs: readonly ParsedProof[]): boolean {
  if (proofs.length === 0) return true;
  const native = msmBackend();
  if (native !== null) return verifyNative(proofs, native);
  const toInvert: bigint[] = [];
  for (const p of proofs) toInvert.push(p.y, ...p.xs);
  const inv = scalarInvBatch(toInvert);
  const sink: TermSink = {
    points: [],
    scalars: [],
    fixed: new Array<bigint>(FIXED_COUNT).fill(0n),
  };
  const stride = 1 + IP_ROUNDS;
  proofs.forEach((p, k) => {
    const base = k * stride;
    const yInv = inv[base] as bigint;
    const xInvs = inv.slice(base + 1, base + stride);
    addProofTerms(p, yInv, xInvs, randomWeight(), randomWeight(), sink);
  });
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
