// The variable-time arithmetic under signature and range-proof verification (core/crypto/ec/):
// field operations, inversions mod p and n, signed-digit recodings, GLV double multiplication,
// Strauss with the fixed bulletproof generators and Pippenger (both bucket strategies), all
// checked against bigint `%` and @noble/curves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pippenger as noblePippenger } from '@noble/curves/abstract/curve.js';
import {
  FIXED_COUNT,
  FIXED_G,
  FIXED_H,
  FIXED_HI,
  fixedMsm,
  msmIsZero,
} from '../../../core/crypto/bulletproof/fixed_msm.js';
import { bulletproofGenerators } from '../../../core/crypto/bulletproof/generators.js';
import {
  CURVE_N,
  FIELD_P,
  isQuadResidue,
  modN,
  Point,
  scalarInv,
  scalarInvBatch,
} from '../../../core/crypto/curve.js';
import { finv, fmul, fred, fsqr, fsqrt, fsub } from '../../../core/crypto/ec/field.js';
import { mulAddG, splitScalar } from '../../../core/crypto/ec/glv.js';
import { type BucketStrategy, pippenger } from '../../../core/crypto/ec/pippenger.js';
import { type Affine, type Jac, jacXEquals, toAffineBatch } from '../../../core/crypto/ec/point.js';
import { signedWindows, WNAF_LENGTH, windowCount, wnaf } from '../../../core/crypto/ec/recoding.js';
import { GEN_G, GEN_H, GEN_J } from '../../../core/crypto/generators.js';
import { pseudoScalar, scalarStream } from '../../support/crypto.js';

const EDGE = [0n, 1n, 2n, 3n, 255n, CURVE_N - 1n, CURVE_N - 2n, 1n << 255n, (1n << 256n) - 1n];
const SCALARS = [...EDGE, ...Array.from({ length: 20 }, (_, k) => pseudoScalar(k))];
const STRATEGIES: readonly BucketStrategy[] = ['jacobian', 'affine'];

/**
 * 200 copies of ±777·G with few distinct scalars, so many equal and opposite points share a
 * bucket in every window; `total` is the sum's multiple of 777·G.
 */
function repeatedPoints(): { points: Affine[]; scalars: bigint[]; total: bigint } {
  const base = Point.BASE.multiply(777n).toAffine();
  const points: Affine[] = [];
  const scalars: bigint[] = [];
  let total = 0n;
  for (let k = 0; k < 200; k++) {
    points.push(k % 3 === 0 ? { x: base.x, y: FIELD_P - base.y } : base);
    const s = BigInt(1 + (k % 4)) * 0x1234567n + (k % 2 === 0 ? 0n : 1n << 200n);
    scalars.push(s);
    total += k % 3 === 0 ? -s : s;
  }
  return { points, scalars, total };
}

const affineOf = (j: Jac): Affine => {
  const zi = finv(j.z);
  return { x: fmul(j.x, fsqr(zi)), y: fmul(j.y, fmul(fsqr(zi), zi)) };
};

describe('field and scalar arithmetic', () => {
  const next = scalarStream();

  it('field multiply, fold and inverse agree with bigint %', () => {
    for (let i = 0; i < 50; i++) {
      const a = next() % FIELD_P;
      const b = (next() * 3n) % FIELD_P;
      assert.equal(fmul(a, b), (a * b) % FIELD_P);
      assert.equal(fsub(a, b), (a - b + FIELD_P) % FIELD_P);
      if (a !== 0n) assert.equal(fmul(finv(a), a), 1n);
    }
    assert.equal(fred(FIELD_P * FIELD_P - 1n), (FIELD_P * FIELD_P - 1n) % FIELD_P);
  });

  it('fsqrt returns the QR root, or null for non-squares', () => {
    for (let k = 1; k < 40; k++) {
      const x = pseudoScalar(100 + k) % FIELD_P;
      const rhs = (((x * x) % FIELD_P) * x + 7n) % FIELD_P;
      const y = fsqrt(rhs);
      if (y === null) {
        assert.equal(isQuadResidue(rhs), false);
      } else {
        assert.equal((y * y) % FIELD_P, rhs);
        assert.equal(isQuadResidue(y), true);
      }
    }
  });

  it('inversions mod n', () => {
    const vals = SCALARS.filter((s) => s !== 0n && s < CURVE_N);
    const inv = scalarInvBatch(vals);
    vals.forEach((v, k) => {
      assert.equal((v * (inv[k] as bigint)) % CURVE_N, 1n);
      assert.equal(scalarInv(v), inv[k]);
    });
  });
});

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
        signedWindows(s, c, windows, out, 1, 3);
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

  it('signed windows of short scalars need only windowCount(c, bits) windows', () => {
    for (const c of [2, 3, 5, 8]) {
      for (const bits of [1, 3, 64, 128, 255]) {
        const s = (1n << BigInt(bits)) - 1n;
        const windows = windowCount(c, bits);
        const out = new Int32Array(windows);
        signedWindows(s, c, windows, out, 0, 1);
        let sum = 0n;
        for (let k = windows - 1; k >= 0; k--) sum = (sum << BigInt(c)) + BigInt(out[k] as number);
        assert.equal(sum, s, `c ${c}, bits ${bits}`);
      }
    }
  });
});

