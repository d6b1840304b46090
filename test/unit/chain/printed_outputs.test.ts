// A wallet's get_outputs printed by the chain (queries.ts `printedOutputs`): lent through the
// ring shared with the gateway when there is room, in the reply when not, the same bytes either
// way and the same as a reader without a ring prints.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PrintedOutputs, PrintedOutputsQuery } from '../../../actors/chain/messages.js';
import { ChainQueries } from '../../../actors/chain/queries.js';
import { ChainSnapshot } from '../../../actors/chain/snapshot.js';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { SharedRing } from '../../../runtime/shared_ring.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';

const HEIGHT = 5;

describe('printed get_outputs through the reply ring', { timeout: 60_000 }, () => {
  const ring = new SharedRing(SharedRing.allocate(1024));
  let chain: LocalChain;
  let query: PrintedOutputsQuery;
  let snapshot: ChainSnapshot;

  before(async () => {
    chain = localChain({ replyRing: ring });
    const commits: Uint8Array[] = [];
    for (let h = 1; h <= HEIGHT; h++) {
      const block = await chain.mineBlock([]);
      await chain.submit(block);
      commits.push(block.body.outputs[0]?.commit as Uint8Array);
    }
    // Two found, one unknown between them.
    const unknown = new Uint8Array(33).fill(8);
    query = {
      commits: Buffer.concat([commits[1] as Uint8Array, unknown, commits[3] as Uint8Array]),
      indent: '    ',
      before: '{"result": [\n    ',
      after: '\n]}',
    };
    snapshot = new ChainSnapshot(join(chain.dbRoot, 'chain_data'), CHAIN_PARAMS.automated);
  });
  after(async () => {
    snapshot?.close();
    await chain?.close();
  });

  const printed = (p: PrintedOutputs): string => {
    if (p.lent === null) return Buffer.from(p.text).toString('latin1');
    const bytes = ring.borrow(p.lent);
    assert.ok(bytes, 'the lent slice is readable');
    return Buffer.from(bytes).toString('latin1');
  };

  it('lends the body in the ring, byte for byte what a reader without one prints', async () => {
    const head = chain.service.getTip().lastBlockPushed;
    const plain = snapshot.at(head, () => new ChainQueries(snapshot).printedOutputs(query));
    assert.ok(plain !== undefined && typeof plain === 'object' && 'count' in plain);
    assert.equal(plain.count, 2);
    assert.equal(plain.lent, null);
    const text = printed(plain);
    const second = toHex(query.commits.subarray(0, 33));
    const head2 = `{"result": [\n    {\n      "block_height": 2,\n      "commit": "${second}",`;
    assert.equal(text.slice(0, head2.length), head2);
    assert.equal(text.split('"block_height"').length, 3);
    assert.ok(text.includes('\n    },\n    {\n      "block_height": 4,\n'));
    assert.equal(text.slice(-9), '\n    }\n]}');

    const lent = await chain.service.printedOutputs(query);
    assert.equal(lent.count, 2);
    assert.ok(lent.lent !== null, 'lent through the ring');
    assert.equal(lent.text.length, 0);
    assert.equal(lent.lent.length, text.length);
    assert.equal(printed(lent), text);

    // The ring (1 KB) is now too full for another body: it comes in the reply instead.
    const used = ring.used;
    const again = await chain.service.printedOutputs(query);
    assert.ok(used + text.length > 1024, `${used} + ${text.length}`);
    assert.equal(again.lent, null);
    assert.equal(printed(again), text);
    ring.giveBack(lent.lent);
    const third = await chain.service.printedOutputs(query);
    assert.ok(third.lent !== null, 'room again once given back');
    assert.equal(printed(third), text);
    ring.giveBack(third.lent);
  });

  it('prints nothing for nothing found', async () => {
    const none = await chain.service.printedOutputs({ ...query, commits: new Uint8Array(33) });
    assert.deepEqual(none, { count: 0, text: new Uint8Array(0), lent: null });
  });
});
