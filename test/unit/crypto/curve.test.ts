// The curve layer: scalar arithmetic mod n, the QR rule, lifting, the four point encodings and
// the fixed generators (crypto reference §1, §2.1, §8.1). The fast arithmetic beneath is
// tested in ec.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, toHex } from '../../../core/bytes.js';
import {
  bigIntTo32,
  bytesToBigInt,
  CURVE_N,
  CurveError,
  FIELD_P,
  isQuadResidue,
  isValidSecretKey,
  liftXQuad,
  liftXQuadY,
  modN,
  Point,
  pointFromBitVector,
  pointFromCommitBytes,
  pointFromCompressed,
  pointFromGeneratorBytes,
  pointsToBitVector,
  pointToCommitBytes,
  pointToCompressed,
  pointToGeneratorBytes,
  scalarAdd,
  scalarFromBytes,
  scalarInv,
  scalarMul,
  scalarNeg,
  scalarSub,
  scalarToBytes,
  secretKeyFromBytes,
  sumPoints,
} from '../../../core/crypto/curve.js';
import {
  G_X,
  G_Y,
  GEN_G,
  GEN_H,
  GEN_J,
  H_X,
  H_Y,
  J_RAW,
  J_X,
  J_Y,
} from '../../../core/crypto/generators.js';
import { hex } from '../../support/crypto.js';

const TWO_G_X = 'c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5';
const TWO_G_Y = 0x1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52an;

