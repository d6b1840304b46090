// `mwnode client status --watch` on a fake node whose sync moves on each poll: the exact lines
// (plain off a terminal, a bar redrawn in place on one), the pace and time left, and the end at
// no_sync.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { duration, statusOf, watchSync } from '../../cli/sync_watch.js';
import type { JsonObject } from '../../core/json/value.js';

const syncing = (status: string, current: number, highest: number): JsonObject => ({
  sync_status: status,
  sync_info: { current_height: current, highest_height: highest },
});

function node(bodies: JsonObject[], tty: boolean) {
  let t = 0;
  let i = 0;
  const out: string[] = [];
  const io = {
    status: async () => bodies[Math.min(i++, bodies.length - 1)] as JsonObject,
    write: (s: string) => out.push(s),
    tty,
    sleep: async (ms: number) => {
      t += ms;
    },
    now: () => t,
  };
  return { io, out };
}

const SEQUENCE = [
  { sync_status: 'awaiting_peers' },
  syncing('header_sync', 0, 4000),
  syncing('header_sync', 1024, 4000),
  syncing('header_sync', 2048, 4000),
  syncing('body_sync', 10, 110),
  syncing('body_sync', 60, 110),
  { sync_status: 'no_sync' },
];

describe('client status --watch', () => {
  it('off a terminal: one line a second with pace and time left, then no_sync', async () => {
    const { io, out } = node(SEQUENCE, false);
    assert.equal(await watchSync(io), 0);
    assert.deepEqual(out, [
      'awaiting_peers\n',
      'header_sync 0/4000 headers, 0/s\n',
      'header_sync 1024/4000 headers, 1024/s, 3 s left\n',
      'header_sync 2048/4000 headers, 1024/s, 2 s left\n',
      'body_sync 10/110 blocks, 0/s\n',
      'body_sync 60/110 blocks, 50/s, 1 s left\n',
      'Sync status: no_sync\n',
    ]);
  });

  it('on a terminal: a bar redrawn in place, erased at the end', async () => {
    const { io, out } = node(SEQUENCE.slice(2, 4).concat([{ sync_status: 'no_sync' }]), true);
    await watchSync(io);
    assert.deepEqual(out, [
      `\r[=======                       ] header_sync 1024/4000 headers, 0/s\x1b[K`,
      `\r[===============               ] header_sync 2048/4000 headers, 1024/s, 2 s left\x1b[K`,
      '\r\x1b[KSync status: no_sync\n',
    ]);
  });

  it('reads the states as the node names them; durations read as a person would', () => {
    assert.deepEqual(statusOf({ sync_status: 'txhashset_download' }), {
      status: 'txhashset_download',
    });
    assert.deepEqual(
      [duration(42), duration(185), duration(7_620)],
      ['42 s', '3 min 5 s', '2 h 7 min'],
    );
  });
});
