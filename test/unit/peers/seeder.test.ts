// Epic's seed and monitor loop over a real store with a fake clock and a fake connected set:
// what start does to the records, when bans expire, when Defunct addresses are tried again,
// when stale ones are deleted, and when seeds are queued.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type PeerAddr, parseSocketAddr } from '../../../actors/peers/addr.js';
import { Seeder, type SeedNet } from '../../../actors/peers/seeder.js';
import { PeerStore } from '../../../actors/peers/store.js';
import { BANNED, DEFUNCT, HEALTHY, type PeerRecord, UNKNOWN } from '../../../actors/peers/types.js';

const addr = (t: string): PeerAddr => parseSocketAddr(t) as PeerAddr;
const T = 1_800_000_000;
const BAN_WINDOW = 10_800;

const record = (a: string, over: Partial<PeerRecord>): PeerRecord => ({
  addr: addr(a),
  capabilities: 31,
  userAgent: 'MW/Epic 4.0.0',
  flags: HEALTHY,
  lastBanned: 0,
  banReason: 0,
  lastConnected: T - 100,
  localTimestamp: T - 100,
  ...over,
});

/** A connected set with nobody connected that records what the loop dials. */
function fakeNet(outbound = 0): SeedNet & { dialed: string[] } {
  const dialed: string[] = [];
  return {
    dialed,
    peers: () => [],
    count: (direction) => (direction === 'Outbound' ? outbound : 0),
    isConnected: () => false,
    connect: async (a: PeerAddr) => {
      dialed.push(`${a.ip}:${a.port}`);
    },
    clean: () => {},
    disconnect: () => {},
  };
}

function setup(
  records: PeerRecord[],
  seeds: PeerAddr[] = [],
  more: { preferred?: PeerAddr[]; outbound?: number } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-seeder-'));
  const store = new PeerStore(dir);
  for (const r of records) store.save(r);
  const clock = { now: T };
  const net = fakeNet(more.outbound ?? 0);
  const seeder = new Seeder(
    net,
    store,
    {
      seeds: async () => seeds,
      preferred: more.preferred ?? [],
      banWindow: BAN_WINDOW,
      maxInbound: 128,
      maxOutbound: 128,
      capabilities: 0x1f,
      log: () => {},
    },
    () => clock.now,
  );
  const flags = (a: string) => store.get(addr(a))?.flags;
  const done = () => {
    seeder.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { store, clock, net, seeder, flags, done };
}

describe('the seed and monitor loop', () => {
  it('start: reasonless bans lifted, connect times reset, Healthy peers dialed', async () => {
    const s = setup([
      record('198.18.0.1:3414', {}),
      record('198.18.0.2:3414', { flags: BANNED, lastBanned: T - 5 }),
      record('198.18.0.3:3414', { flags: BANNED, banReason: 5, lastBanned: T - 5 }),
      record('198.18.0.4:3414', { flags: UNKNOWN }),
    ]);
    try {
      await s.seeder.start();
      assert.deepEqual(
        s.store.all().map((p) => [p.addr.ip, p.flags, p.lastConnected]),
        [
          ['198.18.0.1', HEALTHY, 0],
          ['198.18.0.2', HEALTHY, 0],
          ['198.18.0.3', BANNED, 0],
          ['198.18.0.4', UNKNOWN, 0],
        ],
      );
      // The Unknown record is queued by the monitor of the first round, dialed in the next.
      assert.deepEqual(s.net.dialed.sort(), ['198.18.0.1:3414', '198.18.0.2:3414']);
      assert.deepEqual(
        s.seeder.queued().map((a) => a.ip),
        ['198.18.0.4'],
      );
    } finally {
      s.done();
    }
  });

  it('a ban expires in the first round at least ban_window after it began, not before', async () => {
    const s = setup([
      record('198.18.0.1:3414', { flags: BANNED, banReason: 5, lastBanned: T - BAN_WINDOW }),
      record('198.18.0.2:3414', { flags: BANNED, banReason: 5, lastBanned: T - BAN_WINDOW + 1 }),
    ]);
    try {
      await s.seeder.tick();
      assert.equal(s.flags('198.18.0.1:3414'), HEALTHY);
      assert.equal(s.flags('198.18.0.2:3414'), BANNED);
    } finally {
      s.done();
    }
  });

  it('a Defunct address is promoted to Unknown a minute after its last attempt', async () => {
    const s = setup([
      record('198.18.0.1:3414', { flags: DEFUNCT, lastConnected: T - 59 }),
      record('198.18.0.2:3414', { flags: DEFUNCT, lastConnected: T - 60 }),
    ]);
    try {
      // No expiry check in this test: it would delete both (see the next test).
      s.clock.now = T;
      (s.seeder as unknown as { prevExpireCheck: number }).prevExpireCheck = T;
      await s.seeder.tick();
      assert.equal(s.flags('198.18.0.1:3414'), DEFUNCT);
      assert.equal(s.flags('198.18.0.2:3414'), UNKNOWN);
    } finally {
      s.done();
    }
  });

  it('Defunct records last tried over 14 days ago are deleted at the hourly check', async () => {
    const old = T - 14 * 24 * 3600 - 1;
    const s = setup([
      record('198.18.0.1:3414', { flags: DEFUNCT, lastConnected: old }),
      record('198.18.0.2:3414', { flags: DEFUNCT, lastConnected: T - 10 }),
      record('198.18.0.3:3414', { flags: HEALTHY, lastConnected: old }),
    ]);
    try {
      await s.seeder.tick();
      assert.deepEqual(
        s.store.all().map((p) => p.addr.ip),
        ['198.18.0.2', '198.18.0.3'],
      );
    } finally {
      s.done();
    }
  });

  it('with no peer connected the seeds are dialed, again only 30 s later', async () => {
    const seed = addr('198.18.0.9:3414');
    const s = setup([], [seed]);
    try {
      await s.seeder.tick();
      assert.deepEqual(s.net.dialed, ['198.18.0.9:3414']);
      // Queued again every 10 s, but an address tried in the last 30 s is skipped.
      for (const dt of [9, 10, 20, 29]) {
        s.clock.now = T + dt;
        await s.seeder.tick();
      }
      assert.deepEqual(s.net.dialed, ['198.18.0.9:3414']);
      s.clock.now = T + 30;
      await s.seeder.tick();
      assert.deepEqual(s.net.dialed, ['198.18.0.9:3414', '198.18.0.9:3414']);
    } finally {
      s.done();
    }
  });

  it('preferred peers are dialed first, then stored Healthy peers, then seeds', async () => {
    const s = setup([record('198.18.0.1:3414', {})], [addr('198.18.0.3:3414')], {
      preferred: [addr('198.18.0.2:3414')],
    });
    try {
      await s.seeder.start();
      assert.deepEqual(s.net.dialed, ['198.18.0.2:3414', '198.18.0.1:3414', '198.18.0.3:3414']);
    } finally {
      s.done();
    }
  });

  it('nothing is dialed while the outbound peers are at peer_max_outbound_count', async () => {
    const s = setup([record('198.18.0.1:3414', {})], [addr('198.18.0.3:3414')], { outbound: 128 });
    try {
      await s.seeder.start();
      assert.deepEqual(s.net.dialed, []);
    } finally {
      s.done();
    }
  });
});
