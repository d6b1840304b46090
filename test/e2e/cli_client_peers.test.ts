// Epic's client commands against a real node with a peer: `mwnode client listconnectedpeers`
// (Epic's lines, or the node's JSON with --json), `ban -p` (the peer is dropped) and `unban -p`,
// and the node's refusal passed on with exit 1. The client finds the node's config in its
// working directory, as Epic's does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Difficulty } from '../../core/types/pow.js';
import { EpicPeer } from '../support/epic_peer.js';
import { mwnodeCommand } from '../support/mwnode_command.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';

const PEER_DIFF: Difficulty = { cuckaroo: 5n, cuckatoo: 6n, randomx: 7n, progpow: 8n };

interface Listed {
  addr: string;
  capabilities: string;
  user_agent: string;
  version: number;
  height: number;
  direction: string;
  total_difficulty: Record<string, number>;
}

let node: NodeProcess;
let peer: EpicPeer;
/** Where the client runs: a config naming the node's real API port and its owner secret. */
let clientDir: string;

async function client(args: readonly string[]) {
  const r = await mwnodeCommand(['--auto', 'client', ...args], 60_000, clientDir);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function connected(): Promise<Listed[]> {
  const r = await fetch(`${node.url}/v1/peers/connected`, {
    headers: { authorization: basic(ownerSecret(node.home)) },
  });
  return (await r.json()) as Listed[];
}

describe('mwnode client: listconnectedpeers, ban, unban', () => {
  before(async () => {
    node = await startNodeProcess({
      p2pLines: ['seeding_type = "None"', 'peer_max_outbound_count = 0'],
    });
    clientDir = tempHome();
    writeFileSync(
      join(clientDir, 'mwnode-server.toml'),
      [
        '[server]',
        'chain_type = "AutomatedTesting"',
        `api_http_addr = "${new URL(node.url).host}"`,
        `api_secret_path = "${join(node.home, '.api_secret')}"`,
        '',
      ].join('\n'),
    );
    peer = await EpicPeer.connect('127.0.0.1', p2pPortOf(node));
    peer.sendHand({ totalDifficulty: PEER_DIFF });
    await peer.expect('Shake', 3_000);
    for (let i = 0; i < 100 && (await connected()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
  });
  after(async () => {
    peer?.socket.destroy();
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
    if (clientDir !== undefined) removeHome(clientDir);
  });

  it("lists the peer as the node's JSON with --json, and in Epic's lines without", async () => {
    const listed = await connected();
    assert.equal(listed.length, 1);
    const json = await client(['listconnectedpeers', '--json']);
    assert.deepEqual({ code: json.code, err: json.err }, { code: 0, err: '' });
    assert.deepEqual(JSON.parse(json.out), listed);
    const p = listed[0] as Listed;
    assert.deepEqual(await client(['listconnectedpeers']), {
      code: 0,
      err: '',
      out: [
        'Peer 0:',
        `Capabilities: ${p.capabilities}`,
        `User agent: ${p.user_agent}`,
        'Version: 2',
        `Peer address: ${p.addr}`,
        `Height: ${p.height}`,
        'Total difficulty: cuckaroo 5, cuckatoo 6, progpow 8, randomx 7',
        'Direction: Inbound',
        '',
        '',
      ].join('\n'),
    });
  });

  it('bans the peer (it is dropped), unbans it, and passes on the refusal of a second unban', async () => {
    const addr = ((await connected())[0] as Listed).addr;
    assert.deepEqual(await client(['ban', '-p', addr]), {
      code: 0,
      err: '',
      out: `Successfully banned peer ${addr}\n`,
    });
    await peer.closedWithin(3_000);
    assert.deepEqual(JSON.parse((await client(['listconnectedpeers', '--json'])).out), []);
    assert.deepEqual(await client(['unban', '-p', addr, '--json']), {
      code: 0,
      err: '',
      out: `{\n  "peer": "${addr}",\n  "banned": false\n}\n`,
    });
    assert.deepEqual(await client(['unban', '-p', addr]), {
      code: 1,
      out: '',
      err: `mwnode: Failed to unban peer ${addr}: the node answered HTTP 500: unban failed: PeerNotBanned\n`,
    });
  });

  it('refuses an address that is not ip:port as a usage error', async () => {
    const r = await client(['ban', '-p', 'somewhere']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^mwnode: invalid peer address "somewhere": expected ip:port/);
  });
});
