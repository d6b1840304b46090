// Aggsig (crypto reference §3.1–3.6, §8.2): challenge, nonce sign rule, sign/verify, partial
// signatures and their aggregation, and the raw ↔ compact byte orders.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, toHex } from '../../../core/bytes.js';
import {
  AggsigError,
  addSignatures,
  calculatePartialSig,
  challenge,
  createSecnonce,
  publicKeyFromSecret,
  signatureFromCompact,
  signatureToCompact,
  signSingle,
  sumPublicKeys,
  verifyPartialSig,
  verifySingle,
} from '../../../core/crypto/aggsig.js';
import { batchVerify } from '../../../core/crypto/batch_verify.js';
import {
  bigIntTo32,
  bytesToBigInt,
  CURVE_N,
  FIELD_P,
  hasQuadY,
  isQuadResidue,
  liftXQuad,
  mulG,
  pointFromCompressed,
  pointToCompressed,
} from '../../../core/crypto/curve.js';
import { hex } from '../../support/crypto.js';

const MSG = sha256(new TextEncoder().encode('mwnode aggsig test'));
const SK = bigIntTo32(0x3b1f5c0d2e4a69788f9d0c1b2a39485766a5b4c3d2e1f00112233445566778n);
const PK = publicKeyFromSecret(SK);
const TEST_NONCE = new Uint8Array(32).fill(1);

/** Deterministic scalar k for which k·G has (qr) or lacks (!qr) a QR y. */
function nonceWithQr(qr: boolean, start = 2n): Uint8Array {
  for (let k = start; ; k++) if (hasQuadY(mulG(k)) === qr) return bigIntTo32(k);
}

function flip(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  out[bit >> 3] = (out[bit >> 3] as number) ^ (1 << (bit & 7));
  return out;
}

describe('challenge (§3.2)', () => {
  it('is SHA256(x(R) ‖ P33 ‖ m) reduced mod n, P33 optional', () => {
    const rx = bigIntTo32(7n);
    assert.equal(challenge(rx, PK, MSG), bytesToBigInt(sha256(concatBytes(rx, PK, MSG))) % CURVE_N);
    assert.equal(challenge(rx, null, MSG), bytesToBigInt(sha256(concatBytes(rx, MSG))) % CURVE_N);
  });
});

