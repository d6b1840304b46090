// The owner peer methods and /v1/peers routes through the real node process, over a peer store
// seeded before the node starts; a ban survives a restart in the same home. The node runs with
// `peers_allow = []`, so its seed loop dials none of the stored addresses (203.0.113.7 is a
// documentation address outside the test's hosts) and the records change only as Epic's start
// changes them: `last_connected` is reset to 0.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type PeerAddr, parseSocketAddr } from '../../actors/peers/addr.js';
import { PEERS_DB_FILE, PeerStore } from '../../actors/peers/store.js';
import type { PeerRecord } from '../../actors/peers/types.js';
import { ownerText } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { sortedKeys } from '../support/sorted.js';

const FULL = 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC';

const record = (addr: string, over: Partial<PeerRecord>): PeerRecord => ({
  addr: parseSocketAddr(addr) as PeerAddr,
  capabilities: 0,
  userAgent: '',
  flags: 3,
  lastBanned: 0,
  banReason: 0,
  lastConnected: 0,
  localTimestamp: 0,
  ...over,
});

const SEEDS = [
  record('203.0.113.7:3414', {
    capabilities: 31,
    userAgent: 'MW/Epic 4.0.0',
    flags: 0,
    lastConnected: 1_726_560_000,
    localTimestamp: 1_726_560_001,
  }),
  record('127.0.0.1:23414', {}),
];

/** PeerData as Epic declares it (the /v1 key order). */
const PEER = {
  addr: '203.0.113.7:3414',
  capabilities: FULL,
  user_agent: 'MW/Epic 4.0.0',
  flags: 'Healthy',
  last_banned: 0,
  ban_reason: 'None',
  // Stored as 1_726_560_000; the seed loop's start resets it, as Epic's does.
  last_connected: 0,
  local_timestamp: 1_726_560_001,
};
const LOOPBACK = {
  addr: '127.0.0.1:23414',
  capabilities: '',
  user_agent: '',
  flags: 'Unknown',
  last_banned: 0,
  ban_reason: 'None',
  last_connected: 0,
  local_timestamp: 0,
};

/** No address may be dialed or accepted: the store is read, never exercised. */
const NODE = (home: string) => ({ home, p2pLines: ['peers_allow = []'] });

const rpcBody = (result: unknown) =>
  JSON.stringify(sortedKeys({ id: 1, jsonrpc: '2.0', result }), null, 2);

let home: string;
let node: NodeProcess;
let auth: string;

const owner = (method: string, params: unknown): Promise<string> =>
  ownerText(node.url, auth, method, params);

async function v1(method: 'GET' | 'POST', path: string): Promise<{ status: number; body: string }> {
  const r = await fetch(node.url + path, { method, headers: { authorization: auth } });
  return { status: r.status, body: await r.text() };
}

describe('peers through the node process', () => {
  before(async () => {
    home = tempHome();
    const store = new PeerStore(join(home, 'chain_data'));
    for (const s of SEEDS) store.save(s);
    store.close();
    node = await startNodeProcess(NODE(home));
    auth = basic(ownerSecret(home));
  });
  after(async () => {
    await node?.stop();
    removeHome(home);
  });

  it('lists the stored peers on /v2 and /v1', async () => {
    assert.ok(existsSync(join(home, 'chain_data', PEERS_DB_FILE)));
    assert.equal(await owner('get_peers', [null]), rpcBody({ Ok: [LOOPBACK, PEER] }));
    assert.equal(await owner('get_peers', ['203.0.113.7:1']), rpcBody({ Ok: [PEER] }));
    assert.deepEqual(await v1('GET', '/v1/peers/all'), {
      status: 200,
      body: JSON.stringify([LOOPBACK, PEER], null, 2),
    });
    assert.deepEqual(await v1('GET', '/v1/peers/203.0.113.7'), {
      status: 200,
      body: JSON.stringify([PEER]),
    });
    assert.deepEqual(await v1('GET', '/v1/peers/198.51.100.1'), {
      status: 404,
      body: 'peer not found',
    });
    assert.equal(
      await owner('get_peers', ['198.51.100.1:3414']),
      rpcBody({
        Err: {
          Internal: 'get peer error: Store(NotFoundErr("Peer at address: 198.51.100.1:3414"))',
        },
      }),
    );
  });

  it('connected peers and onion addresses are empty (no peer has connected)', async () => {
    assert.equal(await owner('get_connected_peers', []), rpcBody({ Ok: [] }));
    assert.equal(await owner('get_onion_addresses', null), rpcBody({ Ok: [] }));
    assert.deepEqual(await v1('GET', '/v1/peers/connected'), { status: 200, body: '[]' });
    assert.deepEqual(await v1('GET', '/v1/peers/onion_addresses'), {
      status: 200,
      body: '{"onion_addresses":[]}',
    });
  });

  it('the routes and methods need the owner credential', async () => {
    const r = await fetch(`${node.url}/v1/peers/all`);
    assert.equal(r.status, 401);
    const o = await fetch(`${node.url}/v2/owner`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'get_peers', params: [null], id: 1 }),
    });
    assert.equal(o.status, 401);
  });

  it('a ban is stored (with Epic\'s "PeerNotFound" answer) and survives a restart', async () => {
    const t0 = Math.floor(Date.now() / 1000);
    assert.equal(
      await owner('ban_peer', ['203.0.113.7:3414']),
      rpcBody({ Err: { Internal: 'ban peer error: PeerNotFound' } }),
    );
    const t1 = Math.floor(Date.now() / 1000);
    const listed = JSON.parse(await owner('get_peers', ['203.0.113.7:3414'])) as {
      result: { Ok: [{ last_banned: number }] };
    };
    const when = listed.result.Ok[0].last_banned;
    assert.ok(when >= t0 && when <= t1, `last_banned ${when} within [${t0}, ${t1}]`);
    const banned = { ...PEER, flags: 'Banned', last_banned: when, ban_reason: 'ManualBan' };

    await node.stop();
    node = await startNodeProcess(NODE(home));
    assert.equal(await owner('get_peers', ['203.0.113.7:3414']), rpcBody({ Ok: [banned] }));
    assert.deepEqual(await v1('POST', '/v1/peers/203.0.113.7/unban'), {
      status: 200,
      body: 'null',
    });
    assert.deepEqual(await v1('POST', '/v1/peers/203.0.113.7/unban'), {
      status: 500,
      body: 'unban failed: PeerNotBanned',
    });
    assert.equal(
      await owner('get_peers', [null]),
      rpcBody({ Ok: [LOOPBACK, { ...banned, flags: 'Healthy' }] }),
    );
    assert.equal(
      await owner('unban_peer', ['198.51.100.1:3414']),
      rpcBody({
        Err: {
          Internal: 'unban peer error: Store(NotFoundErr("Peer at address: 198.51.100.1:3414"))',
        },
      }),
    );
  });
});
