// The operator's view of a sync: the pace and time left from the heights the sync reports, a
// progress line at most every 5 s, and the pace the sync keeps from the config and bench switches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SYNC } from '../../../actors/peers/sync.js';
import { syncOptions } from '../../../actors/peers/sync_options.js';
import { PROGRESS_EVERY_MS, SyncProgress } from '../../../actors/peers/sync_progress.js';

const headerSync = (current: number, highest = 10_000) => ({
  status: 'header_sync' as const,
  currentHeight: BigInt(current),
  highestHeight: BigInt(highest),
});

describe('sync progress', () => {
  it('headers a second over the recent past, and the seconds left at that pace', () => {
    const p = new SyncProgress();
    assert.deepEqual(p.update(headerSync(0), 1_000), {
      status: 'header_sync',
      current_height: 0,
      highest_height: 10_000,
      per_s: 0,
      eta_s: null,
    });
    assert.equal(p.update(headerSync(512), 2_000), null, 'too soon for another line');
    assert.deepEqual(p.update(headerSync(2_048), 1_000 + PROGRESS_EVERY_MS), {
      status: 'header_sync',
      current_height: 2_048,
      highest_height: 10_000,
      per_s: 409.6,
      eta_s: 19,
    });
  });

  it('a new state starts its own pace; states without heights give no line', () => {
    const p = new SyncProgress();
    p.update(headerSync(0), 0);
    p.update(headerSync(5_000), 4_000);
    assert.equal(p.update({ status: 'no_sync' }, 20_000), null);
    const body = { status: 'body_sync' as const, currentHeight: 10n, highestHeight: 110n };
    assert.deepEqual(p.update(body, 21_000), {
      status: 'body_sync',
      current_height: 10,
      highest_height: 110,
      per_s: 0,
      eta_s: null,
    });
  });
});

describe('sync options', () => {
  const p2p = {
    seedingType: 'List' as const,
    preferred: [],
    minPreferredOutbound: 4,
    maxOutbound: 8,
  };

  it('waits for peer_min_preferred_outbound_count outbound peers, capped by what it may dial', () => {
    assert.deepEqual(syncOptions(p2p, {}), { ...DEFAULT_SYNC, minOutbound: 4 });
    assert.equal(syncOptions({ ...p2p, maxOutbound: 2 }, {}).minOutbound, 2);
  });

  it('a node that can dial nobody does not wait', () => {
    assert.equal(syncOptions({ ...p2p, seedingType: 'None' }, {}).minOutbound, 0);
    const preferred = [{ ip: '127.0.0.1', port: 1 }];
    assert.equal(syncOptions({ ...p2p, seedingType: 'None', preferred }, {}).minOutbound, 4);
  });

  it("the bench switches: Epic's pace and the body window", () => {
    const env = { MWNODE_SYNC_MODE: 'epic', MWNODE_SYNC_BODY_WINDOW: '1' };
    assert.deepEqual(syncOptions(p2p, env), {
      headerRequests: 1,
      askOnReply: false,
      bodyWindow: 1,
      minOutbound: 4,
    });
    for (const bad of ['0', '129', '2.5', 'x'])
      assert.equal(syncOptions(p2p, { MWNODE_SYNC_BODY_WINDOW: bad }).bodyWindow, 64);
  });
});
