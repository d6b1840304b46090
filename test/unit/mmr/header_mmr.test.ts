// The header MMR: after the genesis header alone its root is the prev_root of block 1
// (consensus reference §15.1, §9.4).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { genesisHeader } from '../../../core/genesis.js';
import { hashWithIndex } from '../../../core/hash/ids.js';
import { headerLeafPos, headerMmrElement, pushHeader } from '../../../core/mmr/header_mmr.js';
import { MemBackend } from '../../../core/mmr/mem_backend.js';
import { Mmr } from '../../../core/mmr/mmr.js';

describe('header MMR', () => {
  const cases = [
    ['mainnet', '6f08ca2a6552b8f9649f0bf5fe07822a774745b0505508f50199735251e4e04f'],
    ['floonet', 'c70df801d81d9bef40fb10ceeeaab87a3f6473c7b041e81ab107bbc15c07eff0'],
  ] as const;

  for (const [chain, prevRoot] of cases) {
    it(`${chain}: root after the genesis header = prev_root of block 1`, () => {
      const params = CHAIN_PARAMS[chain];
      const mmr = new Mmr(new MemBackend({ prunable: false }));
      assert.equal(pushHeader(mmr, genesisHeader(chain), params), 1n);
      assert.equal(toHex(mmr.root()), prevRoot);
      // The leaf hashes the header's hash-mode bytes, not its hash.
      const element = headerMmrElement(genesisHeader(chain), params);
      assert.equal(element.length, 217);
      assert.equal(toHex(hashWithIndex(0n, element)), prevRoot);
    });
  }

  it('keeps the header hash as leaf data', () => {
    const mmr = new Mmr(new MemBackend({ prunable: false }));
    pushHeader(mmr, genesisHeader('mainnet'), CHAIN_PARAMS.mainnet);
    assert.equal(
      toHex(mmr.data(1n) as Uint8Array),
      '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851',
    );
  });

  it('header h sits at leaf position insertion_to_pmmr_index(h + 1)', () => {
    assert.deepEqual([0n, 1n, 2n, 3n, 4n, 5n].map(headerLeafPos), [1n, 2n, 4n, 5n, 8n, 9n]);
  });
});
