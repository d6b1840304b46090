// P2P between several hosts (issue 17, "Several hosts"): real nodes in network namespaces the
// test creates (test/support/netns.ts), each on its own 198.18.0.x address, which exists nowhere
// else. Hosts: A, B, C, D and F run nodes (P2P on <addr>:3414, API on <addr>:3413); E runs a
// PeerAgent, the test's hands there: scripted Epic peers from E's address, and every API call
// (the test process lives in the root namespace and cannot reach the hosts itself).
//
// What it shows: peer exchange (C and then D, seeded with A only, learn the others from A's
// PeerAddrs, dial them and store them Healthy), one connection per IP, a ban by IP refusing
// reconnection until `unban_peer`, and a ban lapsing after `ban_window`. F, with ban_window = 3
// and no peer but E, shows the lapse: the monitor lifts bans in its connect rounds, which on a
// node with peers (A) come every 20 s once its back-off has grown (a lapse there took 14 s), but
// on a node without peers at most 4 s apart, as its back-off restarts with each reseed, as Epic's.
// Nothing here dials or resolves anything but the test's hosts: A and F seed nothing, the others
// a List of A, and the last test checks every address each node connected to, stored or logged.
//
// B, C and D start one after another so every link's direction is known: a node asks for
// addresses only after its own outbound handshakes (and every 5 minutes), so B learns nobody
// (A knew only B), C learns B, and D learns B and C; none of them learns D before D dials it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { VERSION } from '../../cli/info.js';
import {
  createTestNet,
  inNamespace,
  netnsSkipReason,
  sweepStaleNamespaces,
  TEST_SUBNET,
  type TestHost,
  type TestNet,
} from '../support/netns.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { PeerAgent } from '../support/peer_agent_client.js';
import {
  type ConnectedPeerJson,
  FULL_CAPABILITIES,
  rpcReply,
  type StoredPeerJson,
} from '../support/peer_json.js';
import { pollUntil } from '../support/poll.js';
import { sortedKeys } from '../support/sorted.js';

const skip = netnsSkipReason() ?? false;
if (skip === false) sweepStaleNamespaces();

const P2P_PORT = 3414;
const API_PORT = 3413;
const BAN_WINDOW_S = 3;
const USER_AGENT = `MW/mwnode ${VERSION}`;
const IN_SUBNET = new RegExp(`^${TEST_SUBNET.replaceAll('.', '\\.')}\\.\\d+:\\d+$`);