describe('single-signer sign and verify (§3.3–3.5)', () => {
  it('test-mode nonce 0x01×32 publishes x((0x01…01)·G), as in the foundation test file', () => {
    const sig = signSingle(MSG, SK, { secnonce: TEST_NONCE, pubkeyForE: PK });
    assert.equal(
      toHex(sig.subarray(0, 32)),
      '1b84c5567b126440995d3ed5aaba0565d71e1834604819ff9c17f5e9d5dd078f',
    );
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), true);
  });

  it('s = k + e·x with the nonce negated when k·G has a non-QR y', () => {
    for (const qr of [true, false]) {
      const k = nonceWithQr(qr);
      const sig = signSingle(MSG, SK, { secnonce: k, pubkeyForE: PK });
      const e = challenge(sig.subarray(0, 32), PK, MSG);
      const kSigned = qr ? bytesToBigInt(k) : CURVE_N - bytesToBigInt(k);
      const s = (kSigned + e * bytesToBigInt(SK)) % CURVE_N;
      assert.equal(toHex(sig.subarray(32)), toHex(bigIntTo32(s)), `qr = ${qr}`);
      assert.equal(toHex(sig.subarray(0, 32)), toHex(bigIntTo32(mulG(bytesToBigInt(k)).x)));
      assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), true, `qr = ${qr}`);
    }
  });

  it('a signature whose recomputed nonce has a non-QR y fails unless partial', () => {
    // Sign "by hand" without the negation rule: s·G − e·P = k·G, x matches, y is not QR.
    const k = bytesToBigInt(nonceWithQr(false));
    const rx = bigIntTo32(mulG(k).x);
    const e = challenge(rx, PK, MSG);
    const sig = concatBytes(rx, bigIntTo32((k + e * bytesToBigInt(SK)) % CURVE_N));
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), false);
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK, isPartial: true }), true);
    assert.equal(batchVerify([{ sig, msg: MSG, pubkey: PK }]), false);
  });

  it('random-nonce round trips, and every tamper fails', () => {
    for (let i = 0; i < 4; i++) {
      const sig = signSingle(MSG, SK, { pubkeyForE: PK });
      assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), true);
      assert.equal(verifySingle(flip(sig, 511), MSG, PK, { pubkeyTotal: PK }), false);
      assert.equal(verifySingle(flip(sig, 100), MSG, PK, { pubkeyTotal: PK }), false);
      assert.equal(verifySingle(sig, flip(MSG, 3), PK, { pubkeyTotal: PK }), false);
      const other = publicKeyFromSecret(bigIntTo32(5n));
      assert.equal(verifySingle(sig, MSG, other, { pubkeyTotal: other }), false);
      // The key must be hashed as it was when signing.
      assert.equal(verifySingle(sig, MSG, PK), false);
    }
  });

  it('without pubkey_for_e the challenge omits the key, and verify must match', () => {
    const sig = signSingle(MSG, SK, { secnonce: TEST_NONCE });
    assert.equal(verifySingle(sig, MSG, PK), true);
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), false);
  });

  it('an extra scalar is added to s and checked against an extra public key', () => {
    const extra = bigIntTo32(99n);
    const sig = signSingle(MSG, SK, { secnonce: TEST_NONCE, extra, pubkeyForE: PK });
    const extraPub = publicKeyFromSecret(extra);
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK, extraPubkey: extraPub }), true);
    assert.equal(verifySingle(sig, MSG, PK, { pubkeyTotal: PK }), false);
  });

  it('rejects r ≥ p, s ≥ n, r = 0 and bad lengths without throwing', () => {
    const sig = signSingle(MSG, SK, { pubkeyForE: PK });
    const badS = concatBytes(sig.subarray(0, 32), bigIntTo32(CURVE_N));
    const badR = concatBytes(bigIntTo32(FIELD_P), sig.subarray(32));
    const zeroR = concatBytes(new Uint8Array(32), sig.subarray(32));
    for (const bad of [badS, badR, zeroR, sig.subarray(0, 63)]) {
      assert.equal(verifySingle(bad, MSG, PK, { pubkeyTotal: PK }), false);
    }
    assert.equal(verifySingle(sig, MSG, new Uint8Array(33)), false);
  });

  it('refuses invalid secret keys and nonces', () => {
    assert.throws(() => signSingle(MSG, new Uint8Array(32)), AggsigError);
    assert.throws(() => signSingle(MSG, bigIntTo32(CURVE_N)), AggsigError);
    assert.throws(() => signSingle(MSG, SK, { secnonce: new Uint8Array(32) }), AggsigError);
  });
});

