// Genesis proofs (reference §10.6). Epic's mainnet and floonet genesis headers carry Grin's
// genesis proofs (same nonces; Grin's nonces 41 and 23 too), which were found for Grin's own
// pre-pows: under Epic's pre-pow they are no cycle at all, as Cuckatoo29 or Cuckaroo29. Epic
// never verifies them — the genesis block is stored directly (`chain/src/chain.rs` setup_head)
// — so neither do we. These tests pin down what verification would say, and why.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { verifyCuckaroo } from '../../core/pow/cuckaroo.js';
import { sipKeysFromPrePow } from '../../core/pow/keys.js';
import { sipKeyWords } from '../../core/pow/siphash.js';
import { proofHash } from '../../core/pow/target.js';
import { verifyPow } from '../../core/pow/verify.js';
import { prePow } from '../../core/ser/header.js';
import type { Proof } from '../../core/types/pow.js';
import { failure } from '../support/pow.js';

const PROOF_HASHES = {
  mainnet: '9759b851c0c31c9d081598927da17bdbc4c6bcef836bae73de0c776caef35065',
  floonet: 'dcef51a9be0901e6362cf30413e5d27c55c20f52c67a734c1e7813e6c51fc6b9',
} as const;

describe('genesis proofs of work', () => {
  it("mainnet pre-pow and siphash keys (Epic's pre-pow rule)", () => {
    const pre = prePow(genesisHeader('mainnet'), CHAIN_PARAMS.mainnet);
    const roots =
      'b10fe806a4373d9b8d8edde98a4ec39d726b542036971c2f14c0738b0605c9cd' +
      'e05333e51d9294f08cd6d2d7cea19de2843f92c285a61fd5d61d771c3ac74222' +
      '4d9ddf437dfbb86f8563ac4e96a0d86842eda609a5125244f43261d4188292e4';
    assert.equal(
      toHex(pre),
      `0006${'00'.repeat(8)}000000005d4da7a6${'00'.repeat(32)}` +
        `00000000000000000004de683e7aa4d35c51f46ec76c6852b0f3161bd1e2e00e${roots}` +
        `${'00'.repeat(32)}${'00'.repeat(16)}` +
        '0000000000000004000000000000000004010000000000004000020000000000400000030000000040000000' +
        '000007400000000000000029',
    );
    assert.deepEqual(
      sipKeyWords(sipKeysFromPrePow(pre)).map((k) => k.toString(16).padStart(16, '0')),
      ['28cf950bdd86d6cc', '38b269bad5594170', '032bc281e82544b1', 'e54a71f2a5781d28'],
    );
  });

  for (const chain of ['mainnet', 'floonet'] as const) {
    it(`${chain}: the Cuckatoo29 proof does not verify, as Cuckatoo or Cuckaroo`, () => {
      const params = CHAIN_PARAMS[chain];
      const header = genesisHeader(chain);
      const pre = prePow(header, params);
      assert.equal(pre.length, 282);
      assert.equal(header.pow.proof.kind, 'Cuckoo');
      assert.equal(toHex(proofHash(header.pow.proof, params)), PROOF_HASHES[chain]);
      // The proof is well formed (42 ascending nonces below 2^29); it fails on the graph.
      assert.equal(
        failure(() => verifyPow(pre, header.pow, 'cuckatoo', params), 'the genesis proof'),
        'EndpointsDontMatch',
      );
      assert.equal(
        failure(() => verifyPow(pre, header.pow, 'cuckaroo', params), 'the genesis proof'),
        'EndpointsDontMatch',
      );
    });
  }

  it("why: the mainnet nonces are Grin's genesis cycle, a Cuckaroo29 cycle of Grin's pre-pow", () => {
    const proof = genesisHeader('mainnet').pow.proof as Extract<Proof, { kind: 'Cuckoo' }>;
    // Grin: u16 version 1, height 0, 2019-01-15T16:01:26Z, zero prev_hash, its four roots, zero
    // offset, MMR sizes 1/1, total difficulty 2^34 as one u64, scaling 1856, nonce 41.
    const grin = fromHex(
      `0001${'00'.repeat(8)}000000005c3e03d6${'00'.repeat(32)}` +
        '0000000000000000002a8bc32f43277fe9c063b9c99ea252b483941dcd06e217' +
        'fa7566d275006c6c467876758f2bc87e4cebd2020ae9cf9f294c6217828d6872' +
        '1b7fff259aee3edfb5867c4775e4e1717826b843cda6685e5140442ece7bfc2e' +
        'e8bb096a73cbe6e099968965f5342fc1702ee2802802902286dcf0f279e326bf' +
        `${'00'.repeat(32)}${'0000000000000001'.repeat(2)}` +
        '0000000400000000000007400000000000000029',
    );
    assert.ok(grin !== null);
    verifyCuckaroo(sipKeysFromPrePow(grin), 29, proof.nonces, 42);
  });

  it('usernet and automated dev genesis carry an all-zero proof (to be mined, never verified)', () => {
    for (const chain of ['usernet', 'automated'] as const) {
      const params = CHAIN_PARAMS[chain];
      const header = genesisHeader(chain);
      const pre = prePow(header, params);
      assert.equal(
        failure(() => verifyPow(pre, header.pow, 'cuckatoo', params), 'the genesis proof'),
        'DuplicateEdge',
      );
    }
  });
});
