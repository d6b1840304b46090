// Real bulletproofs made by Epic: the 500 floonet foundation outputs verify against their
// commitments (in batches, and a sample singly) and the 19 outputs of the foundation test file
// are reproduced byte for byte with the proof builders, then rewound.
//
// The test file's secrets come from the keychain (crypto reference §6, §8.6): the test mnemonic's
// BIP39 seed → master key (HMAC-SHA512 "IamVoldemort") → m/(5·(k+1)) → blind_switch. They are
// written out here as constants, derived once outside this repository's keychain code, and each
// is checked against its line's commitment before use, so a wrong constant fails loudly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import {
  findInvalidRangeProofs,
  type RangeProofItem,
  verifyRange,
  verifyRangeBatch,
} from '../../core/crypto/bulletproof/batch.js';
import {
  buildProof,
  LegacyProofBuilder,
  type ProofBuild,
  ProofBuilder,
  rewindWithBuilder,
} from '../../core/crypto/bulletproof/builders.js';
import { PROOF_SIZE } from '../../core/crypto/bulletproof/layout.js';
import { commit } from '../../core/crypto/commit.js';
import { blake2b256 } from '../../core/hash/blake2b.js';
import { hex } from '../support/crypto.js';
import { SHARED_VECTORS } from '../support/paths.js';

interface Line {
  readonly commit: Uint8Array;
  readonly proof: Uint8Array;
  readonly keyId: Uint8Array;
}

function load(name: string): Line[] {
  return readFileSync(join(SHARED_VECTORS, name), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const j = JSON.parse(l) as {
        output: { commit: string; proof: string };
        key_id: string;
      };
      return { commit: hex(j.output.commit), proof: hex(j.output.proof), keyId: hex(j.key_id) };
    });
}

const floonet = load('foundation_floonet.jsonl');
const test19 = load('foundation_test19.jsonl');
/** Every output of both files commits to this amount (reference §6). */
const VALUE = 710_400_000n;

/** Master secret of the test mnemonic (`shop dignity online … exile`, no passphrase). */
const MASTER = hex('f5811136992e0ceb0335950aea26f4b9419588973fb0bd39f5af0ab43069339c');
/** γ_k = derive_key(710 400 000, m/(5·(k+1)), Regular) for line k of the test file. */
const BLINDS = [
  '99ce7d4698be018f8323f8eced3feb9b3a05c06ece8aaecc2b23916cdb17e71d',
  '8ab43eafacfe36a8eeb925b420df50e40518da1bfe9442c6d8df4775440195fc',
  '97453a42fb989869daf0a319b62abd25632c1785c985bdca0c442fb747817460',
  'd2623b8eca371c0fceb2bffe0b36eaed618c6443d590176446592b4b4cbfd0cd',
  '5a30b8b0ba8734b6d9a9f825af9bda1c1b85eaf96a5075e7deb28062d2470b0e',
  'ec2fb9df917fc68632cb035ef93beba9b3765fe6f4d6847ccc2a7aa65484ebce',
  '458b3975f96674624165f2792f209ac9a482091e300c85a517aebb8bba16f49d',
  'aa833a5cd3b924323514e00efec93e7929c1003248f8ce4ac61769a0e14767a8',
  '5d64c0f667afdbd7da19fcee57003c55de9b229f5e6dc6674ffed1e818ee380d',
  '7fb31d96ee92bfb24ea37aac03331c5779b88400c85b2392eba67b640f539310',
  '0c1afdc3a9020038ae823d208ce8fef9f6951666b923701036226c97a1da068e',
  '550a5eec05f9e231062e9a2bb7777f71aff2a88fdda217102cc0b95eed5e2b39',
  '58eeb14d5a4196955e1954e383f7700f4dc3923d206186cd05b21add4ca6871f',
  'ea253f6e43391ef9369f467e2c6900b9be30fff73ba29bd1886c1f5a22b10fde',
  '24731f7b9a45331b8e51ccd1e4303ec65ceee22041277a9f6a95e3e9666981e2',
  '2d1c887e0f02798bd55ffa91909ea0d70a53426f65e5bca70a206e86cb871d55',
  'd5caebc989d771ff3eddf38dd64f29792b91ff2e305b660367d8493046e7ee21',
  '82e1b901e8a3bab68372c67376960e13e5c3621d044c722dcae9e3f1b2b99aa9',
  '261d92c1186e5ac0cf0a0ea14f3ff9e91696f86d8faa8d625b21dc352a746a98',
].map(hex);

