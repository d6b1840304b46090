// Genesis blocks against the hashes Epic's own tests assert (consensus reference §15.1).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainType } from '../../core/chain_type.js';
import { genesisBlock } from '../../core/genesis.js';
import { blake2b256 } from '../../core/hash/blake2b.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { headerHash, prePow, writeHeader } from '../../core/ser/header.js';

const EXPECTED: Record<ChainType, { header: string; block: string; headerBytes: number }> = {
  mainnet: {
    header: '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851',
    block: '509c7dad7096678942abf510f9c07aecb457041450ff418b531ea4a0f1d67ef4',
    headerBytes: 498,
  },
  floonet: {
    header: '95d457c669f65ee27b0c90b6b11c53d9b51eb0610b6ea8d5c2a45f96d8200c67',
    block: 'daab5e09cbcc90a26d60d718afee61a721fe24cbdabf3bfae591f861437b8218',
    headerBytes: 498,
  },
  usernet: {
    header: '2eb72db9505c31aac4d344c7ce4cad426e060f4f4034954187b5f77e8e4fa156',
    block: '3fcaef46d6cc3ae320920be8965f7a7dd39d423d9ef6d1b955fe5399efe6476c',
    headerBytes: 424,
  },
  automated: {
    header: '543fea406b43ca37b73959a612da52ae5f00bbc42f7f7710fc365d292aaa81ec',
    block: '78cf0b89202cf8a50c7930127230a62e347244cc07415ed58980d599a9cdcb40',
    headerBytes: 350,
  },
};

describe('genesis', () => {
  for (const [type, want] of Object.entries(EXPECTED) as [
    ChainType,
    (typeof EXPECTED)[ChainType],
  ][]) {
    it(`${type}: header hash, full-block hash (protocol v1) and size`, () => {
      const params = CHAIN_PARAMS[type];
      const block = genesisBlock(type);
      assert.equal(toHex(headerHash(block.header, params)), want.header);
      const bytes = encode(writeBlock, block, 1, params);
      assert.equal(bytes.length, want.headerBytes + 24);
      assert.equal(toHex(blake2b256(bytes)), want.block);
    });
  }

  it('pre-pow: the first 282 header bytes, ending with the nonce; the header hash skips them', () => {
    const params = CHAIN_PARAMS.mainnet;
    const header = genesisBlock('mainnet').header;
    const pre = prePow(header, params);
    const full = encode(writeHeader, header, 1, params);
    assert.equal(pre.length, 282);
    assert.deepEqual(pre, full.slice(0, 282));
    assert.equal(toHex(pre.slice(274)), '0000000000000029'); // nonce 41
    // Changing a pre-pow field (timestamp) leaves the block id unchanged: only the proof,
    // seed, policy and bottles are hashed with the version.
    const moved = { ...header, timestamp: header.timestamp + 1 };
    assert.equal(toHex(headerHash(moved, params)), EXPECTED.mainnet.header);
    assert.notDeepEqual(prePow(moved, params), pre);
  });
});
