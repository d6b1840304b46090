// Hashing to the curve as secp256k1-zkp's generator module does: the Shallue–van de Woestijne
// map and generator_generate (two SHA-256 derived field elements, mapped and added).
import { sha256 } from '@noble/hashes/sha2.js';
import { FIELD_P, isQuadResidue, liftXQuadY, Point, readU256 } from '../curve.js';

const Fp = Point.Fp;
/** √−3 mod p. */
const SQRT_M3 = 0x0a2d2ba93507f1df233770c2a797962cc61f6d15da14ecd47d8d27ae1cd5f852n;
/** (√−3 − 1) / 2 mod p. */
const HALF_SQRT_M3_M1 = 0x851695d49a83f8ef919bb86153cbcb16630fb68aed0a766a3ec693d68e6afa40n;

function curveRhs(x: bigint): bigint {
  return Fp.add(Fp.mul(Fp.sqr(x), x), 7n);
}

/** SW(t): a curve point for a non-zero field element t. */
export function shallueVanDeWoestijne(t: bigint): Point {
  const w = Fp.div(Fp.mul(SQRT_M3, t), Fp.add(8n, Fp.sqr(t)));
  const x1 = Fp.sub(HALF_SQRT_M3_M1, Fp.mul(t, w));
  const x2 = Fp.neg(Fp.add(x1, 1n));
  const x3 = Fp.add(1n, Fp.inv(Fp.sqr(w)));
  let x = x3;
  if (isQuadResidue(curveRhs(x1))) x = x1;
  else if (isQuadResidue(curveRhs(x2))) x = x2;
  const y = liftXQuadY(x);
  if (y === null) throw new Error('SW map produced no point'); // impossible for t ≠ 0
  return Point.fromAffine({ x, y: t & 1n ? Fp.neg(y) : y });
}

const PREFIX_1 = new TextEncoder().encode('1st generation: ');
const PREFIX_2 = new TextEncoder().encode('2nd generation: ');

function fieldFromHash(prefix: Uint8Array, key: Uint8Array): bigint {
  const t = readU256(sha256.create().update(prefix).update(key).digest());
  // libsecp aborts here; a SHA-256 output at or above p has probability ~2^-224.
  if (t >= FIELD_P) throw new Error('generator hash not below p');
  return t;
}

/** generator_generate(key32): SW(t1) + SW(t2) with t1, t2 hashed from the key. */
export function generatorGenerate(key: Uint8Array): Point {
  const p1 = shallueVanDeWoestijne(fieldFromHash(PREFIX_1, key));
  const p2 = shallueVanDeWoestijne(fieldFromHash(PREFIX_2, key));
  return p1.add(p2);
}
