// Scale-out with standard parts (docs/deploy.md): three mwnode replicas, each a full node
// following a miner over P2P on loopback, behind Debian's nginx for /v2/foreign and /v1. Reads
// go through nginx while blocks arrive; one replica is killed; no request fails beyond those
// in flight on it, and the replicas left stay within one block of the miner.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { apiTip, mineBlock, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  p2pPortOf,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { freePort } from '../support/wallet_process.js';

const REPLICAS = 3;
const CLIENTS = 8;
const SECRET = 'replicas-share-this-owner-secret';
const GET_TIP = '{"jsonrpc":"2.0","method":"get_tip","params":[],"id":1}';

/** The example of docs/deploy.md, with this test's ports and a private prefix. */
function nginxConf(dir: string, port: number, replicas: readonly number[]): string {
  const proxy = [
    'proxy_pass http://mwnode;',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    // Reads only behind this location: a request a dead replica never answered goes to the next.
    'proxy_next_upstream error timeout http_502 http_503 non_idempotent;',
    'proxy_next_upstream_tries 3;',
  ].join('\n      ');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mwnode {
${replicas.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 16m;
    location = /v2/foreign {
      ${proxy}
    }
    location /v1/ {
      ${proxy}
    }
  }
}
`;
}

describe('replicas behind nginx', { timeout: 180_000 }, () => {
  let miner: NodeProcess;
  const replicas: NodeProcess[] = [];
  let nginx: ChildProcess;
  let dir = '';
  let url = '';

  before(async () => {
    assert.equal(spawnSync('nginx', ['-v']).status, 0, 'nginx (Debian package) is installed');
    miner = await startNodeProcess({ serverLines: [CUCKATOO_ONLY] });
    const seeded = [
      'seeding_type = "List"',
      `seeds = ["127.0.0.1:${p2pPortOf(miner)}"]`,
      'peer_min_preferred_outbound_count = 1',
    ];
    for (let i = 0; i < REPLICAS; i++) {
      // One owner secret for all: nginx hands /v1's credential to whichever replica answers.
      const home = tempHome();
      writeFileSync(join(home, '.api_secret'), SECRET, { mode: 0o600 });
      replicas.push(
        await startNodeProcess({ home, serverLines: [CUCKATOO_ONLY], p2pLines: seeded }),
      );
    }
    dir = mkdtempSync(join(tmpdir(), 'mwnode-nginx-'));
    mkdirSync(join(dir, 'body'));
    const port = await freePort();
    writeFileSync(
      join(dir, 'nginx.conf'),
      nginxConf(
        dir,
        port,
        replicas.map((r) => r.port),
      ),
    );
    nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    url = `http://127.0.0.1:${port}`;
    await pollUntil(
      () =>
        fetch(`${url}/v2/foreign`, { method: 'POST', body: GET_TIP }).then(
          (r) => r.status,
          () => 0,
        ),
      (s) => s === 200,
      10_000,
    );
  });

  after(async () => {
    nginx?.kill('SIGQUIT');
    for (const n of [...replicas, miner]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('reads through nginx while blocks arrive; a replica killed; no read lost', async () => {
    const auth = { authorization: basic(SECRET) };
    let done = false;
    let answered = 0;
    const failures: string[] = [];
    const client = async (k: number): Promise<void> => {
      while (!done) {
        const r =
          k % 2 === 0
            ? fetch(`${url}/v2/foreign`, { method: 'POST', body: GET_TIP })
            : fetch(`${url}/v1/chain`, { headers: auth });
        try {
          const res = await r;
          const text = await res.text();
          if (res.status !== 200 || !text.includes('"height"'))
            failures.push(`${res.status} ${text}`);
          else answered++;
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, k) => client(k));
    const killed = replicas[1] as NodeProcess;
    for (let i = 0; i < 12; i++) {
      const block = await mineBlock(miner.url, { templateTime: true });
      assert.deepEqual((await submit(miner.url, block)).body.result, { Ok: null });
      if (i === 5) await killed.kill();
      await new Promise((r) => setTimeout(r, 250));
    }
    done = true;
    await Promise.all(clients);
    assert.ok(failures.length <= CLIENTS, `${failures.length} failed: ${failures.slice(0, 3)}`);
    assert.ok(answered > 200, `only ${answered} reads answered`);
    const height = (await apiTip(miner.url)).height;
    for (const r of replicas.filter((x) => x !== killed)) {
      const tip = await pollUntil(
        () => apiTip(r.url),
        (t) => t.height >= height - 1,
        2_000,
      );
      assert.ok(tip.height >= height - 1, `${r.url} at ${tip.height}, the miner at ${height}`);
    }
  });
});
