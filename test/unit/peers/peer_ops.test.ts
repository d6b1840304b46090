// The owner peer methods and the /v1/peers routes through the real dispatcher, over an
// in-thread peers service with a fixed clock: exact bodies, statuses and error texts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type PeerAddr, parseSocketAddr } from '../../../actors/peers/addr.js';
import { peersHandlers } from '../../../actors/peers/index.js';
import { PeersService } from '../../../actors/peers/service.js';
import { PeerStore } from '../../../actors/peers/store.js';
import type { PeerRecord } from '../../../actors/peers/types.js';
import type { ChainType } from '../../../core/chain_type.js';
import { Dispatcher } from '../../../gateway/dispatch.js';
import type { HttpResponse } from '../../../gateway/http.js';
import { NO_PEERS, type Services } from '../../../gateway/services.js';
import { sortedKeys } from '../../support/sorted.js';

const NOW = 1_800_000_000;
const FULL = 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC';

const SEEDS: PeerRecord[] = [
  {
    addr: parseSocketAddr('1.2.3.4:3414') as PeerAddr,
    capabilities: 31,
    userAgent: 'MW/Epic 4.0.0',
    flags: 2,
    lastBanned: 0,
    banReason: 0,
    lastConnected: 1_700_000_000,
    localTimestamp: 0,
  },
  {
    addr: parseSocketAddr('127.0.0.1:23414') as PeerAddr,
    capabilities: 0,
    userAgent: '',
    flags: 3,
    lastBanned: 0,
    banReason: 0,
    lastConnected: 0,
    localTimestamp: 0,
  },
];

/** PeerData in Epic's declaration order (the /v1 form). */
const A = {
  addr: '1.2.3.4:3414',
  capabilities: FULL,
  user_agent: 'MW/Epic 4.0.0',
  flags: 'Defunct',
  last_banned: 0,
  ban_reason: 'None',
  last_connected: 1_700_000_000,
  local_timestamp: 0,
};
const LOOP = {
  addr: '127.0.0.1:23414',
  capabilities: '',
  user_agent: '',
  flags: 'Unknown',
  last_banned: 0,
  ban_reason: 'None',
  last_connected: 0,
  local_timestamp: 0,
};

const rpcBody = (result: unknown, id = 1) =>
  JSON.stringify(sortedKeys({ id, jsonrpc: '2.0', result }), null, 2);

