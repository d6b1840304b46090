// A node joining a network late catches up: A mines a chain alone, then B starts seeded with
// A, header-syncs (GetHeadersFastSync → FastHeaders, validated on their own), body-syncs (a
// window of GetBlock), and reaches A's tip with the same hash; its log shows the states Epic's
// sync_status names, in order, ending in no_sync, and validate_chain passes on B.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { apiTip, mineBlock, ownerText, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { syncedStates } from '../support/sync_states.js';

const HEIGHT = 40;

describe('a late node catches up', () => {
  let a: NodeProcess;
  let b: NodeProcess | undefined;
  before(async () => {
    a = await startNodeProcess({ serverLines: [CUCKATOO_ONLY, 'archive_mode = true'] });
    for (let h = 1; h <= HEIGHT; h++) {
      const block = await mineBlock(a.url);
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null }, `block ${h}`);
    }
  });
  after(async () => {
    for (const n of [b, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
  });

  it(`B header-syncs and body-syncs to A's tip at ${HEIGHT}`, async () => {
    b = await startNodeProcess({
      serverLines: [CUCKATOO_ONLY, 'archive_mode = true'],
      p2pLines: [
        'seeding_type = "List"',
        'peer_min_preferred_outbound_count = 1',
        `seeds = ["127.0.0.1:${p2pPortOf(a)}"]`,
      ],
    });
    const want = await apiTip(a.url);
    const node = b;
    let tip = await apiTip(node.url);
    for (const end = Date.now() + 60_000; tip.last_block_pushed !== want.last_block_pushed; ) {
      assert.ok(Date.now() < end, `B at ${tip.height} after 60 s`);
      await new Promise((r) => setTimeout(r, 100));
      tip = await apiTip(node.url);
    }
    assert.equal(tip.height, HEIGHT);
    // Once level with its peer, B is not syncing any more; its log went through Epic's states.
    assert.deepEqual(await syncedStates(node), ['header_sync', 'body_sync', 'no_sync']);
    const valid = await ownerText(node.url, basic(ownerSecret(node.home)), 'validate_chain', []);
    assert.match(valid, /"Ok": null/);
  });
});