describe('constants', () => {
  it('p and n are the secp256k1 values of §1.1', () => {
    assert.equal(FIELD_P, Point.Fp.ORDER);
    assert.equal(CURVE_N, Point.Fn.ORDER);
    assert.equal(
      CURVE_N.toString(16),
      'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
    );
    assert.equal(toHex(G_X), '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    assert.ok(GEN_G.equals(Point.fromAffine({ x: bytesToBigInt(G_X), y: bytesToBigInt(G_Y) })));
  });
});

describe('scalars mod n', () => {
  const nBytes = bigIntTo32(CURVE_N);
  const nMinus1 = bigIntTo32(CURVE_N - 1n);
  const zero = new Uint8Array(32);

  it('parses 32 bytes with the range check', () => {
    assert.equal(scalarFromBytes(nMinus1), CURVE_N - 1n);
    assert.equal(scalarFromBytes(zero), 0n);
    assert.throws(() => scalarFromBytes(nBytes), CurveError);
    assert.throws(() => scalarFromBytes(new Uint8Array(31)), CurveError);
  });

  it('secret keys exclude zero and n', () => {
    assert.throws(() => secretKeyFromBytes(zero), CurveError);
    assert.equal(secretKeyFromBytes(nMinus1), CURVE_N - 1n);
    assert.equal(isValidSecretKey(zero), false);
    assert.equal(isValidSecretKey(nBytes), false);
    assert.equal(isValidSecretKey(hex(`${'00'.repeat(31)}01`)), true);
  });

  it('add, sub, neg, mul and inverse wrap at n', () => {
    assert.equal(scalarAdd(CURVE_N - 1n, 2n), 1n);
    assert.equal(scalarSub(1n, 2n), CURVE_N - 1n);
    assert.equal(scalarNeg(0n), 0n);
    assert.equal(scalarNeg(1n), CURVE_N - 1n);
    assert.equal(scalarMul(CURVE_N - 1n, CURVE_N - 1n), 1n);
    assert.equal(scalarMul(scalarInv(2n), 2n), 1n);
    assert.equal(scalarInv(2n), (CURVE_N + 1n) / 2n);
    assert.throws(() => scalarInv(CURVE_N), CurveError);
    assert.equal(modN(-1n), CURVE_N - 1n);
  });

  it('bytes <-> bigint round-trip, big-endian', () => {
    assert.equal(bytesToBigInt(hex('0102')), 0x0102n);
    assert.equal(bytesToBigInt(new Uint8Array(0)), 0n);
    assert.equal(toHex(bigIntTo32(0x0102n)), `${'00'.repeat(30)}0102`);
    assert.equal(toHex(scalarToBytes(CURVE_N + 5n)), `${'00'.repeat(31)}05`);
    assert.throws(() => bigIntTo32(1n << 256n), CurveError);
    assert.throws(() => bigIntTo32(-1n), CurveError);
  });
});

describe('quadratic residues and lifting', () => {
  it('matches Euler’s criterion on many values', () => {
    const half = (FIELD_P - 1n) / 2n;
    let qr = 0;
    for (let i = 1n; i <= 300n; i++) {
      const y = modN(i * 0x9e3779b97f4a7c15f39cc0605cedc834n) % FIELD_P;
      const euler = Point.Fp.pow(y, half) === 1n;
      assert.equal(isQuadResidue(y), euler, `y = ${y}`);
      if (euler) qr++;
    }
    assert.ok(qr > 100 && qr < 200, 'both outcomes occur');
  });

  it('y and p − y never share a QR status (p ≡ 3 mod 4)', () => {
    assert.equal(isQuadResidue(GEN_G.y), true);
    assert.equal(isQuadResidue(FIELD_P - GEN_G.y), false);
  });

  it('G.y is QR, H.y and J.y are not (§2.1)', () => {
    assert.equal(isQuadResidue(GEN_H.y), false);
    assert.equal(isQuadResidue(GEN_J.y), false);
  });

  it('the QR lift of x picks the QR root; H is the negated lift of H.x', () => {
    assert.ok(liftXQuad(GEN_G.x).equals(GEN_G));
    assert.ok(liftXQuad(GEN_H.x).equals(GEN_H.negate()));
    assert.equal(liftXQuadY(FIELD_P), null);
    // x = 5: 5³ + 7 = 132 is not a square mod p, so no point has x = 5.
    assert.equal(liftXQuadY(5n), null);
    assert.throws(() => liftXQuad(5n), CurveError);
  });
});

describe('encodings (§1.3)', () => {
  const twoG = GEN_G.double();

  it('compressed 02/03 follows y parity', () => {
    assert.equal(toHex(pointToCompressed(GEN_G)), `02${toHex(G_X)}`);
    assert.equal(toHex(pointToCompressed(GEN_G.negate())), `03${toHex(G_X)}`);
    assert.ok(pointFromCompressed(hex(`03${toHex(G_X)}`)).equals(GEN_G.negate()));
    assert.equal(twoG.y, TWO_G_Y);
    assert.throws(() => pointFromCompressed(hex(`08${toHex(G_X)}`)), CurveError);
    assert.throws(() => pointFromCompressed(hex(`02${'00'.repeat(31)}05`)), CurveError);
  });

  it('commitment 08/09 follows QR: ±2G vectors round-trip (§8.1)', () => {
    assert.equal(toHex(pointToCommitBytes(twoG)), `08${TWO_G_X}`);
    const neg = hex(`09${TWO_G_X}`);
    assert.ok(pointFromCommitBytes(neg).equals(twoG.negate()));
    assert.equal(toHex(pointToCommitBytes(pointFromCommitBytes(neg))), `09${TWO_G_X}`);
    assert.throws(() => pointFromCommitBytes(hex(`02${TWO_G_X}`)), CurveError);
    assert.throws(() => pointFromCommitBytes(hex(`0a${TWO_G_X}`)), CurveError);
    assert.throws(() => pointFromCommitBytes(hex(`08${'ff'.repeat(32)}`)), CurveError);
  });

  it('generator 0a/0b: the fixed vector parses with 0b and 0a, not with 08 (§8.1)', () => {
    const v = hex(`0b${TWO_G_X}`);
    const p = pointFromGeneratorBytes(v);
    assert.equal(toHex(pointToGeneratorBytes(p)), `0b${TWO_G_X}`);
    assert.ok(pointFromGeneratorBytes(hex(`0a${TWO_G_X}`)).equals(p.negate()));
    assert.throws(() => pointFromGeneratorBytes(hex(`08${TWO_G_X}`)), CurveError);
  });

  it('bulletproof bit-vector: bit k set iff point k has a non-QR y', () => {
    const pts = [GEN_G, GEN_H, GEN_J, GEN_G.negate(), twoG, twoG, twoG, twoG, GEN_H, GEN_G];
    const { flags, xs } = pointsToBitVector(pts);
    assert.equal(toHex(flags), '0e01');
    assert.equal(toHex(xs[1] as Uint8Array), toHex(H_X));
    pts.forEach((p, k) => {
      assert.ok(pointFromBitVector(flags, k, xs[k] as Uint8Array).equals(p), `point ${k}`);
    });
  });

  it('sums points, with infinity for the empty list', () => {
    assert.ok(sumPoints([]).is0());
    assert.ok(sumPoints([GEN_G, GEN_G]).equals(twoG));
  });
});

describe('generators (§2.1, §8.1)', () => {
  const uncompressedG = concatBytes(Uint8Array.of(4), G_X, G_Y);

  it('H.x = SHA256(uncompressed G); H has the published y', () => {
    assert.equal(toHex(sha256(uncompressedG)), toHex(H_X));
    assert.equal(toHex(H_Y), '31d3c6863973926e049e637cb1b5f40a36dac28af1766968c30c2313f3a38904');
    assert.equal(GEN_H.y, bytesToBigInt(H_Y));
  });

  it('J.x = SHA256(SHA256(uncompressed G)); compressed and raw forms as in the C test', () => {
    assert.equal(toHex(sha256(sha256(uncompressedG))), toHex(J_X));
    assert.equal(
      toHex(pointToCompressed(GEN_J)),
      '02b860f56795fc03f3c21685383d1b5a2f2954f49b7e398b8d2a0193933621155f',
    );
    assert.equal(
      toHex(J_RAW),
      '5f1521369393012a8d8b397e9bf454292f5a1b3d388516c2f303fc9567f560b8' +
        '3ac4c5a6dca20159fc56cf749aa6a565316aa50374423f42538faa2cd3093fa4',
    );
    assert.equal(GEN_J.y, bytesToBigInt(J_Y));
    GEN_J.assertValidity();
  });
});