function setup(chainType: ChainType): { dispatcher: Dispatcher; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-peerops-'));
  const store = new PeerStore(dir);
  for (const s of SEEDS) store.save(s);
  store.close();
  const service = new PeersService(dir, () => NOW);
  const handlers = peersHandlers(service) as unknown as Record<string, (b: unknown) => unknown>;
  const refuse = (() => Promise.reject(new Error('not in this test'))) as never;
  const services: Services = {
    chain: refuse,
    pool: refuse,
    peers: (async (kind: string, body: unknown) =>
      (handlers[kind] as (b: unknown) => unknown)(body)) as Services['peers'],
    head: () => null,
    poolGeneration: () => 0,
    connectedPeers: () => NO_PEERS,
  };
  const dispatcher = new Dispatcher(
    services,
    { owner: null, foreign: null },
    { userAgent: 'test', chainType },
  );
  return {
    dispatcher,
    close: () => {
      service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function send(
  d: Dispatcher,
  method: 'get' | 'post',
  path: string,
  body = '',
): Promise<HttpResponse> {
  const r = d.resolve(method, path, undefined);
  if ('response' in r) return r.response;
  const response = await d.run(r.op, {
    method,
    path,
    query: '',
    authorization: undefined,
    body: new TextEncoder().encode(body),
  });
  // Only get_outputs replies come as bytes.
  return { ...response, body: Buffer.from(response.body).toString('utf8') };
}

const owner = async (d: Dispatcher, method: string, params: unknown) => {
  const r = await send(
    d,
    'post',
    '/v2/owner',
    JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  );
  assert.equal(r.status, 200);
  return r.body;
};

const notFound = (a: string) => `Store(NotFoundErr("Peer at address: ${a}"))`;

describe('owner peer methods (/v2/owner)', () => {
  let d: Dispatcher;
  let close: () => void;
  before(() => {
    ({ dispatcher: d, close } = setup('automated'));
  });
  after(() => close());

  it('get_peers lists every record, or the one stored under an address', async () => {
    assert.equal(await owner(d, 'get_peers', [null]), rpcBody({ Ok: [A, LOOP] }));
    assert.equal(await owner(d, 'get_peers', { peer_addr: null }), rpcBody({ Ok: [A, LOOP] }));
    // A non-loopback peer is keyed by IP: another port finds the stored record.
    assert.equal(await owner(d, 'get_peers', ['1.2.3.4:9999']), rpcBody({ Ok: [A] }));
    assert.equal(await owner(d, 'get_peers', ['127.0.0.1:23414']), rpcBody({ Ok: [LOOP] }));
    assert.equal(
      await owner(d, 'get_peers', ['127.0.0.1:3414']),
      rpcBody({ Err: { Internal: `get peer error: ${notFound('127.0.0.1:3414')}` } }),
    );
    assert.equal(
      await owner(d, 'get_peers', ['[2001:DB8::1]:3414']),
      rpcBody({ Err: { Internal: `get peer error: ${notFound('[2001:db8::1]:3414')}` } }),
    );
  });

  it('a bare IP or a missing argument is refused as Epic refuses it', async () => {
    const err = (code: number, message: string) =>
      JSON.stringify({ error: { code, message }, id: 1, jsonrpc: '2.0' }, null, 2);
    assert.equal(
      await owner(d, 'get_peers', ['1.2.3.4']),
      err(-32602, 'InvalidArgStructure "peer_addr" at position 0.'),
    );
    assert.equal(
      await owner(d, 'ban_peer', [3414]),
      err(-32602, 'InvalidArgStructure "peer_addr" at position 0.'),
    );
    assert.equal(
      await owner(d, 'get_peers', []),
      err(-32602, 'WrongNumberOfArgs. Expected 0. Actual 1'),
    );
    assert.equal(
      await owner(d, 'unban_peer', null),
      err(-32602, 'WrongNumberOfArgs. Expected 0. Actual 1'),
    );
  });

  it("ban_peer keeps Epic's answer for a stored, unconnected peer; unban_peer", async () => {
    assert.equal(
      await owner(d, 'ban_peer', ['5.6.7.8:3414']),
      rpcBody({ Err: { Internal: `ban peer error: ${notFound('5.6.7.8:3414')}` } }),
    );
    assert.equal(
      await owner(d, 'unban_peer', ['1.2.3.4:3414']),
      rpcBody({ Err: { Internal: 'unban peer error: PeerNotBanned' } }),
    );
    assert.equal(
      await owner(d, 'ban_peer', ['1.2.3.4:1']),
      rpcBody({ Err: { Internal: 'ban peer error: PeerNotFound' } }),
    );
    const banned = { ...A, flags: 'Banned', last_banned: NOW, ban_reason: 'ManualBan' };
    assert.equal(await owner(d, 'get_peers', ['1.2.3.4:3414']), rpcBody({ Ok: [banned] }));
    assert.equal(await owner(d, 'unban_peer', ['1.2.3.4:3414']), rpcBody({ Ok: null }));
    assert.equal(
      await owner(d, 'get_peers', ['1.2.3.4:3414']),
      rpcBody({ Ok: [{ ...banned, flags: 'Healthy' }] }),
    );
    assert.equal(
      await owner(d, 'unban_peer', ['9.9.9.9:3414']),
      rpcBody({ Err: { Internal: `unban peer error: ${notFound('9.9.9.9:3414')}` } }),
    );
  });

  it('get_connected_peers and get_onion_addresses are empty without a P2P layer', async () => {
    assert.equal(await owner(d, 'get_connected_peers', []), rpcBody({ Ok: [] }));
    assert.equal(await owner(d, 'get_connected_peers', null), rpcBody({ Ok: [] }));
    assert.equal(await owner(d, 'get_onion_addresses', []), rpcBody({ Ok: [] }));
  });
});

describe('/v1/peers routes', () => {
  let d: Dispatcher;
  let close: () => void;
  before(() => {
    ({ dispatcher: d, close } = setup('automated'));
  });
  after(() => close());

  const expectReply = async (
    method: 'get' | 'post',
    path: string,
    status: number,
    body: string,
  ) => {
    const r = await send(d, method, path);
    assert.deepEqual({ status: r.status, body: r.body }, { status, body }, `${method} ${path}`);
  };

  it('the lists: all (pretty), connected and onion_addresses (compact)', async () => {
    await expectReply('get', '/v1/peers/all', 200, JSON.stringify([A, LOOP], null, 2));
    await expectReply('get', '/v1/peers/connected', 200, '[]');
    await expectReply('get', '/v1/peers/onion_addresses', 200, '{"onion_addresses":[]}');
  });

  it('GET /v1/peers/<addr>: the one-element array of get_peers; 400 and 404 as Epic', async () => {
    const one = JSON.stringify([A]);
    await expectReply('get', '/v1/peers/1.2.3.4', 200, one);
    await expectReply('get', '/v1/peers/1.2.3.4:9999', 200, one);
    await expectReply('get', '/v1/peers/1.2.3.4/', 200, one);
    await expectReply('get', '/v1/peers/127.0.0.1:23414', 200, JSON.stringify([LOOP]));
    // A bare loopback IP gets port 3414, and loopback peers are keyed with their port.
    await expectReply('get', '/v1/peers/127.0.0.1', 404, 'peer not found');
    await expectReply('get', '/v1/peers/5.6.7.8', 404, 'peer not found');
    await expectReply('get', '/v1/peers/nope', 400, 'peer address unrecognized: /v1/peers/nope');
    await expectReply(
      'get',
      '/v1/peers/1.2.3.4/ban',
      400,
      'peer address unrecognized: /v1/peers/1.2.3.4/ban',
    );
  });

  it('POST ban/unban: statuses and texts as Epic, success null as the /v2 payload', async () => {
    await expectReply(
      'post',
      '/v1/peers/5.6.7.8/ban',
      500,
      `ban failed: ${notFound('5.6.7.8:3414')}`,
    );
    await expectReply('post', '/v1/peers/1.2.3.4/unban', 500, 'unban failed: PeerNotBanned');
    await expectReply('post', '/v1/peers/1.2.3.4:3414/ban', 500, 'ban failed: PeerNotFound');
    await expectReply(
      'get',
      '/v1/peers/1.2.3.4',
      200,
      JSON.stringify([{ ...A, flags: 'Banned', last_banned: NOW, ban_reason: 'ManualBan' }]),
    );
    await expectReply('post', '/v1/peers/1.2.3.4/unban', 200, 'null');
    await expectReply('post', '/v1/peers/1.2.3.4/kick', 400, 'invalid command');
    await expectReply('post', '/v1/peers/x/ban', 400, 'invalid peer address: /v1/peers/x/ban');
    await expectReply('post', '/v1/peers/1.2.3.4', 400, 'invalid peer address: /v1/peers/1.2.3.4');
    await expectReply('post', '/v1/peers/all', 404, '');
  });
});

describe('/v1/peers on floonet', () => {
  it('a bare IP gets port 13414', async () => {
    const { dispatcher, close } = setup('floonet');
    try {
      const r = await send(dispatcher, 'post', '/v1/peers/5.6.7.8/ban');
      assert.deepEqual(
        { status: r.status, body: r.body },
        { status: 500, body: `ban failed: ${notFound('5.6.7.8:13414')}` },
      );
    } finally {
      close();
    }
  });
});
