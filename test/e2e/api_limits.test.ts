// A public node under abuse, on the real mwnode: the optional per-address rate limit
// (`api_rate_limit`), and thousands of half-open connections (slowloris) that neither stop a
// normal client from being served nor stay open for ever.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type NodeProcess,
  removeHome,
  spawnNode,
  tempHome,
  writeConfig,
} from '../support/node_process.js';

const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** get_tip on /v2/foreign from the loopback address `from`, on a connection of its own. */
function getTip(node: NodeProcess, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: node.port,
        path: '/v2/foreign',
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(GET_TIP);
  });
}

async function startNode(lines: readonly string[]): Promise<NodeProcess> {
  const home = tempHome();
  return spawnNode({ home, configFile: writeConfig(home, lines) });
}

describe('api_rate_limit on the real node', { timeout: 60_000 }, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode(['api_rate_limit = 5', 'api_rate_limit_burst = 5']);
  });
  after(async () => {
    await node.stop();
    removeHome(node.home);
  });

  it('an address past its burst gets 429 with retry-after; another address is served', async () => {
    const first: Answer[] = [];
    for (let i = 0; i < 7; i++) first.push(await getTip(node, '127.0.0.1'));
    assert.deepEqual(
      first.map((a) => a.status),
      [200, 200, 200, 200, 200, 429, 429],
    );
    const ok = first[0] as Answer;
    assert.match(
      ok.body,
      /^\{\n {2}"id": 1,\n {2}"jsonrpc": "2.0",\n {2}"result": \{\n {4}"Ok": \{/,
    );
    const refused = first[5] as Answer;
    assert.equal(refused.body, 'Too Many Requests');
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.headers['content-length'], '17');
    assert.equal((await getTip(node, '127.0.0.2')).status, 200, 'another address');
    // Five a second: after 0.4 s two tokens are back, not three.
    await new Promise((r) => setTimeout(r, 450));
    const later: number[] = [];
    for (let i = 0; i < 3; i++) later.push((await getTip(node, '127.0.0.1')).status);
    assert.deepEqual(later, [200, 200, 429]);
  });
});

const HALF_OPEN = 5000;
/** Connections opened at once (the listen backlog is finite). */
const BATCH = 250;

/** What half-open connections send before they stop: part of the headers, or of the body. */
const HALF_REQUESTS = [
  'POST /v2/foreign HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl',
  `POST /v2/foreign HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${GET_TIP.length}\r\n\r\n{"json`,
];

/** Opens a connection that sends part of a request and then nothing. */
function halfOpen(port: number, host: string, i: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host }, () => {
      s.write(HALF_REQUESTS[i % HALF_REQUESTS.length] as string);
      resolve(s);
    });
    s.on('error', reject);
  });
}

describe('slowloris on the real node', { timeout: 120_000 }, () => {
  let node: NodeProcess;
  const sockets: Socket[] = [];
  let closed = 0;
  before(async () => {
    node = await startNode([]);
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await node.stop();
    removeHome(node.home);
  });

  it(`${HALF_OPEN} half-open connections (headers or bodies): a client is served; they are closed`, async () => {
    const opened = performance.now();
    for (let i = 0; i < HALF_OPEN; i += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: BATCH }, (_, k) => halfOpen(node.port, '127.0.0.1', k)),
      );
      for (const s of batch) {
        s.on('close', () => {
          closed++;
        });
        sockets.push(s);
      }
    }
    assert.equal(sockets.length, HALF_OPEN);
    const start = performance.now();
    const answer = await getTip(node, '127.0.0.3');
    const ms = performance.now() - start;
    assert.equal(answer.status, 200);
    assert.ok(
      ms < 1000,
      `get_tip took ${ms.toFixed(0)} ms beside ${HALF_OPEN} half-open connections`,
    );
    assert.equal(closed, 0, 'still open right after');
    // uWS closes HTTP connections idle for 10 s, requests left half-written included.
    const until = opened + 30_000;
    while (closed < HALF_OPEN && performance.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    assert.equal(closed, HALF_OPEN, 'the node closed every half-open connection');
    assert.equal((await getTip(node, '127.0.0.1')).status, 200);
  });
});
