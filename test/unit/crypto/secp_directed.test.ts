// Directed tests of the native secp256k1 arithmetic (native/secp256k1, through its `arith`
// test surface, test/support/secp_arith.ts) against BigInt: every field element and scalar
// whose four 64-bit limbs are drawn from the carry edges {0, 1, 2^63−1, 2^63, 2^63+1, 2^64−2,
// 2^64−1}, and the curve points whose x-coordinates are such values, decoded by the addon and
// by the JavaScript backend. Random differential tests reach a lost carry with probability
// about 2^-64 per operation; these reach every limb-level case (issue 16, item 1: the doubled
// cross product of fe_sqr dropped a carry for 380 of these 2,401 elements).
// Skipped (with a reason) when the addon was not built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CURVE_N,
  FIELD_P,
  isQuadResidue,
  liftXQuadY,
  readU256,
  writeU256,
} from '../../../core/crypto/curve.js';
import { invMod } from '../../../core/crypto/ec/invert.js';
import { loadSecpAddon } from '../../../jobs/secp_addon.js';
import { type BinaryOp, loadSecpArith, type UnaryOp } from '../../support/secp_arith.js';

const addon = loadSecpAddon();
const arith = loadSecpArith();
const skip = addon === null ? 'native/secp256k1 addon not built' : false;

const TOP = (1n << 64n) - 1n;
const EDGE_LIMBS = [0n, 1n, (1n << 63n) - 1n, 1n << 63n, (1n << 63n) + 1n, TOP - 1n, TOP];

/** The 7^4 values whose limbs (least significant first) are digits of i in base 7. */
const DIRECTED: readonly bigint[] = Array.from({ length: 7 ** 4 }, (_, i) => {
  let v = 0n;
  for (let limb = 0, rest = i; limb < 4; limb++, rest = Math.floor(rest / 7)) {
    v |= (EDGE_LIMBS[rest % 7] as bigint) << BigInt(64 * limb);
  }
  return v;
});

const limbsOf = (v: bigint): bigint[] => [0, 1, 2, 3].map((k) => (v >> BigInt(64 * k)) & TOP);

// Pairs: all among the 513 elements with at least three limbs in {0, 2^64−2, 2^64−1} (the
// longest carry and borrow chains), and every element against each of the 7 uniform ones.
const EXTREME = new Set([0n, TOP - 1n, TOP]);
const CORNERS = DIRECTED.filter((v) => limbsOf(v).filter((l) => EXTREME.has(l)).length >= 3);
const UNIFORM = EDGE_LIMBS.map((l) => l * ((1n << 192n) + (1n << 128n) + (1n << 64n) + 1n));
const PAIRS: readonly (readonly [bigint, bigint])[] = [
  ...CORNERS.flatMap((a) => CORNERS.map((b) => [a, b] as const)),
  ...DIRECTED.flatMap((a) => UNIFORM.flatMap((u) => [[a, u] as const, [u, a] as const])),
];

// How many of the directed x are on the curve (x³ + 7 a square mod p, counted with BigInt).
const LIFTABLE = 1179;

const hex = (v: bigint): string => `0x${v.toString(16)}`;

function pack(values: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(32 * values.length);
  values.forEach((v, i) => {
    writeU256(out, 32 * i, v);
  });
  return out;
}

/** Asserts that out[i] = want(i) for every operand; a failure gives the count and first case. */
function assertEach(
  name: string,
  out: Uint8Array,
  count: number,
  want: (i: number) => bigint,
  operands: (i: number) => string,
): void {
  let wrong = 0;
  let first = '';
  for (let i = 0; i < count; i++) {
    const got = readU256(out, 32 * i);
    const w = want(i);
    if (got !== w && wrong++ === 0) first = `${name}(${operands(i)}) = ${hex(got)}, want ${hex(w)}`;
  }
  assert.equal(wrong, 0, `${wrong} of ${count} wrong; first: ${first}`);
}

function checkUnary(name: string, op: UnaryOp, want: (a: bigint) => bigint): void {
  const out = new Uint8Array(32 * DIRECTED.length);
  op(pack(DIRECTED), out);
  const at = (i: number) => DIRECTED[i] as bigint;
  assertEach(
    name,
    out,
    DIRECTED.length,
    (i) => want(at(i)),
    (i) => hex(at(i)),
  );
}

