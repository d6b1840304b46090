// The native MSM backend (native/secp256k1, loaded by jobs/secp_addon.ts) against the
// JavaScript arithmetic: square roots, point decoding in every encoding, multi-scalar sums on
// random and edge inputs (infinity, duplicates, P and −P, zero scalars, n−1, scalars ≥ n), bad
// input, and the floonet kernels and range proofs through the batch verifiers with the backend.
// Skipped (with a reason) when the addon was not built.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  findInvalidRangeProofs,
  verifyRangeBatch,
} from '../../../core/crypto/bulletproof/batch.js';
import {
  CURVE_N,
  FIELD_P,
  Point,
  pointToCommitBytes,
  readU256,
} from '../../../core/crypto/curve.js';
import {
  MsmTerms,
  msmBackend,
  setMsmBackend,
  writeScalar,
} from '../../../core/crypto/ec/backend.js';
import { fsqrt } from '../../../core/crypto/ec/field.js';
import { pippenger } from '../../../core/crypto/ec/pippenger.js';
import { type Affine, toAffineBatch } from '../../../core/crypto/ec/point.js';
import { findInvalidKernels, verifyKernelsBatch } from '../../../core/crypto/kernel.js';
import { parseJson } from '../../../core/json/parse.js';
import { type CbData, cbDataFromJson } from '../../../core/serde/cbdata.js';
import { loadSecpAddon } from '../../../jobs/secp_addon.js';
import { flipBit, scalarStream } from '../../support/crypto.js';
import { SHARED_VECTORS } from '../../support/paths.js';

const addon = loadSecpAddon();
const skip = addon === null ? 'native/secp256k1 addon not built' : false;
const next = scalarStream();

