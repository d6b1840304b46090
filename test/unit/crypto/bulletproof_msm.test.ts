// The arithmetic under the bulletproof verifier: signed-digit recodings reconstruct their
// scalar, the Jacobian/affine multi-scalar multiplications (Strauss with the fixed-generator
// tables, Pippenger for many points) agree with @noble/curves, and the QR square root.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { sqrtP } from '../../../core/crypto/bulletproof/ec.js';
import { bulletproofGenerators } from '../../../core/crypto/bulletproof/generators.js';
import {
  FIXED_COUNT,
  FIXED_G,
  FIXED_H,
  FIXED_HI,
  fixedMsm,
  msmIsZero,
} from '../../../core/crypto/bulletproof/msm.js';
import { batchInvN, invN, readU256 } from '../../../core/crypto/bulletproof/scalar.js';
import {
  signedWindows,
  WNAF_LENGTH,
  windowCount,
  wnaf,
} from '../../../core/crypto/bulletproof/wnaf.js';
import { CURVE_N, FIELD_P, isQuadResidue, modN, Point } from '../../../core/crypto/curve.js';
import { GEN_H } from '../../../core/crypto/generators.js';

function pseudo(tag: number): bigint {
  return modN(readU256(sha256(Uint8Array.of(0x4d, tag & 0xff, tag >> 8))));
}

const EDGE = [0n, 1n, 2n, 3n, 255n, CURVE_N - 1n, CURVE_N - 2n, 1n << 255n, (1n << 256n) - 1n];
const SCALARS = [...EDGE, ...Array.from({ length: 20 }, (_, k) => pseudo(k))];

describe('scalar recodings', () => {
  it('width-w NAF: odd digits below 2^(w−1), sum back to the scalar', () => {
    for (const w of [2, 5, 8]) {
      for (const s of SCALARS) {
        const d = new Int8Array(WNAF_LENGTH);
        const len = wnaf(s, w, d);
        let sum = 0n;
        for (let i = len - 1; i >= 0; i--) {
          const v = d[i] as number;
          if (v !== 0) assert.ok(v % 2 !== 0 && Math.abs(v) < 1 << (w - 1), `digit ${v}`);
          sum = 2n * sum + BigInt(v);
        }
        assert.equal(sum, s, `w ${w}, s ${s}`);
      }
    }
  });

  it('signed windows: digits within ±2^(c−1), sum back to the scalar', () => {
    for (const c of [2, 4, 7, 10, 11, 16]) {
      const windows = windowCount(c);
      for (const s of SCALARS) {
        const out = new Int32Array(windows * 3);
        signedWindows(s, c, out, 1, 3);
        let sum = 0n;
        for (let k = windows - 1; k >= 0; k--) {
          const v = out[k * 3 + 1] as number;
          assert.ok(Math.abs(v) <= 1 << (c - 1));
          sum = (sum << BigInt(c)) + BigInt(v);
        }
        assert.equal(sum, s, `c ${c}, s ${s}`);
      }
    }
  });

  it('inversions mod n', () => {
    const vals = SCALARS.filter((s) => s !== 0n && s < CURVE_N);
    const inv = batchInvN(vals);
    vals.forEach((v, k) => {
      assert.equal((v * (inv[k] as bigint)) % CURVE_N, 1n);
      assert.equal(invN(v), inv[k]);
    });
  });
});