describe('P2P between test hosts in network namespaces', { skip }, () => {
  let net: TestNet;
  let agent: PeerAgent | undefined;
  const nodes = new Map<string, NodeProcess>();
  const host = (name: string): TestHost => {
    const h = net.hosts['ABCDEF'.indexOf(name)];
    if (h === undefined) throw new Error(`no host ${name}`);
    return h;
  };
  const node = (name: string): NodeProcess => {
    const n = nodes.get(name);
    if (n === undefined) throw new Error(`no node on ${name}`);
    return n;
  };
  const p2pAddr = (name: string) => `${host(name).addr}:${P2P_PORT}`;
  const E_ADDR = () => p2pAddr('E');

  async function startNode(name: string, p2pLines: readonly string[]): Promise<void> {
    const h = host(name);
    const n = await startNodeProcess({
      wrap: inNamespace(h.ns),
      serverLines: [`api_http_addr = "${h.addr}:${API_PORT}"`],
      p2pLines: [`host = "${h.addr}"`, `port = ${P2P_PORT}`, ...p2pLines],
    });
    nodes.set(name, n);
  }
  const seededWithA = () => ['seeding_type = "List"', `seeds = ["${p2pAddr('A')}"]`];

  async function owner(name: string, method: string, params: unknown): Promise<string> {
    const n = node(name);
    if (agent === undefined) throw new Error('no agent');
    return agent.owner(n.url, basic(ownerSecret(n.home)), method, params);
  }
  async function connected(name: string): Promise<ConnectedPeerJson[]> {
    const r = JSON.parse(await owner(name, 'get_connected_peers', []));
    return (r as { result: { Ok: ConnectedPeerJson[] } }).result.Ok;
  }
  async function stored(name: string): Promise<StoredPeerJson[]> {
    const r = JSON.parse(await owner(name, 'get_peers', [null]));
    return (r as { result: { Ok: StoredPeerJson[] } }).result.Ok;
  }
  /** `addr direction` of each connected peer, sorted. */
  const links = async (name: string) =>
    (await connected(name)).map((p) => `${p.addr} ${p.direction}`).sort();

  /** Polls `read` every 100 ms until `done` holds (or `timeoutMs` passed); returns the last value. */
  const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms: number) =>
    pollUntil(read, done, ms, 100);

  before(async () => {
    net = createTestNet(6);
    agent = await PeerAgent.start(host('E').ns);
    await Promise.all([
      startNode('A', ['seeding_type = "None"']),
      startNode('F', ['seeding_type = "None"', `ban_window = ${BAN_WINDOW_S}`]),
    ]);
  });
  after(async () => {
    await agent?.stop();
    for (const n of nodes.values()) {
      await n.kill();
      removeHome(n.home);
    }
    net?.destroy();
  });

  it('B and C, seeded with A, connect to it; C learns B from A and dials it', async () => {
    await startNode('B', seededWithA());
    const b = `${p2pAddr('B')} Inbound`;
    assert.deepEqual(
      await until(
        () => links('A'),
        (l) => l.length > 0,
        5_000,
      ),
      [b],
    );
    await startNode('C', seededWithA());
    const bc = [b, `${p2pAddr('C')} Inbound`];
    assert.deepEqual(
      await until(
        () => links('A'),
        (l) => l.length > 1,
        5_000,
      ),
      bc,
    );
    // A's PeerAddrs answer to C held B (B only asked before C existed): C dials B in its next
    // connect round, Epic's seed loop: promoted Defunct → Unknown, queued, dialed within ~6 s.
    assert.deepEqual(
      await until(
        () => links('C'),
        (l) => l.length > 1,
        15_000,
      ),
      [`${p2pAddr('A')} Outbound`, `${p2pAddr('B')} Outbound`],
    );
    assert.deepEqual(await links('B'), [`${p2pAddr('A')} Outbound`, `${p2pAddr('C')} Inbound`]);
  });

  it('D, seeded with A only, learns B and C through PeerAddrs, dials them and stores them Healthy', async () => {
    const t0 = Math.floor(Date.now() / 1000);
    await startNode('D', seededWithA());
    const out = ['A', 'B', 'C'].map((n) => `${p2pAddr(n)} Outbound`);
    assert.deepEqual(
      await until(
        () => links('D'),
        (l) => l.length >= 3,
        15_000,
      ),
      out,
    );
    // Epic's PeerInfoDisplay for each, exactly: every node is at genesis of the same chain.
    const status = JSON.parse(await owner('A', 'get_status', [])) as {
      result: { Ok: { tip: { total_difficulty: unknown } } };
    };
    const info = (name: string) => ({
      addr: p2pAddr(name),
      capabilities: FULL_CAPABILITIES,
      direction: 'Outbound',
      height: 0,
      onion_addr: null,
      total_difficulty: status.result.Ok.tip.total_difficulty,
      user_agent: USER_AGENT,
      version: 2,
    });
    const listed = JSON.parse(await owner('D', 'get_connected_peers', [])) as {
      result: { Ok: ConnectedPeerJson[] };
    };
    listed.result.Ok.sort((x, y) => x.addr.localeCompare(y.addr));
    assert.equal(
      JSON.stringify(sortedKeys(listed), null, 2),
      rpcReply({ Ok: ['A', 'B', 'C'].map(info) }),
    );

    // The store: A (its seed), B and C (from A's PeerAddrs) Healthy with what their handshakes
    // told; D's own address came in the same list and was found to be itself.
    const records = await stored('D');
    const now = Math.floor(Date.now() / 1000);
    const record = (name: string) => {
      const r = records.find((p) => p.addr === p2pAddr(name));
      assert.ok(r !== undefined, `D stores no ${name}`);
      for (const t of [r.last_connected, r.local_timestamp])
        assert.ok(t >= t0 && t <= now, `${name}: ${JSON.stringify(r)}`);
      return { ...r, last_connected: 0, local_timestamp: 0 };
    };
    for (const name of ['A', 'B', 'C'])
      assert.deepEqual(record(name), {
        addr: p2pAddr(name),
        ban_reason: 'None',
        capabilities: FULL_CAPABILITIES,
        flags: 'Healthy',
        last_banned: 0,
        last_connected: 0,
        local_timestamp: 0,
        user_agent: USER_AGENT,
      });
    assert.deepEqual(records.map((p) => p.addr).sort(), ['A', 'B', 'C', 'D'].map(p2pAddr));
    const self = records.find((p) => p.addr === p2pAddr('D'));
    assert.ok(self?.flags === 'Defunct' || self?.flags === 'Unknown', JSON.stringify(self));
    assert.match(node('D').stderr(), /"event":"p2p_self_detected","addr":"198\.18\.0\.4:3414"/);

    assert.deepEqual(
      await links('A'),
      ['B', 'C', 'D'].map((n) => `${p2pAddr(n)} Inbound`),
    );
  });

  it('one connection per IP: a second connection from E is refused while the first is live', async () => {
    assert.ok(agent !== undefined);
    assert.equal(await agent.connect('e1', host('A').addr, P2P_PORT, P2P_PORT), 'shake');
    // Another advertised port changes nothing: the key is the IP.
    assert.equal(await agent.connect('e2', host('A').addr, P2P_PORT, P2P_PORT + 1), 'closed');
    // The first is untouched: A's Ping after the handshake arrives, and A lists E once.
    assert.equal(((await agent.expect('e1', 'Ping')) as { type: string }).type, 'Ping');
    // The connected list is published a moment after a change (gathered for 20 ms).
    const fromE = async () => (await links('A')).filter((l) => l.startsWith(`${host('E').addr}:`));
    assert.deepEqual(await until(fromE, (l) => l.length > 0, 2_000), [`${E_ADDR()} Inbound`]);
  });

  it('ban_peer by IP: BanReason ManualBan, the close, refusal from any port until unban_peer', async () => {
    assert.ok(agent !== undefined);
    assert.equal(await owner('A', 'ban_peer', [E_ADDR()]), rpcReply({ Ok: null }));
    assert.deepEqual(await agent.expect('e1', 'BanReason'), {
      type: 'BanReason',
      reason: 'ManualBan',
    });
    await agent.closed('e1');
    const rec = (await stored('A')).find((p) => p.addr === E_ADDR());
    assert.equal(rec?.flags, 'Banned');
    assert.equal(rec?.ban_reason, 'ManualBan');
    assert.equal(await agent.connect('e3', host('A').addr, P2P_PORT, P2P_PORT), 'closed');
    assert.equal(await agent.connect('e4', host('A').addr, P2P_PORT, 4000), 'closed');

    assert.equal(await owner('A', 'unban_peer', [E_ADDR()]), rpcReply({ Ok: null }));
    assert.equal(await agent.connect('e5', host('A').addr, P2P_PORT, P2P_PORT), 'shake');
    await agent.close('e5');
  });

  it(`ban_window = ${BAN_WINDOW_S}: E is refused at once and accepted again once the window has passed`, async (t) => {
    assert.ok(agent !== undefined);
    const f = host('F').addr;
    assert.equal(await agent.connect('f1', f, P2P_PORT, P2P_PORT), 'shake');
    assert.equal(await owner('F', 'ban_peer', [E_ADDR()]), rpcReply({ Ok: null }));
    const banned = Date.now();
    assert.deepEqual(await agent.expect('f1', 'BanReason'), {
      type: 'BanReason',
      reason: 'ManualBan',
    });
    await agent.closed('f1');
    let refusals = 0;
    for (;;) {
      const r = await agent.connect('f2', f, P2P_PORT, P2P_PORT);
      if (r === 'shake') break;
      refusals++;
      assert.ok(Date.now() - banned < 15_000, 'still refused 15 s after a 3 s ban');
      await sleep(250);
    }
    const waited = Date.now() - banned;
    t.diagnostic(`accepted again ${waited} ms after the ban, ${refusals} refusals before`);
    // Bans are kept in whole seconds, as Epic's: lifted when now − last_banned ≥ ban_window.
    assert.ok(waited >= (BAN_WINDOW_S - 1) * 1000 && refusals > 0, `${waited} ms`);
    assert.match(node('F').stderr(), /"event":"p2p_ban_expired","addr":"198\.18\.0\.5:3414"/);
    const rec = (await stored('F')).find((p) => p.addr === E_ADDR());
    assert.equal(rec?.flags, 'Healthy');
    await agent.close('f2');
  });

  it("every address a node connected to, stored or logged is a test host's", async () => {
    for (const [name, n] of nodes) {
      const addrs = [
        ...(await connected(name)).map((p) => p.addr),
        ...(await stored(name)).map((p) => p.addr),
      ];
      // Every P2P log line naming an address: dials (failed or not), handshakes, closes, bans.
      for (const line of n.stderr().split('\n')) {
        if (!line.includes('"event":"p2p_')) continue;
        const ev = JSON.parse(line) as { event: string; addr?: string; remote?: string };
        assert.notEqual(ev.event, 'p2p_seed_lookup_failed', `${name}: ${line}`);
        if (ev.addr !== undefined) addrs.push(ev.addr);
        if (ev.remote !== undefined) addrs.push(ev.remote);
      }
      assert.ok(addrs.length > 0, name);
      const foreign = addrs.filter((a) => !IN_SUBNET.test(a));
      assert.deepEqual(foreign, [], `${name} saw addresses outside the test hosts`);
    }
  });
});