function loadFloonet(): CbData[] {
  return readFileSync(join(SHARED_VECTORS, 'foundation_floonet.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l, k) => cbDataFromJson(parseJson(l), `floonet line ${k + 1}`));
}

after(() => setMsmBackend(null));

/** Runs `f` with the JavaScript path (no backend installed). */
function js<T>(f: () => T): T {
  const saved = msmBackend();
  setMsmBackend(null);
  try {
    return f();
  } finally {
    setMsmBackend(saved);
  }
}

function be32(v: bigint): Uint8Array {
  const b = new Uint8Array(32);
  writeScalar(new DataView(b.buffer), 0, v);
  return b;
}

function randomPoints(k: number): Affine[] {
  return Array.from({ length: k }, () => Point.BASE.multiply(next() || 1n).toAffine());
}

/** The JavaScript Σ s·P, affine, or null for infinity. */
function jsSum(points: readonly Affine[], scalars: readonly bigint[]): Affine | null {
  const j = pippenger(points, scalars);
  return j.z === 0n ? null : (toAffineBatch([j])[0] as Affine);
}

/** The backend's Σ s·P over affine inputs, affine, or null for infinity. */
function nativeSum(points: readonly Affine[], scalars: readonly bigint[]): Affine | null {
  const terms = new MsmTerms(1);
  points.forEach((p, i) => {
    terms.addAffine(p.x, p.y, scalars[i] as bigint);
  });
  const out = new Uint8Array(64);
  const r = terms.evaluate(addon as NonNullable<typeof addon>, out);
  assert.ok(r === 0 || r === 1, `unexpected verdict ${r}`);
  return r === 1 ? null : { x: readU256(out, 0), y: readU256(out, 32) };
}

function encode(tag: number, x: bigint): Uint8Array {
  const b = new Uint8Array(33);
  b[0] = tag;
  b.set(be32(x), 1);
  return b;
}

describe('native secp256k1 backend', { skip }, () => {
  it('square roots equal the JavaScript chain, including 0, 1, p−1 and non-squares', () => {
    setMsmBackend(addon);
    const inputs = [0n, 1n, 4n, 7n, FIELD_P - 1n, FIELD_P - 4n];
    for (let i = 0; i < 200; i++) inputs.push(next() % FIELD_P);
    let roots = 0;
    for (const a of inputs) {
      const want = js(() => fsqrt(a));
      assert.equal(fsqrt(a), want, `sqrt(${a})`);
      if (want !== null) roots++;
    }
    assert.ok(roots > 80 && roots < inputs.length - 80, `${roots} roots: both kinds tested`);
    const out = new Uint8Array(32);
    assert.equal(addon?.sqrt(be32(FIELD_P), out), false); // x ≥ p is not a field element
  });

  it('decodes 02/03 and 08/09 to the points the JavaScript decoders give', () => {
    const pts = randomPoints(40);
    const enc: Uint8Array[] = [];
    const want: Affine[] = [];
    for (const p of pts) {
      const odd = (p.y & 1n) === 1n;
      enc.push(encode(odd ? 0x03 : 0x02, p.x), encode(odd ? 0x02 : 0x03, p.x));
      want.push(p, { x: p.x, y: FIELD_P - p.y });
      const c = pointToCommitBytes(Point.fromAffine(p));
      enc.push(c, Uint8Array.of(c[0] ^ 1, ...c.subarray(1)));
      want.push(p, { x: p.x, y: FIELD_P - p.y });
    }
    const flat = new Uint8Array(33 * enc.length);
    enc.forEach((e, i) => {
      flat.set(e, 33 * i);
    });
    const out = new Uint8Array(64 * enc.length);
    assert.equal(addon?.decode(flat, out), -1);
    want.forEach((p, i) => {
      assert.equal(readU256(out, 64 * i), p.x);
      assert.equal(readU256(out, 64 * i + 32), p.y, `point ${i}`);
    });
  });

  it('names the first undecodable point: bad tag, x ≥ p, x off the curve', () => {
    const good = encode(0x02, Point.BASE.toAffine().x);
    let offCurve = 1n;
    while (js(() => fsqrt((offCurve ** 3n + 7n) % FIELD_P)) !== null) offCurve++;
    const bad = [
      encode(0x04, 1n),
      encode(0x0a, Point.BASE.toAffine().x),
      encode(0x02, FIELD_P),
      encode(0x08, offCurve),
    ];
    for (const b of bad) {
      const flat = new Uint8Array(99);
      flat.set(good, 0);
      flat.set(good, 33);
      flat.set(b, 66);
      assert.equal(addon?.decode(flat, new Uint8Array(192)), 2);
    }
  });

  it('Σ s·P equals the JavaScript Pippenger on random inputs of several sizes', () => {
    for (const k of [1, 2, 3, 7, 30, 90, 300]) {
      const pts = randomPoints(k);
      const sc = pts.map((_, i) => (i % 3 === 0 ? next() >> 128n : next()));
      assert.deepEqual(nativeSum(pts, sc), jsSum(pts, sc), `${k} points`);
    }
  });

  it('edge cases: zero scalars, n−1, scalars ≥ n, duplicates, P and −P, empty sums', () => {
    const [p, q] = randomPoints(2) as [Affine, Affine];
    const negP = { x: p.x, y: FIELD_P - p.y };
    const g = Point.BASE.toAffine();
    const cases: [Affine[], bigint[]][] = [
      [[], []],
      [
        [p, q],
        [0n, 0n],
      ],
      [[p], [CURVE_N - 1n]],
      [
        [g, g],
        [CURVE_N - 1n, 1n],
      ],
      [
        [p, p],
        [5n, 7n],
      ],
      [
        [p, p, p],
        [CURVE_N - 1n, CURVE_N - 1n, 2n],
      ],
      [
        [p, negP],
        [9n, 9n],
      ],
      [
        [p, negP, q],
        [3n, 3n, 1n],
      ],
      [
        [p, q],
        [1n, 0n],
      ],
    ];
    for (const [pts, sc] of cases) assert.deepEqual(nativeSum(pts, sc), jsSum(pts, sc));
    assert.equal(nativeSum([p, negP], [9n, 9n]), null);
    // 2^256 − 1 and n + 1 are reduced mod n by the backend
    const big = (1n << 256n) - 1n;
    assert.deepEqual(nativeSum([p], [big]), jsSum([p], [big % CURVE_N]));
    assert.deepEqual(nativeSum([p], [CURVE_N + 1n]), p);
  });

  it('mixes encoded and affine terms; bad points are named, encoded ones first', () => {
    const native = addon as NonNullable<typeof addon>;
    const [p] = randomPoints(1) as [Affine];
    const terms = new MsmTerms(1);
    terms.addAffine(p.x, p.y, 5n);
    terms.addEncoded((p.y & 1n) === 1n ? 0x03 : 0x02, be32(p.x), 0, CURVE_N - 5n);
    assert.equal(terms.evaluate(native), 1);
    terms.addEncoded(0x02, be32(FIELD_P), 0, 1n);
    assert.equal(terms.evaluate(native), -2);
    const offCurve = new MsmTerms(1);
    offCurve.addEncoded(0x02, be32(p.x), 0, 1n);
    offCurve.addAffine(p.x, (p.y + 1n) % FIELD_P, 1n);
    assert.equal(offCurve.evaluate(native), -2);
    assert.throws(() => terms.addAffine(p.x, p.y, -1n), RangeError);
    assert.throws(() => terms.addAffine(p.x, p.y, 1n << 256n), RangeError);
  });

  it('refuses wrong argument types and lengths with TypeError / RangeError', () => {
    const native = addon as NonNullable<typeof addon>;
    const e = new Uint8Array(0);
    assert.throws(() => native.msm([] as unknown as Uint8Array, e, e, e, null), TypeError);
    assert.throws(() => native.msm(new Uint8Array(64), e, e, e, null), RangeError);
    assert.throws(() => native.msm(e, e, new Uint8Array(33), new Uint8Array(31), null), RangeError);
    assert.throws(() => native.msm(e, e, e, e, new Uint8Array(10)), RangeError);
    assert.throws(() => native.decode(new Uint8Array(32), new Uint8Array(64)), RangeError);
    assert.throws(() => native.decode(new Uint8Array(33), new Uint8Array(63)), RangeError);
    assert.throws(() => native.sqrt(new Uint8Array(31), new Uint8Array(32)), RangeError);
    assert.equal(native.msm(e, e, e, e, null), 1);
  });
});

describe('floonet vectors through the batch verifiers with the backend', { skip }, () => {
  const lines = skip ? [] : loadFloonet();

  it('all 500 kernel signatures verify in one batch and in batches of 1, 7 and 100', () => {
    setMsmBackend(addon);
    const kernels = lines.map((l) => l.kernel);
    assert.equal(kernels.length, 500);
    assert.equal(verifyKernelsBatch(kernels), true);
    for (const size of [1, 7, 100]) {
      for (let i = 0; i < kernels.length; i += size) {
        assert.equal(verifyKernelsBatch(kernels.slice(i, i + size)), true, `batch at ${i}`);
      }
    }
  });

  it('all 500 range proofs verify in one batch and in batches of 1 (first 20) and 64', () => {
    setMsmBackend(addon);
    const items = lines.map((l) => l.output);
    assert.equal(verifyRangeBatch(items), true);
    for (const it of items.slice(0, 20)) assert.equal(verifyRangeBatch([it]), true);
    for (let i = 0; i < items.length; i += 64) {
      assert.equal(verifyRangeBatch(items.slice(i, i + 64)), true, `batch at ${i}`);
    }
  });

  it('a flipped bit is named by the bisection with the backend, as without', () => {
    setMsmBackend(addon);
    const items = lines.slice(0, 40).map((l) => l.output);
    const broken = items.map((it, i) =>
      i === 3
        ? { ...it, proof: flipBit(it.proof, 8 * 100 + 2) }
        : i === 17
          ? { ...it, commit: items[18]?.commit ?? it.commit }
          : it,
    );
    assert.deepEqual(findInvalidRangeProofs(broken), [3, 17]);
    assert.deepEqual(
      js(() => findInvalidRangeProofs(broken)),
      [3, 17],
    );
    const kernels = lines.slice(0, 40).map((l) => l.kernel);
    const sig = flipBit(kernels[9]?.excessSig as Uint8Array, 40 * 8 + 1);
    const badKernels = kernels.map((k, i) => (i === 9 ? { ...k, excessSig: sig } : k));
    assert.equal(verifyKernelsBatch(badKernels), false);
    assert.deepEqual(findInvalidKernels(badKernels), [9]);
    assert.deepEqual(
      js(() => findInvalidKernels(badKernels)),
      [9],
    );
  });
});
