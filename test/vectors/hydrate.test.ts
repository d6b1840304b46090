// Epic's compact blocks from the recorded usernet traffic hydrate into exactly the blocks Epic
// serves: 141 and 143 from their coinbase alone (no short ids), 144 with the transaction Epic
// relayed just before it (one short id), byte for byte against usernet_chain_blocks.jsonl.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../../core/bytes.js';
import { hydrate } from '../../core/chain/hydrate.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { decodeMessage } from '../../core/p2p/msg.js';
import type { MsgOf } from '../../core/p2p/types.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { SHARED_VECTORS } from '../support/paths.js';

const DIR = join(SHARED_VECTORS, 'p2p');
const USER = CHAIN_PARAMS.usernet;

interface Line {
  readonly name: string;
  readonly type: number;
  readonly hex: string;
}

const lines = (file: string) =>
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line & { height?: number });

/** The recorded messages named `name`, decoded (the 11-byte header skipped). */
function recorded<K extends 'CompactBlock' | 'Transaction'>(name: K): MsgOf<K>[] {
  return lines('usernet_sync_capture.jsonl')
    .filter((l) => l.name === name)
    .map(
      (l) =>
        decodeMessage(l.type, (fromHex(l.hex) as Uint8Array).subarray(11), 2, USER) as MsgOf<K>,
    );
}

const blockHex = new Map(
  lines('usernet_chain_blocks.jsonl').map((l) => [l.height, l.hex] as const),
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