// Packed once: six field and scalar operations run over the same ~300,000 pairs.
let pairBytes: readonly [Uint8Array, Uint8Array] | undefined;

function checkBinary(name: string, op: BinaryOp, want: (a: bigint, b: bigint) => bigint): void {
  pairBytes ??= [pack(PAIRS.map((p) => p[0])), pack(PAIRS.map((p) => p[1]))];
  const out = new Uint8Array(32 * PAIRS.length);
  op(pairBytes[0], pairBytes[1], out);
  const at = (i: number) => PAIRS[i] as readonly [bigint, bigint];
  assertEach(
    name,
    out,
    PAIRS.length,
    (i) => want(...at(i)),
    (i) => `${hex(at(i)[0])}, ${hex(at(i)[1])}`,
  );
}

const modP = (v: bigint): bigint => ((v % FIELD_P) + FIELD_P) % FIELD_P;
const modN = (v: bigint): bigint => ((v % CURVE_N) + CURVE_N) % CURVE_N;
/** The inverse mod m, with 0 for 0 (what Fermat's power gives, and the addon returns). */
const inverse = (v: bigint, m: bigint): bigint => (v % m === 0n ? 0n : invMod(v, m));

describe('native field arithmetic mod p on every edge-limb element', { skip }, () => {
  const fe = arith as NonNullable<typeof arith>;

  it('covers the intended operand sets', () => {
    assert.equal(DIRECTED.length, 2401);
    assert.equal(new Set(DIRECTED).size, 2401);
    assert.equal(CORNERS.length, 513);
    assert.equal(PAIRS.length, 513 * 513 + 2 * 7 * 2401);
  });

  it('squares all 2,401 (the doubled cross products of fe_sqr), including the issue example', () => {
    checkUnary('feSqr', fe.feSqr, (a) => modP(a * a));
    const example = [0xfffffffffffffffen, 0x8000000000000001n, 0x1234n, 0x5678n];
    const a = example.reduce((acc, l, k) => acc | (l << BigInt(64 * k)), 0n);
    const out = new Uint8Array(32);
    fe.feSqr(pack([a]), out);
    assert.equal(readU256(out), modP(a * a));
  });

  it('normalizes all 2,401 (values ≥ p included) and inverts them (0 and p give 0)', () => {
    checkUnary('feNormalize', fe.feNormalize, modP);
    checkUnary('feInv', fe.feInv, (a) => inverse(a, FIELD_P));
  });

  it('multiplies, adds and subtracts every directed pair', () => {
    checkBinary('feMul', fe.feMul, (a, b) => modP(a * b));
    checkBinary('feAdd', fe.feAdd, (a, b) => modP(a + b));
    checkBinary('feSub', fe.feSub, (a, b) => modP(a - b));
  });
});

describe('the arith test surface', { skip }, () => {
  it('refuses wrong argument types and lengths with TypeError / RangeError', () => {
    const ops = arith as NonNullable<typeof arith>;
    const [b31, b32, b64] = [31, 32, 64].map((n) => new Uint8Array(n)) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    assert.throws(() => ops.feMul(b32, b64, b64), RangeError);
    assert.throws(() => ops.feSqr(b31, b32), RangeError);
    assert.throws(() => ops.scInv(b64, b32), RangeError);
    assert.throws(() => ops.scAdd(b32, [] as unknown as Uint8Array, b32), TypeError);
    assert.throws(() => (ops.feMul as unknown as UnaryOp)(b32, b32), TypeError);
  });
});

describe('native scalar arithmetic mod n on every edge-limb scalar', { skip }, () => {
  const sc = arith as NonNullable<typeof arith>;

  it('reduces all 2,401 (values ≥ n included) and inverts them (0 and n give 0)', () => {
    assert.equal(DIRECTED.filter((v) => v >= CURVE_N).length, 63);
    checkUnary('scReduce', sc.scReduce, modN);
    checkUnary('scInv', sc.scInv, (a) => inverse(a, CURVE_N));
  });

  it('multiplies, adds and subtracts every directed pair', () => {
    checkBinary('scMul', sc.scMul, (a, b) => modN(a * b));
    checkBinary('scAdd', sc.scAdd, (a, b) => modN(a + b));
    checkBinary('scSub', sc.scSub, (a, b) => modN(a - b));
  });
});

