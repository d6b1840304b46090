// Epic's compact blocks from the recorded usernet traffic hydrate into exactly the blocks Epic
// serves: 141 and 143 from their coinbase alone (no short ids), 144 with the transaction Epic
// relayed just before it (one short id), byte for byte against usernet_chain_blocks.jsonl.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { hydrate } from '../../core/chain/hydrate.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { recordedLines, recordedMessages, USERNET } from '../support/p2p_vectors.js';

const USER = USERNET;
const recorded = <K extends 'CompactBlock' | 'Transaction'>(name: K) =>
  recordedMessages('usernet_sync_capture.jsonl', name);

const blockHex = new Map(
  recordedLines('usernet_chain_blocks.jsonl').map((l) => [l.height, l.hex] as const),
);

describe("hydrating Epic's compact blocks", () => {
  const compacts = recorded('CompactBlock');
  const byHeight = (h: bigint) => {
    const cb = compacts.find((m) => m.block.header.height === h);
    assert.ok(cb !== undefined, `no CompactBlock at ${h}`);
    return cb.block;
  };

  it('blocks without short ids: the coinbase alone', () => {
    for (const h of [141n, 142n, 143n, 145n]) {
      const block = hydrate(byHeight(h), []);
      assert.equal(
        toHex(encode(writeBlock, block, 2, USER)),
        blockHex.get(Number(h)),
        `block ${h}`,
      );
    }
  });

  it('block 144 with the relayed transaction its short id names', () => {
    const cb = byHeight(144n);
    assert.equal(cb.body.kernIds.length, 1);
    const [tx] = recorded('Transaction');
    assert.ok(tx !== undefined);
    const block = hydrate(cb, [tx.tx]);
    assert.equal(toHex(encode(writeBlock, block, 2, USER)), blockHex.get(144));
    // Without the transaction the block is not the one the header commits to.
    assert.notEqual(toHex(encode(writeBlock, hydrate(cb, []), 2, USER)), blockHex.get(144));
  });
});
