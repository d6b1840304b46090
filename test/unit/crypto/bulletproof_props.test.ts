// Property tests of the range prover and verifiers (issue 5 acceptance: "prove → verify for
// random values and blinds; verify rejects a proof for a different commitment; batch verify of N
// valid proofs with one invalid reports exactly that one").
//
// Proving costs ~200 ms, so each property runs only a few cases, from a fixed seed: fast-check
// prints the seed and the counterexample path when a property fails, and FC_SEED=<n> in the
// environment replays another seed. Shrinking is off (endOnFailure): each shrink step would prove
// again, and the first counterexample with its seed is enough to replay.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toHex } from '../../../core/bytes.js';
import {
  findInvalidRangeProofs,
  type RangeProofItem,
  verifyRange,
  verifyRangeBatch,
} from '../../../core/crypto/bulletproof/batch.js';
import { PROOF_SIZE } from '../../../core/crypto/bulletproof/layout.js';
import { proveRange } from '../../../core/crypto/bulletproof/prover.js';
import { rewindRange } from '../../../core/crypto/bulletproof/rewind.js';
import { commit } from '../../../core/crypto/commit.js';
import { bigIntTo32, CURVE_N } from '../../../core/crypto/curve.js';
import { arbBytes, arbU64, U64_MAX } from '../../support/arbitraries.js';
import { flipBit, isIgnoredProofBit } from '../../support/crypto.js';

const SEED = Number(process.env.FC_SEED ?? 0x6d776e);

/** A valid blinding factor: a scalar in [1, n) as 32 bytes. */
const arbBlind = fc.bigInt({ min: 1n, max: CURVE_N - 1n });
const arbNonce = arbBytes(32);

interface Secret {
  readonly value: bigint;
  readonly blind: bigint;
  readonly rewindNonce: Uint8Array;
  readonly privateNonce: Uint8Array;
  readonly message: Uint8Array;
}

const arbSecret: fc.Arbitrary<Secret> = fc.record({
  value: arbU64(),
  blind: arbBlind,
  rewindNonce: arbNonce,
  privateNonce: arbNonce,
  message: arbBytes(20),
});

function prove(s: Secret): RangeProofItem {
  const blind = bigIntTo32(s.blind);
  return { commit: commit(s.value, blind), proof: proveRange({ ...s, blind }) };
}

/** The proof bits a verifier reads (all but the ten unused flag bits). */
const READ_BITS: number[] = [];
for (let bit = 0; bit < 8 * PROOF_SIZE; bit++) if (!isIgnoredProofBit(bit)) READ_BITS.push(bit);

describe('bulletproof properties', () => {
  it('prove → verify, and rewinding returns the value and message', () => {
    fc.assert(
      fc.property(arbSecret, (s) => {
        const { commit: c, proof } = prove(s);
        assert.equal(proof.length, PROOF_SIZE);
        assert.equal(verifyRange(c, proof), true);
        const r = rewindRange(c, proof, s.rewindNonce);
        assert.ok(r !== null);
        assert.equal(r.value, s.value);
        assert.deepEqual(r.message, s.message);
      }),
      { numRuns: 8, seed: SEED, endOnFailure: true },
    );
  });

  it('a proof is rejected against a commitment to another value or with another blind', () => {
    fc.assert(
      fc.property(
        arbSecret,
        fc.bigInt({ min: 1n, max: U64_MAX }),
        fc.bigInt({ min: 1n, max: CURVE_N - 1n }),
        (s, valueDelta, blindDelta) => {
          const { commit: c, proof } = prove(s);
          const otherValue = (s.value + valueDelta) & U64_MAX;
          const otherBlind = (s.blind + blindDelta) % CURVE_N;
          const blind = bigIntTo32(s.blind);
          const byValue = commit(otherValue, blind);
          const byBlind = commit(s.value, bigIntTo32(otherBlind));
          assert.notDeepEqual(byValue, c);
          assert.notDeepEqual(byBlind, c);
          assert.equal(verifyRange(c, proof), true);
          assert.equal(verifyRange(byValue, proof), false);
          assert.equal(verifyRange(byBlind, proof), false);
          assert.equal(verifyRangeBatch([{ commit: byValue, proof }]), false);
        },
      ),
      { numRuns: 6, seed: SEED, endOnFailure: true },
    );
  });

  // Each way of breaking one member gets its own runs, so all four are always exercised.
  const HOWS = ['proof bit', 'other value', 'other blind', 'proof of another'] as const;
  for (const how of HOWS) {
    it(`N valid proofs, one broken (${how}): the batch fails and bisection names only that one`, () => {
      const arbCase = fc.array(arbSecret, { minLength: 4, maxLength: 6 }).chain((secrets) =>
        fc.record({
          secrets: fc.constant(secrets),
          bad: fc.nat({ max: secrets.length - 1 }),
          bitIndex: fc.nat({ max: READ_BITS.length - 1 }),
        }),
      );
      fc.assert(
        fc.property(arbCase, ({ secrets, bad, bitIndex }) => {
          const items = secrets.map(prove);
          assert.equal(verifyRangeBatch(items), true);
          assert.deepEqual(findInvalidRangeProofs(items), []);
          const s = secrets[bad] as Secret;
          const item = items[bad] as RangeProofItem;
          let broken: RangeProofItem;
          switch (how) {
            case 'proof bit':
              broken = { ...item, proof: flipBit(item.proof, READ_BITS[bitIndex] as number) };
              break;
            case 'other value':
              broken = { ...item, commit: commit((s.value + 1n) & U64_MAX, bigIntTo32(s.blind)) };
              break;
            case 'other blind':
              broken = {
                ...item,
                commit: commit(s.value, bigIntTo32((s.blind % (CURVE_N - 1n)) + 1n)),
              };
              break;
            case 'proof of another': {
              const other = items[(bad + 1) % items.length] as RangeProofItem;
              // fast-check may draw two equal secrets; then the other proof is valid here too.
              fc.pre(toHex(other.commit) !== toHex(item.commit));
              broken = { ...item, proof: other.proof };
              break;
            }
          }
          const tampered = items.map((it, i) => (i === bad ? broken : it));
          assert.equal(verifyRange(broken.commit, broken.proof), false);
          assert.equal(verifyRangeBatch(tampered), false);
          assert.deepEqual(findInvalidRangeProofs(tampered), [bad]);
        }),
        { numRuns: 2, seed: SEED, endOnFailure: true },
      );
    });
  }
});