describe('points whose x has edge limbs: the addon and JavaScript decode them alike', {
  skip,
}, () => {
  const native = addon as NonNullable<typeof addon>;
  const rhs = (x: bigint): bigint => modP(((x * x) % FIELD_P) * x + 7n);
  const onCurve = (x: bigint, y: bigint): boolean => modP(y * y) === rhs(x);
  // x³ + 7 a square mod p (Jacobi symbol, BigInt): exactly the x of curve points
  const liftable = DIRECTED.filter((x) => x < FIELD_P && isQuadResidue(rhs(x)));
  const refused = DIRECTED.filter((x) => x >= FIELD_P || !isQuadResidue(rhs(x)));
  // the JavaScript backend's y (no native backend is installed in this file)
  const jsY = new Map(liftable.map((x) => [x, liftXQuadY(x) as bigint]));

  it('splits the 2,401 x into curve x and the rest (x ≥ p among them)', () => {
    assert.equal(liftable.length, LIFTABLE);
    assert.equal(refused.length, 2401 - LIFTABLE);
    assert.equal(DIRECTED.filter((x) => x >= FIELD_P).length, 2);
    for (const x of liftable) assert.ok(onCurve(x, jsY.get(x) as bigint), `JS lift of ${hex(x)}`);
  });

  it('square roots of every x below p: the root that is a square, or none', () => {
    const out = new Uint8Array(32);
    for (const x of DIRECTED.filter((v) => v < FIELD_P)) {
      const ok = native.sqrt(pack([x]), out);
      assert.equal(ok, isQuadResidue(x), `sqrt(${hex(x)}) found`);
      const r = readU256(out);
      if (ok) assert.ok(modP(r * r) === x && isQuadResidue(r), `sqrt(${hex(x)}) = ${hex(r)}`);
    }
  });

  it('02/03/08/09 + x decode to the JavaScript point, on the curve (ge_decode33)', () => {
    const tags = [0x02, 0x03, 0x08, 0x09];
    const enc = new Uint8Array(33 * tags.length * liftable.length);
    liftable.forEach((x, i) => {
      tags.forEach((tag, t) => {
        const at = 33 * (tags.length * i + t);
        enc[at] = tag;
        writeU256(enc, at + 1, x);
      });
    });
    const out = new Uint8Array((enc.length / 33) * 64);
    assert.equal(native.decode(enc, out), -1);
    liftable.forEach((x, i) => {
      const y = jsY.get(x) as bigint;
      const even = (y & 1n) === 0n ? y : FIELD_P - y;
      const want = [even, FIELD_P - even, y, FIELD_P - y];
      want.forEach((wy, t) => {
        const at = 64 * (tags.length * i + t);
        assert.equal(readU256(out, at), x);
        assert.equal(readU256(out, at + 32), wy, `tag ${tags[t]} x ${hex(x)}`);
      });
    });
  });

  it('refuses every other x, as the JavaScript lift does', () => {
    for (const x of refused) {
      const enc = new Uint8Array(33);
      enc[0] = 0x08;
      writeU256(enc, 1, x);
      assert.equal(native.decode(enc, new Uint8Array(64)), 0, `decode ${hex(x)}`);
      assert.equal(liftXQuadY(x), null);
    }
  });

  it('accepts x‖y and x‖−y of every such point (ge_from_xy) and sums 1·P back to P', () => {
    const one = pack([1n]);
    const e = new Uint8Array(0);
    const out = new Uint8Array(64);
    for (const x of liftable) {
      const y = jsY.get(x) as bigint;
      for (const wy of [y, FIELD_P - y]) {
        const xy = new Uint8Array(64);
        writeU256(xy, 0, x);
        writeU256(xy, 32, wy);
        assert.equal(native.msm(xy, one, e, e, out), 0, `point ${hex(x)}, ${hex(wy)}`);
        assert.deepEqual([readU256(out, 0), readU256(out, 32)], [x, wy]);
      }
    }
  });
});
