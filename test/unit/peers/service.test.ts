import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type PeerAddr, parseSocketAddr } from '../../../actors/peers/addr.js';
import { PeersService } from '../../../actors/peers/service.js';
import { PeerStore } from '../../../actors/peers/store.js';
import type { PeerRecord } from '../../../actors/peers/types.js';

const addr = (t: string): PeerAddr => parseSocketAddr(t) as PeerAddr;

const record = (a: string, over: Partial<PeerRecord> = {}): PeerRecord => ({
  addr: addr(a),
  capabilities: 31,
  userAgent: 'MW/Epic 4.0.0',
  flags: 0,
  lastBanned: 0,
  banReason: 0,
  lastConnected: 1_700_000_000,
  localTimestamp: 1_700_000_001,
  ...over,
});

function withDir(fn: (dir: string) => void): void {
  const dir = join(mkdtempSync(join(tmpdir(), 'mwnode-peers-')), 'chain_data');
  try {
    fn(dir);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}

function seed(dir: string, records: readonly PeerRecord[]): void {
  const store = new PeerStore(dir);
  for (const r of records) store.save(r);
  store.close();
}

test('the store lists records in key byte order and is private to the node', () => {
  withDir((dir) => {
    seed(dir, [record('9.9.9.9:3414'), record('10.0.0.1:3414'), record('127.0.0.1:23414')]);
    const peers = new PeersService(dir);
    assert.deepEqual(
      peers.all().map((p) => p.addr.ip),
      ['10.0.0.1', '127.0.0.1', '9.9.9.9'],
    );
    peers.close();
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });
});

test('get finds a non-loopback peer by IP whatever the port; a loopback one needs its port', () => {
  withDir((dir) => {
    seed(dir, [record('1.2.3.4:3414'), record('127.0.0.1:23414')]);
    const peers = new PeersService(dir);
    assert.deepEqual(peers.get(addr('1.2.3.4:9999')), { ok: record('1.2.3.4:3414') });
    assert.deepEqual(peers.get(addr('127.0.0.1:23414')), { ok: record('127.0.0.1:23414') });
    assert.deepEqual(peers.get(addr('127.0.0.1:3414')), {
      error: 'Store(NotFoundErr("Peer at address: 127.0.0.1:3414"))',
    });
    assert.deepEqual(peers.get(addr('[2001:db8::1]:3414')), {
      error: 'Store(NotFoundErr("Peer at address: [2001:db8::1]:3414"))',
    });
    peers.close();
  });
});

test("ban: Epic's semantics (stored, then PeerNotFound since nothing is connected); unban", () => {
  withDir((dir) => {
    seed(dir, [record('1.2.3.4:3414', { lastConnected: 5 })]);
    let now = 1_800_000_000;
    const peers = new PeersService(dir, () => now);
    assert.deepEqual(peers.ban(addr('5.6.7.8:3414'), 5), {
      error: 'Store(NotFoundErr("Peer at address: 5.6.7.8:3414"))',
    });
    assert.deepEqual(peers.ban(addr('1.2.3.4:1'), 0), { error: 'InvalidBanReason' });
    assert.deepEqual(peers.unban(addr('1.2.3.4:3414')), { error: 'PeerNotBanned' });
    assert.deepEqual(peers.ban(addr('1.2.3.4:1'), 5), { error: 'PeerNotFound' });
    const banned = record('1.2.3.4:3414', {
      lastConnected: 5,
      flags: 1,
      banReason: 5,
      lastBanned: 1_800_000_000,
    });
    assert.deepEqual(peers.all(), [banned]);
    peers.close();

    // The ban survives a restart; unban keeps the reason and the ban time.
    now += 60;
    const again = new PeersService(dir, () => now);
    assert.deepEqual(again.all(), [banned]);
    assert.deepEqual(again.unban(addr('1.2.3.4:3414')), { ok: null });
    assert.deepEqual(again.all(), [{ ...banned, flags: 0 }]);
    assert.deepEqual(again.unban(addr('1.2.3.4:3414')), { error: 'PeerNotBanned' });
    assert.deepEqual(again.unban(addr('4.4.4.4:3414')), {
      error: 'Store(NotFoundErr("Peer at address: 4.4.4.4:3414"))',
    });
    again.close();
  });
});

test('ban of a connected peer: the disconnect hook runs with the reason and the answer is Ok', () => {
  withDir((dir) => {
    seed(dir, [record('1.2.3.4:3414')]);
    const peers = new PeersService(dir, () => 1_800_000_000);
    const calls: string[] = [];
    const hook = (a: PeerAddr, reason: number) => {
      calls.push(`${a.ip}:${a.port} ${reason}`);
      return true;
    };
    assert.deepEqual(peers.ban(addr('1.2.3.4:3414'), 5, hook), { ok: null });
    assert.deepEqual(peers.ban(addr('9.9.9.9:3414'), 5, hook), {
      error: 'Store(NotFoundErr("Peer at address: 9.9.9.9:3414"))',
    });
    assert.deepEqual(calls, ['1.2.3.4:3414 5']);
    assert.equal(peers.all()[0]?.flags, 1);
    peers.close();
  });
});

test('the store finds by state and capabilities, counts and deletes', () => {
  withDir((dir) => {
    const store = new PeerStore(dir);
    store.save(record('1.1.1.1:3414', { capabilities: 0x1f }));
    store.save(record('2.2.2.2:3414', { capabilities: 0x0f }));
    store.save(record('3.3.3.3:3414', { capabilities: 0x3f, flags: 2 }));
    store.save(record('4.4.4.4:3414', { capabilities: 0x3f }));
    const ips = (rs: PeerRecord[]) => rs.map((r) => r.addr.ip).sort();
    assert.deepEqual(ips(store.find(0, 0x1f, 10)), ['1.1.1.1', '4.4.4.4']);
    assert.deepEqual(ips(store.find(0, 0, 10)), ['1.1.1.1', '2.2.2.2', '4.4.4.4']);
    assert.deepEqual(ips(store.find(2, 0x20, 10)), ['3.3.3.3']);
    assert.equal(store.find(0, 0, 2).length, 2);
    assert.equal(store.count(), 4);
    store.delete(addr('2.2.2.2:1'));
    assert.equal(store.count(), 3);
    assert.equal(store.get(addr('2.2.2.2:3414')), null);
    store.close();
  });
});
