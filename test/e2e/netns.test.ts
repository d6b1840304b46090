// The real node inside test network namespaces (test/support/netns.ts): reachable from another
// test host at its own address and from nowhere else, and, with the default test configuration,
// sending no packet to anyone. The second part guards the defaults of the coming P2P layer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createSealedHost,
  createTestNet,
  inetSockets,
  inNamespace,
  netnsSkipReason,
  runIn,
  type SealedHost,
  subnetTracesHere,
  sweepStaleNamespaces,
  TEST_SUBNET,
  type TestNet,
  txPackets,
} from '../support/netns.js';
import { type NodeProcess, removeHome, startNodeProcess } from '../support/node_process.js';

const skip = netnsSkipReason() ?? false;
if (skip === false) sweepStaleNamespaces();

const VERSION_BODY = '{\n  "node_version": "4.0.0",\n  "block_header_version": 6\n}';

// A client for a node in another namespace: prints the status and body of one GET.
const GET_SCRIPT = `fetch(process.argv[1]).then(async (r) => console.log(r.status, await r.text()),
  (e) => { console.log('failed', e.cause?.code ?? e.message); });`;

const nodeGet = (ns: string, url: string) => runIn(ns, [process.execPath, '-e', GET_SCRIPT, url]);

/** Starts a node inside `ns`; seeding None and its P2P host on `addr`, as issue 17 requires. */
function startNodeIn(ns: string, addr: string, serverLines: readonly string[] = []) {
  return startNodeProcess({
    wrap: inNamespace(ns),
    serverLines,
    p2pLines: [`host = "${addr}"`, 'seeding_type = "None"'],
    ownerSecret: false,
  });
}

/** Polls `read` every 50 ms until `done` holds of its value (5 s at most). */
async function until<T>(read: () => T, done: (v: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 50) {
    const v = read();
    if (done(v) || waited >= 5000) return v;
    await sleep(50);
  }
}

async function stopAll(nodes: readonly (NodeProcess | undefined)[]): Promise<void> {
  for (const n of nodes) {
    if (n === undefined) continue;
    await n.kill();
    removeHome(n.home);
  }
}

describe('two test hosts', { skip }, () => {
  let net: TestNet;
  let node: NodeProcess | undefined;

  before(async () => {
    net = createTestNet(2);
    const [a] = net.hosts;
    if (a === undefined) throw new Error('no host A');
    node = await startNodeIn(a.ns, a.addr, [`api_http_addr = "${a.addr}:3413"`]);
  });
  after(async () => {
    await stopAll([node]);
    net?.destroy();
  });

  it("host B reaches the node's API at host A's address", async () => {
    const [a, b] = net.hosts;
    assert.equal(node?.url, `http://${a?.addr}:3413`);
    const r = await nodeGet(b?.ns ?? '', `${node?.url}/v1/version`);
    assert.deepEqual(r, { code: 0, stdout: `200 ${VERSION_BODY}\n`, stderr: '' });
  });

  it("host A's address exists only inside the test's namespaces", () => {
    // Not dialled from here: with the machine's default route the SYN would leave the machine.
    assert.deepEqual(subnetTracesHere(), []);
  });

  it("host A reaches host B's own stack: refused there, as nothing listens on B", async () => {
    const [a] = net.hosts;
    const r = await nodeGet(a?.ns ?? '', `http://${TEST_SUBNET}.2:3413/v1/version`);
    assert.deepEqual(r, { code: 0, stdout: 'failed ECONNREFUSED\n', stderr: '' });
  });
});

describe('a node started for tests makes no connection attempt', { skip }, () => {
  let sealed: SealedHost;
  let node: NodeProcess | undefined;
  after(async () => {
    await stopAll([node]);
    sealed?.destroy();
  });

  it('the detector sees one attempt: a SYN on out0 and a SYN-SENT socket', async () => {
    const probe = createSealedHost();
    // Connects to an address behind the namespace's sink (nothing leaves) until stdin closes.
    const script = `const s = require('node:net').connect(9, '${TEST_SUBNET}.9');
      s.on('error', () => {});
      process.stdin.on('end', () => s.destroy()).resume();`;
    const [command, ...args] = [...inNamespace(probe.ns), process.execPath, '-e', script];
    const proc = spawn(command ?? 'ip', args, { stdio: ['pipe', 'ignore', 'inherit'] });
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    try {
      const sockets = await until(
        () => inetSockets(probe.ns),
        (s) => s.length > 0,
      );
      assert.equal(sockets.length, 1, sockets.join('\n'));
      const net = TEST_SUBNET.replaceAll('.', '\\.');
      const synSent = new RegExp(`^tcp SYN-SENT ${net}\\.1:\\d+ ${net}\\.9:9$`);
      assert.match(sockets[0] ?? '', synSent);
      proc.stdin.end();
      assert.equal(await exited, 0);
      // One SYN (a retransmission would come after a second); closing a SYN-SENT socket sends none.
      assert.deepEqual(txPackets(probe.ns), { lo: 0, out0: 1, sink0: 0 });
    } finally {
      proc.kill('SIGKILL');
      probe.destroy();
    }
  });

  it('the default test configuration: listeners only, no packet sent for 3 s', async () => {
    sealed = createSealedHost();
    node = await startNodeProcess({ wrap: inNamespace(sealed.ns) });
    await sleep(3000);
    // Listeners are allowed (the API's now, the P2P layer's later); any other socket is an attempt.
    const sockets = inetSockets(sealed.ns);
    assert.deepEqual(
      sockets.filter((s) => !s.startsWith('tcp LISTEN ')),
      [],
    );
    assert.ok(sockets.includes(`tcp LISTEN 127.0.0.1:${node.port} 0.0.0.0:*`), sockets.join('\n'));
    // lo too: nothing dialled even the node's own listener or a local resolver.
    assert.deepEqual(txPackets(sealed.ns), { lo: 0, out0: 0, sink0: 0 });
  });
});