/** Line 0 is from a header-version-6 block (legacy builder), the rest version 7. */
function builderFor(k: number): ProofBuild {
  return k === 0
    ? LegacyProofBuilder.fromMasterSecret(MASTER)
    : ProofBuilder.fromMasterSecret(MASTER);
}

describe('Epic range proofs', () => {
  it('both files: 500 + 19 proofs of 675 bytes', () => {
    assert.equal(floonet.length, 500);
    assert.equal(test19.length, 19);
    for (const l of [...floonet, ...test19]) assert.equal(l.proof.length, PROOF_SIZE);
  });

  it('all 500 floonet proofs verify as one batch', () => {
    assert.equal(verifyRangeBatch(floonet), true);
  });

  it('floonet proofs in batches of 64, and every 25th singly', () => {
    for (let i = 0; i < floonet.length; i += 64) {
      assert.equal(verifyRangeBatch(floonet.slice(i, i + 64)), true, `batch at ${i}`);
    }
    for (let i = 0; i < floonet.length; i += 25) {
      const l = floonet[i] as Line;
      assert.equal(verifyRange(l.commit, l.proof), true, `line ${i}`);
    }
  });

  it('a batch of 100 floonet proofs with three tampered: rejected, bisection names them', () => {
    const items: RangeProofItem[] = floonet.slice(100, 200).map((l) => ({ ...l }));
    const swap = items[17] as RangeProofItem;
    items[17] = { commit: (items[18] as RangeProofItem).commit, proof: swap.proof };
    const flip = (k: number, at: number) => {
      const p = (items[k] as RangeProofItem).proof.slice();
      p[at] = (p[at] as number) ^ 0x10;
      items[k] = { ...(items[k] as RangeProofItem), proof: p };
    };
    flip(3, 210);
    flip(88, 600);
    assert.equal(verifyRangeBatch(items), false);
    assert.deepEqual(findInvalidRangeProofs(items), [3, 17, 88]);
  });

  it('all 19 test-file proofs verify; line 0 proof hash (§8.6)', () => {
    assert.equal(verifyRangeBatch(test19), true);
    const l0 = test19[0] as Line;
    const hashInput = new Uint8Array(8 + PROOF_SIZE);
    new DataView(hashInput.buffer).setBigUint64(0, BigInt(PROOF_SIZE), false);
    hashInput.set(l0.proof, 8);
    assert.equal(
      toHex(blake2b256(hashInput)),
      '82bc5727dec6f6f4eb91873b498e9c60bfb9381e16c27911e99c019be3e19a67',
    );
  });

  it('test-file proofs reproduced byte for byte (line 0 legacy, 1..18 current builder)', () => {
    test19.forEach((l, k) => {
      const blind = BLINDS[k] as Uint8Array;
      assert.deepEqual(commit(VALUE, blind), l.commit, `blind constant of line ${k}`);
      const proof = buildProof(builderFor(k), {
        value: VALUE,
        blind,
        commitment: l.commit,
        keyId: l.keyId,
        switchType: 1,
      });
      assert.equal(toHex(proof), toHex(l.proof), `line ${k}`);
    });
  });

  it('test-file proofs rewind to value, key id and switch type with their builder only', () => {
    test19.forEach((l, k) => {
      const r = rewindWithBuilder(builderFor(k), l.commit, l.proof);
      assert.ok(r !== null, `line ${k}`);
      assert.equal(r.value, VALUE);
      assert.equal(r.switchType, 1);
      // The legacy message drops the depth and Epic assumes 3; the key here is at depth 1.
      const expectedId = k === 0 ? Uint8Array.of(3, ...l.keyId.subarray(1)) : l.keyId;
      assert.deepEqual(r.keyId, expectedId);
      if (k === 0) assert.deepEqual(r.blind, BLINDS[0]);
      else assert.notDeepEqual(r.blind, BLINDS[k]);
      assert.equal(rewindWithBuilder(builderFor(k === 0 ? 1 : 0), l.commit, l.proof), null);
    });
  });

  it('floonet proofs do not rewind with the test keychain', () => {
    const b = ProofBuilder.fromMasterSecret(MASTER);
    const legacy = LegacyProofBuilder.fromMasterSecret(MASTER);
    for (const l of floonet.slice(0, 20)) {
      assert.equal(rewindWithBuilder(b, l.commit, l.proof), null);
      assert.equal(rewindWithBuilder(legacy, l.commit, l.proof), null);
    }
  });
});