describe('multi-scalar multiplication', () => {
  const { g, h } = bulletproofGenerators();
  const fixedPoints = [...g, ...h, Point.BASE, GEN_H];

  it('fixed generators: Strauss with tables = Σ s·P by noble', () => {
    const scalars = Array.from({ length: FIXED_COUNT }, (_, k) =>
      k % 5 === 0 ? 0n : (SCALARS[k % SCALARS.length] as bigint) % CURVE_N,
    );
    let expected = Point.ZERO;
    scalars.forEach((s, k) => {
      expected = expected.add((fixedPoints[k] as Point).multiplyUnsafe(s));
    });
    assert.ok(fixedMsm(scalars).equals(expected));
    const only = new Array<bigint>(FIXED_COUNT).fill(0n);
    only[FIXED_H] = 5n;
    only[FIXED_G] = 7n;
    only[FIXED_HI + 3] = CURVE_N - 1n;
    const want = GEN_H.multiply(5n)
      .add(Point.BASE.multiply(7n))
      .subtract(h[3] as Point);
    assert.ok(fixedMsm(only).equals(want));
    assert.ok(fixedMsm(new Array<bigint>(FIXED_COUNT).fill(0n)).is0());
  });

  for (const count of [3, 64, 65, 300]) {
    it(`msmIsZero with ${count} variable points (${count > 64 ? 'Pippenger' : 'Strauss'})`, () => {
      // Points k·G and G_k-multiples; scalars chosen so that everything cancels.
      const xs: bigint[] = [];
      const ys: bigint[] = [];
      const scalars: bigint[] = [];
      const fixed = new Array<bigint>(FIXED_COUNT).fill(0n);
      let gTotal = 0n;
      for (let k = 0; k < count; k++) {
        const m = BigInt(k + 1) * 1_000_003n;
        const a = Point.BASE.multiply(m).toAffine();
        xs.push(a.x);
        ys.push(k % 2 === 0 ? a.y : FIELD_P - a.y);
        const s = (SCALARS[k % SCALARS.length] as bigint) % CURVE_N;
        scalars.push(s);
        gTotal += k % 2 === 0 ? s * m : -s * m;
      }
      fixed[FIXED_G] = modN(-gTotal);
      fixed[7] = 12345n;
      fixed[FIXED_HI + 7] = 999n;
      xs.push((g[7] as Point).toAffine().x, (h[7] as Point).toAffine().x);
      ys.push(FIELD_P - (g[7] as Point).toAffine().y, FIELD_P - (h[7] as Point).toAffine().y);
      scalars.push(12345n, 999n);
      assert.equal(msmIsZero(fixed, xs, ys, scalars), true);
      scalars[1] = modN((scalars[1] as bigint) + 1n);
      assert.equal(msmIsZero(fixed, xs, ys, scalars), false);
    });
  }

  it('Pippenger with repeated and opposite points (doubling and cancellation in buckets)', () => {
    const base = Point.BASE.multiply(777n).toAffine();
    const xs: bigint[] = [];
    const ys: bigint[] = [];
    const scalars: bigint[] = [];
    let total = 0n;
    for (let k = 0; k < 200; k++) {
      xs.push(base.x);
      ys.push(k % 3 === 0 ? FIELD_P - base.y : base.y);
      // Few distinct scalars, so many equal points share a bucket in every window.
      const s = BigInt(1 + (k % 4)) * 0x1234567n + (k % 2 === 0 ? 0n : 1n << 200n);
      scalars.push(s);
      total += k % 3 === 0 ? -s : s;
    }
    const fixed = new Array<bigint>(FIXED_COUNT).fill(0n);
    fixed[FIXED_G] = modN(-total * 777n);
    assert.equal(msmIsZero(fixed, xs, ys, scalars), true);
    fixed[FIXED_G] = modN((fixed[FIXED_G] as bigint) + 1n);
    assert.equal(msmIsZero(fixed, xs, ys, scalars), false);
  });

  it('sqrtP returns the QR root, or null for non-squares', () => {
    for (let k = 1; k < 40; k++) {
      const x = pseudo(100 + k) % FIELD_P;
      const rhs = (((x * x) % FIELD_P) * x + 7n) % FIELD_P;
      const y = sqrtP(rhs);
      if (y === null) {
        assert.equal(isQuadResidue(rhs), false);
      } else {
        assert.equal((y * y) % FIELD_P, rhs);
        assert.equal(isQuadResidue(y), true);
      }
    }
  });
});
