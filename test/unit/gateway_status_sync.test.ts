// get_status / /v1/status with a sync state: Epic's `sync_status` strings, `sync_info` right
// after it only in header and body sync (omitted otherwise), heights as plain numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from '../../core/json/stringify.js';
import { statusView } from '../../gateway/views.js';
import { headInfo } from '../support/gateway.js';

const view = (sync: Parameters<typeof statusView>[0]['sync']) =>
  statusView({ head: headInfo(7n), userAgent: 'MW/mwnode t', connections: 2, sync });

describe('status with a sync state', () => {
  it('header_sync and body_sync carry sync_info right after sync_status', () => {
    const v = view({ status: 'header_sync', currentHeight: 120n, highestHeight: 2950n }) as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(v).slice(4, 6), ['sync_status', 'sync_info']);
    assert.equal(
      stringifyJson({ s: v.sync_status ?? null, i: (v.sync_info ?? null) as never }),
      '{"s":"header_sync","i":{"current_height":120,"highest_height":2950}}',
    );
    const b = view({ status: 'body_sync', currentHeight: 5n, highestHeight: 9n }) as Record<
      string,
      unknown
    >;
    assert.equal(stringifyJson(b.sync_info as never), '{"current_height":5,"highest_height":9}');
  });

  it('no_sync and awaiting_peers omit sync_info', () => {
    for (const status of ['no_sync', 'awaiting_peers'] as const) {
      const v = view({ status }) as Record<string, unknown>;
      assert.equal(v.sync_status, status);
      assert.equal('sync_info' in v, false);
    }
  });
});
