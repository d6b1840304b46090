// Issue 22's logging acceptance, on one short run: a usernet node whose test miner pays a
// wallet (password-protected, listening), a second node that syncs from it over P2P and is then
// banned, a file transaction refused once by the pool and then accepted. The node logs to a file
// with a tiny log_max_size: it rolls and keeps exactly log_max_files rolled files; the event
// classes this run produces appear with their fields; no secret (node API secret, its Basic
// header, the wallet password, the recovery phrase) appears in any log, nor in the node's
// /metrics. (Orphans, reorgs and refused blocks are shown on a real chain in
// test/unit/chain/block_log.test.ts, and with blocks from the API and from stratum in a real
// node in test/e2e/block_events_log.test.ts.)
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { networkDir } from '../../config/home.js';
import { WALLET_CONFIG_FILE_NAME } from '../../config/wallet_toml.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  spawnNode,
  startNodeProcess,
  tempHome,
  writeConfig,
} from '../support/node_process.js';
import {
  info,
  initWallet,
  ok,
  shareProgpowCache,
  waitUntil,
  walletFor,
} from '../support/wallet_e2e.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  type WalletListener,
  walletCommand,
} from '../support/wallet_process.js';

const MAX_SIZE = 4096;
const MAX_FILES = 2;
const EPIC = 100_000_000n;

type Event = Record<string, unknown>;

/** The JSON log lines of `text` (other lines, e.g. `mwnode: using …`, left out). */
function events(text: string): Event[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Event);
}

const find = (list: readonly Event[], event: string, where: (e: Event) => boolean = () => true) => {
  const found = list.find((e) => e.event === event && where(e));
  assert.ok(found !== undefined, `no ${event} line`);
  return found;
};

/** Every key of `keys` is present with a value of the type given. */
function hasFields(e: Event, keys: Record<string, 'string' | 'number' | 'boolean'>): void {
  for (const [k, type] of Object.entries(keys))
    assert.equal(typeof e[k], type, `${String(e.event)}.${k} in ${JSON.stringify(e)}`);
}