describe('multi-party flow (§3.6)', () => {
  interface Party {
    secret: Uint8Array;
    nonce: Uint8Array;
  }

  function run(parties: Party[]): { final: Uint8Array; nonceSumQr: boolean; pubSum: Uint8Array } {
    const pubNonces = parties.map((p) => publicKeyFromSecret(p.nonce));
    const pubBlinds = parties.map((p) => publicKeyFromSecret(p.secret));
    const nonceSum = sumPublicKeys(pubNonces);
    const pubSum = sumPublicKeys(pubBlinds);
    const partials = parties.map((p) =>
      calculatePartialSig(MSG, p.secret, p.nonce, nonceSum, pubSum),
    );
    partials.forEach((sig, i) => {
      assert.equal(toHex(sig.subarray(0, 32)), toHex(pubNonces[i]?.subarray(1) as Uint8Array));
      assert.equal(verifyPartialSig(sig, MSG, pubBlinds[i] as Uint8Array, nonceSum, pubSum), true);
      const wrong = pubBlinds[(i + 1) % parties.length] as Uint8Array;
      assert.equal(verifyPartialSig(sig, MSG, wrong, nonceSum, pubSum), false);
    });
    const final = addSignatures(partials, nonceSum);
    assert.equal(toHex(final.subarray(0, 32)), toHex(nonceSum.subarray(1)));
    return { final, nonceSumQr: hasQuadY(pointFromCompressed(nonceSum)), pubSum };
  }

  for (const count of [2, 3]) {
    it(`${count} partial signatures aggregate into one that verifies against ΣP`, () => {
      const seen = new Set<boolean>();
      for (let t = 0; t < 12 && seen.size < 2; t++) {
        const parties = Array.from({ length: count }, (_, i) => ({
          secret: bigIntTo32(BigInt(1000 * t + 17 * i + 3) * 0x1f2e3d4c5b6a7988n),
          nonce: nonceWithQr(true, BigInt(50 * t + 7 * i + 2)),
        }));
        const { final, nonceSumQr, pubSum } = run(parties);
        seen.add(nonceSumQr);
        assert.equal(verifySingle(final, MSG, pubSum, { pubkeyTotal: pubSum }), true);
        assert.equal(verifySingle(flip(final, 300), MSG, pubSum, { pubkeyTotal: pubSum }), false);
        const notAll = sumPublicKeys(parties.slice(1).map((p) => publicKeyFromSecret(p.secret)));
        assert.equal(verifySingle(final, MSG, notAll, { pubkeyTotal: notAll }), false);
      }
      assert.equal(seen.size, 2, 'both signs of the nonce sum were exercised');
    });
  }

  it('secret nonces from createSecnonce have a QR public point', () => {
    for (let i = 0; i < 4; i++) {
      assert.equal(hasQuadY(mulG(bytesToBigInt(createSecnonce()))), true);
    }
  });

  it('public keys summing to infinity are refused', () => {
    const neg = pointToCompressed(pointFromCompressed(PK).negate());
    assert.throws(() => sumPublicKeys([PK, neg]), AggsigError);
  });
});

describe('subtraction vector (§8.2)', () => {
  it('neither R − Rs nor −R − Rs has a QR y', () => {
    const r = liftXQuad(0xca69e316c1f54efe6c23ff8f1d29b9b3e222a6799d3eb11cf50c8a052647e8dfn);
    const rs = liftXQuad(0xa1b9ffd97ec9110d53a2cc88639a319c8436e500b41c182ac49f026864493fc7n);
    assert.equal(isQuadResidue(r.subtract(rs).y), false);
    assert.equal(isQuadResidue(r.negate().subtract(rs).y), false);
  });
});

describe('byte orders (§3.1)', () => {
  const compact = hex(
    'f7d1f59bcbe63c407f3bc91d843aa343f681e7db064337ad01cc761e307c8691' +
      '56615c27e4fe86441eb02386f98225cf2f74ac59b6542fa1275981436b17c155',
  );

  it('compact (JSON) is raw with each half reversed: floonet line 0', () => {
    const raw = signatureFromCompact(compact);
    assert.equal(
      toHex(raw),
      '91867c301e76cc01ad374306dbe781f643a33a841dc93b7f403ce6cb9bf5d1f7' +
        '55c1176b43815927a12f54b659ac742fcf2582f98623b01e4486fee4275c6156',
    );
    assert.equal(toHex(signatureToCompact(raw)), toHex(compact));
  });

  it('a compact half ≥ n is refused', () => {
    const bad = concatBytes(new Uint8Array(32).fill(0xff), compact.subarray(32));
    assert.throws(() => signatureFromCompact(bad), AggsigError);
    assert.throws(() => signatureToCompact(new Uint8Array(63)), AggsigError);
  });
});