describe('points and double multiplication against @noble/curves', () => {
  const next = scalarStream();

  it('s·G + t·P matches mulAddUnsafe, including zero scalars, doubling and infinity', () => {
    for (let i = 0; i < 40; i++) {
      const s = i === 0 ? 0n : next();
      const t = i === 1 ? 0n : next();
      const p = Point.BASE.multiply(next() + 1n);
      const ours = affineOf(mulAddG(s, p.toAffine(), t));
      assert.deepEqual(ours, Point.BASE.mulAddUnsafe(s, p, t).toAffine(), `case ${i}`);
    }
    const t = next();
    const g = Point.BASE.toAffine();
    assert.equal(mulAddG(CURVE_N - t, g, t).z, 0n);
    assert.deepEqual(
      affineOf(mulAddG(t, g, t)),
      Point.BASE.multiply((2n * t) % CURVE_N).toAffine(),
    );
    const j = mulAddG(t, g, 0n);
    assert.equal(jacXEquals(j, Point.BASE.multiply(t).x), true);
    assert.equal(jacXEquals(j, Point.BASE.multiply(t).x + 1n), false);
  });

  it('scalar splitting gives halves below 2^128 that recombine to k', () => {
    const lambda = 0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72n;
    // λ is the eigenvalue of ψ(x, y) = (β·x, y) used by the split.
    const beta = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een;
    assert.equal(Point.BASE.multiply(lambda).x, fmul(Point.BASE.x, beta));
    for (let i = 0; i < 20; i++) {
      const k = next();
      const { k1, k2 } = splitScalar(k);
      assert.ok(k1 < 1n << 128n && -k1 < 1n << 128n && k2 < 1n << 128n && -k2 < 1n << 128n);
      assert.equal(modN(k1 + k2 * lambda), k);
    }
  });

  it('batch normalization matches one-by-one affine conversion', () => {
    const pts = [GEN_G, GEN_H, GEN_J].map((p) => p.double().add(p));
    // Jacobian coordinates with a non-trivial Z = 5 built from the affine form.
    const asJac = pts.map((p) => {
      const a = p.toAffine();
      const z = 5n;
      return { x: fmul(a.x, fsqr(z)), y: fmul(a.y, fmul(fsqr(z), z)), z };
    });
    assert.deepEqual(
      toAffineBatch(asJac),
      pts.map((p) => p.toAffine()),
    );
  });
});

describe('Pippenger against @noble/curves', () => {
  const next = scalarStream();

  for (const strategy of STRATEGIES) {
    it(`${strategy} buckets agree on mixed-length scalars`, () => {
      for (const n of [1, 3, 30, 150]) {
        const points = Array.from({ length: n }, () => Point.BASE.multiply(next() + 1n));
        const scalars = points.map((_, i) => (i % 3 === 0 ? next() >> 128n : next()));
        const sum = noblePippenger(Point, points, scalars);
        const affine = points.map((p) => p.toAffine());
        const ours = pippenger(affine, scalars, strategy);
        assert.equal(ours.z === 0n, sum.is0());
        if (!sum.is0()) assert.deepEqual(affineOf(ours), sum.toAffine(), `n = ${n}`);
        // Adding −sum must give infinity exactly.
        const neg = sum.negate().toAffine();
        const withNeg = [...affine, neg];
        assert.equal(pippenger(withNeg, [...scalars, 1n], strategy).z, 0n, `n = ${n}`);
        assert.notEqual(pippenger(withNeg, [...scalars, 2n], strategy).z, 0n, `n = ${n}`);
      }
    });

    it(`${strategy} buckets: repeated and opposite points (doubling, cancellation)`, () => {
      const { points, scalars, total } = repeatedPoints();
      const want = Point.BASE.multiply(modN(total * 777n));
      assert.deepEqual(affineOf(pippenger(points, scalars, strategy)), want.toAffine());
    });
  }
});

describe('bulletproof multi-scalar multiplication', () => {
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
      const points: Affine[] = [];
      const scalars: bigint[] = [];
      const fixed = new Array<bigint>(FIXED_COUNT).fill(0n);
      let gTotal = 0n;
      for (let k = 0; k < count; k++) {
        const m = BigInt(k + 1) * 1_000_003n;
        const a = Point.BASE.multiply(m).toAffine();
        points.push(k % 2 === 0 ? a : { x: a.x, y: FIELD_P - a.y });
        const s = (SCALARS[k % SCALARS.length] as bigint) % CURVE_N;
        scalars.push(s);
        gTotal += k % 2 === 0 ? s * m : -s * m;
      }
      fixed[FIXED_G] = modN(-gTotal);
      fixed[7] = 12345n;
      fixed[FIXED_HI + 7] = 999n;
      points.push((g[7] as Point).negate().toAffine(), (h[7] as Point).negate().toAffine());
      scalars.push(12345n, 999n);
      assert.equal(msmIsZero(fixed, points, scalars), true);
      scalars[1] = modN((scalars[1] as bigint) + 1n);
      assert.equal(msmIsZero(fixed, points, scalars), false);
    });
  }

  it('msmIsZero: repeated and opposite points through Pippenger', () => {
    const { points, scalars, total } = repeatedPoints();
    const fixed = new Array<bigint>(FIXED_COUNT).fill(0n);
    fixed[FIXED_G] = modN(-total * 777n);
    assert.equal(msmIsZero(fixed, points, scalars), true);
    fixed[FIXED_G] = modN((fixed[FIXED_G] as bigint) + 1n);
    assert.equal(msmIsZero(fixed, points, scalars), false);
  });
});