describe('logging: rolled files, event classes, no secrets', { timeout: 300_000 }, () => {
  let node: NodeProcess;
  let peer: NodeProcess | undefined;
  let a: TestWallet;
  let b: TestWallet;
  let listenA: WalletListener | undefined;
  let phrase = '';
  let logDir = '';
  const homes: string[] = [];

  before(async () => {
    shareProgpowCache();
    const portA = await freePort();
    const home = tempHome();
    homes.push(home);
    logDir = join(home, 'logs');
    const configFile = writeConfig(
      home,
      [`test_miner_wallet_url = "http://127.0.0.1:${portA}"`],
      true,
      'usernet',
    );
    appendFileSync(
      configFile,
      [
        '[logging]',
        'log_to_file = true',
        'file_log_level = "Debug"',
        `log_file_path = "${join(logDir, 'mwnode-server.log')}"`,
        `log_max_size = ${MAX_SIZE}`,
        `log_max_files = ${MAX_FILES}`,
        'slow_request_ms = 0',
        '',
      ].join('\n'),
    );
    node = await spawnNode({
      home,
      configFile,
      chainFlag: '--usernet',
      stdout: 'ignore',
      timeoutMs: 60_000,
    });
    a = walletFor(node, node.home, { foreign: portA });
    const homeB = tempHome();
    homes.push(homeB);
    b = walletFor(node, homeB);
    // Wallet A logs to its own file as well.
    const walletFile = join(networkDir(a.home, 'usernet'), WALLET_CONFIG_FILE_NAME);
    writeFileSync(
      walletFile,
      readFileSync(walletFile, 'utf8').replace('log_to_file = false', 'log_to_file = true'),
    );
    [phrase] = await Promise.all([initWallet(a), initWallet(b)]);
    listenA = await startWalletListener(a, 'listen', ['-l', String(portA)]);
  });

  after(async () => {
    await listenA?.stop();
    await peer?.stop();
    await node?.stop();
    for (const h of homes) removeHome(h);
  });

  it('runs: a peer syncs and is banned, a transaction is refused, then accepted', async () => {
    await waitUntil(
      async () => ((await info(a)).rows['Currently Spendable'] ?? 0n) >= 2n * EPIC,
      150_000,
      () => node.stderr().slice(-2000),
    );
    peer = await startNodeProcess({
      chain: 'usernet',
      timeoutMs: 60_000,
      serverLines: ['run_test_miner = false'],
      p2pLines: [
        'seeding_type = "List"',
        'peer_min_preferred_outbound_count = 1',
        `seeds = ["127.0.0.1:${p2pPortOf(node)}"]`,
      ],
    });
    const auth = { authorization: basic(ownerSecret(node.home)) };
    await waitUntil(
      () =>
        events(peer?.stderr() ?? '').some((e) => e.event === 'p2p_sync' && e.status === 'no_sync'),
      60_000,
      () => peer?.stderr().slice(-2000) ?? '',
    );
    const listed = (await (
      await fetch(`${node.url}/v1/peers/connected`, { headers: auth })
    ).json()) as {
      addr: string;
    }[];
    assert.equal(listed.length, 1);
    const addr = (listed[0] as { addr: string }).addr;
    const ban = await fetch(`${node.url}/v1/peers/${addr}/ban`, { method: 'POST', headers: auth });
    assert.equal(ban.status, 200);
    await waitUntil(
      () => events(node.stderr()).some((e) => e.event === 'p2p_peer_closed' && e.addr === addr),
      10_000,
      () => node.stderr().slice(-2000),
    );

    const file = join(a.home, 'send.slate');
    await ok(a, ['send', '1', '-m', 'file', '-d', file, '-c', '1']);
    await ok(b, ['receive', '-i', file]);
    // The response carries B's half only: the pool refuses it.
    const early = await walletCommand(a, ['post', '-i', `${file}.response`]);
    assert.equal(early.code, 1);
    await ok(a, ['finalize', '-i', `${file}.response`]);
    await waitUntil(
      () => events(node.stderr()).some((e) => e.event === 'pool_tx_accepted'),
      10_000,
      () => node.stderr().slice(-2000),
    );
    // Enough lines for several rolls: a few more blocks.
    const mined = events(node.stderr()).filter((e) => e.event === 'block_accepted').length;
    await waitUntil(
      () => events(node.stderr()).filter((e) => e.event === 'block_accepted').length >= mined + 2,
      60_000,
      () => node.stderr().slice(-2000),
    );
  });

  it('logs each event class with its fields at its level', () => {
    const n = events(node.stderr());
    const p = events(peer?.stderr() ?? '');
    const mined = find(n, 'block_accepted', (e) => e.source === 'test_miner');
    hasFields(mined, {
      level: 'string',
      ts: 'string',
      height: 'number',
      hash: 'string',
      status: 'string',
      txs: 'number',
      ms: 'number',
    });
    assert.equal(mined.level, 'info');
    assert.match(String(mined.hash), /^[0-9a-f]{64}$/);
    assert.ok(
      n.some((e) => e.event === 'block_accepted' && Number(e.txs) >= 1),
      'a block with our transaction',
    );
    const fromPeer = find(p, 'block_accepted', (e) => e.source === 'peer');
    hasFields(fromPeer, { height: 'number', hash: 'string', txs: 'number', ms: 'number' });
    const refused = find(n, 'pool_tx_rejected');
    assert.deepEqual([refused.level, refused.source], ['warn', 'PushApi']);
    assert.match(String(refused.reason), /Incorrect signature/);
    const accepted = find(n, 'pool_tx_accepted');
    hasFields(accepted, { source: 'string', kernel: 'string', pool: 'number', stempool: 'number' });
    // The refused one's kernel had no excess yet (B's half only): zeros; the accepted one's has.
    assert.equal(refused.kernel, '00'.repeat(33));
    assert.match(String(accepted.kernel), /^0[89][0-9a-f]{64}$/);
    assert.equal(accepted.source, 'PushApi');
    const inbound = find(n, 'p2p_peer_connected');
    assert.deepEqual([inbound.level, inbound.direction], ['info', 'Inbound']);
    const banned = find(n, 'p2p_peer_banned');
    assert.deepEqual([banned.level, banned.reason, banned.by], ['warn', 'ManualBan', 'operator']);
    hasFields(
      find(n, 'p2p_peer_closed', (e) => e.addr === banned.addr),
      { reason: 'string' },
    );
    find(p, 'p2p_peer_connected', (e) => e.direction === 'Outbound');
    const body = find(p, 'p2p_sync', (e) => e.status === 'body_sync');
    hasFields(body, { current_height: 'number', highest_height: 'number' });
    find(p, 'p2p_sync', (e) => e.status === 'no_sync');
    const slow = find(n, 'slow_request', (e) => String(e.path).endsWith('/ban'));
    hasFields(slow, { method: 'string', status: 'number', ms: 'number' });
    assert.deepEqual([slow.level, slow.method, slow.status], ['warn', 'POST', 200]);
  });

  it(`rolls the file at ${MAX_SIZE} bytes, keeping exactly ${MAX_FILES} rolled files`, async () => {
    assert.deepEqual(readdirSync(logDir).sort(), [
      'mwnode-server.log',
      'mwnode-server.log.0',
      'mwnode-server.log.1',
    ]);
    const files = readdirSync(logDir).map((name) => {
      const path = join(logDir, name);
      assert.ok(statSync(path).size <= MAX_SIZE, `${name}: ${statSync(path).size} bytes`);
      return { name, text: readFileSync(path, 'utf8') };
    });
    // The node runs on: what the files hold was also written to the console, but this process
    // reads that pipe a moment later.
    await new Promise((r) => setTimeout(r, 1000));
    const stderrLines = new Set(node.stderr().split('\n'));
    for (const { name, text } of files) {
      const lines = text.split('\n').filter((l) => l !== '');
      assert.ok(lines.length > 0, name);
      for (const line of lines) {
        const e = JSON.parse(line) as Event;
        hasFields(e, { level: 'string', ts: 'string', event: 'string' });
        // The console (Info) shows the same lines the file (Debug) holds at Info and above.
        if (e.level !== 'debug' && e.level !== 'trace')
          assert.ok(stderrLines.has(line), `${name} line not on the console: ${line}`);
      }
    }
    const walletLog = readFileSync(join(networkDir(a.home, 'usernet'), 'mwwallet.log'), 'utf8');
    find(events(walletLog), 'listening', (e) => e.api === 'foreign');
  });

  it('no secret appears in any log, nor in /metrics', async () => {
    const secret = ownerSecret(node.home);
    const words = phrase.split(' ');
    const secrets = [
      secret,
      basic(secret).slice('Basic '.length),
      a.password,
      phrase,
      words.slice(0, 3).join(' '),
    ];
    const netA = networkDir(a.home, 'usernet');
    const logs: [string, string][] = [
      ['node stderr', node.stderr()],
      ['peer stderr', peer?.stderr() ?? ''],
      ['wallet listener stderr', listenA?.stderr() ?? ''],
      ...readdirSync(logDir).map((f): [string, string] => [
        f,
        readFileSync(join(logDir, f), 'utf8'),
      ]),
      ...readdirSync(netA)
        .filter((f) => f.startsWith('mwwallet.log'))
        .map((f): [string, string] => [f, readFileSync(join(netA, f), 'utf8')]),
    ];
    const metrics = await fetch(`${node.url}/metrics`, {
      headers: { authorization: basic(secret) },
    });
    assert.equal(metrics.status, 200);
    logs.push(['node /metrics', await metrics.text()]);
    assert.ok(logs.length >= 7);
    for (const [name, text] of logs)
      for (const s of secrets) assert.ok(!text.includes(s), `${name} holds a secret`);
  });
});
