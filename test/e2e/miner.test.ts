// The local test miner inside the real node (automated testing, Cuckatoo-only policy): with
// `run_test_miner = true` the tip climbs on its own, every block it announces is one the node
// accepted (the tip passes through each hash, validate_chain holds), the console shows one line
// per block and where the API and its secret are; SIGTERM stops it cleanly. With
// `test_miner_wallet_url` the coinbases come from a (stand-in) wallet's build_coinbase. Without
// the RandomX addon a RandomX schedule stops the miner with a clear message; the node serves on.
//
// The usernet acceptance of `npm start` (height ≥ 10 within 3 minutes, RandomX + ProgPoW +
// Cuckatoo at difficulty 1) takes 20–60 s here, most of it building the ProgPoW epoch cache
// (once: the miner and the verifiers share it on disk).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { fromHex, toHex } from '../../core/bytes.js';
import { coinbaseOutput } from '../../core/chain/coinbase.js';
import { reward } from '../../core/consensus/rewards.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { kernelToJson, outputToJson, transactionToJson } from '../../core/serde/transaction.js';
import { MINER_KEYCHAIN } from '../support/coinbases.js';
import { foreignOk, foreignRpc } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  removeHome,
  spawnNode,
  startNodeProcess,
  tempHome,
  writeConfig,
} from '../support/node_process.js';
import { SPEND_FEE, spendCoinbase } from '../support/spend.js';

interface Tip {
  readonly height: number;
  readonly last_block_pushed: string;
}

interface Mined {
  readonly height: string;
  readonly algorithm: string;
  readonly hash: string;
  readonly txs: number;
  readonly status: string;
}

const tip = async (node: NodeProcess): Promise<Tip> =>
  (await foreignOk(node.url, 'get_tip', [])) as unknown as Tip;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls get_tip until `height`; every tip seen is recorded. */
async function waitForHeight(node: NodeProcess, height: number, ms: number): Promise<Tip[]> {
  const seen: Tip[] = [];
  const until = Date.now() + ms;
  for (;;) {
    const t = await tip(node);
    if (seen.at(-1)?.last_block_pushed !== t.last_block_pushed) seen.push(t);
    if (t.height >= height) return seen;
    if (Date.now() > until)
      assert.fail(`height ${t.height} after ${ms} ms, wanted ${height}:\n${node.stderr()}`);
    await sleep(100);
  }
}

function minedLines(stderr: string): Mined[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes('"event":"block_mined"'))
    .map((l) => JSON.parse(l) as Mined);
}

function stdoutOf(node: NodeProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    node.proc.stdout?.setEncoding('utf8');
    node.proc.stdout?.on('data', (c: string) => {
      out += c;
    });
    node.proc.on('exit', () => resolve(out));
  });
}

/** The node on usernet with its default configuration (the test miner on), as `npm start`. */
function startUsernet(): Promise<NodeProcess> {
  const home = tempHome();
  const configFile = writeConfig(home, [], true, 'usernet');
  return spawnNode({ home, configFile, chainFlag: '--usernet' });
}

const OK = { id: 1, jsonrpc: '2.0', result: { Ok: null } };

async function validateChain(node: NodeProcess): Promise<unknown> {
  const r = await fetch(`${node.url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: basic(ownerSecret(node.home)) },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'validate_chain', params: [], id: 1 }),
  });
  assert.equal(r.status, 200);
  return JSON.parse(await r.text());
}

describe('the local test miner', { timeout: 240_000 }, () => {
  const nodes: NodeProcess[] = [];
  // A failed assertion must not leave a node running (it would keep the test process alive).
  after(async () => {
    for (const node of nodes) {
      await node.stop();
      removeHome(node.home);
    }
  });

  it('mines valid blocks on automated testing, one console line each, and stops on SIGTERM', async () => {
    const node = await startNodeProcess({
      serverLines: ['pow_policy = { cuckatoo = 100 }', 'run_test_miner = true'],
    });
    nodes.push(node);
    const stdout = stdoutOf(node);
    const seen = await waitForHeight(node, 5, 90_000);
    assert.deepEqual(await validateChain(node), OK);
    assert.equal(await node.stop(), 0);

    const mined = minedLines(node.stderr());
    assert.ok(mined.length >= 5, node.stderr());
    // Heights 1, 2, … in order, each extending the head, each hash a tip the API showed.
    assert.deepEqual(
      mined.map((m) => m.height),
      mined.map((_, i) => String(i + 1)),
    );
    const tips = new Map(seen.map((t) => [t.height, t.last_block_pushed]));
    for (const m of mined) {
      assert.deepEqual([m.algorithm, m.status, m.txs], ['cuckatoo', 'next', 0]);
      const shown = tips.get(Number(m.height));
      if (shown !== undefined) assert.equal(shown, m.hash, `block ${m.height}`);
    }
    assert.ok(!node.stderr().includes('test_miner_block_refused'), node.stderr());
    assert.match(node.stderr(), /"event":"test_miner_stopped","code":null,"message":null/);

    const lines = (await stdout).trimEnd().split('\n');
    assert.equal(
      lines[0],
      `mwnode automated: API on ${node.url}, owner secret (user "node") in ${node.home}/.api_secret`,
    );
    assert.deepEqual(
      lines.slice(1, mined.length + 1),
      mined.map((m) => `block ${m.height}  cuckatoo  ${m.hash}  txs 0`),
    );
  });

  it('pays the coinbases a wallet builds, then mines a pushed transaction', async () => {
    // The stand-in wallet pays block h to m/2/0/h of the test keychain, so the coinbase of
    // block 1 is one spendCoinbase(1) spends once mature.
    const asked: { fees: string; height: string; key_id: string | null }[] = [];
    const wallet = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const fees = (JSON.parse(body) as { params: { block_fees: (typeof asked)[0] } }).params
          .block_fees;
        asked.push(fees);
        const height = BigInt(fees.height);
        const keyId =
          fees.key_id === null ? deriveKeyId(2, 0, Number(height)).toBytes() : fromHex(fees.key_id);
        assert.ok(keyId !== null && req.url === '/v2/foreign');
        const value = reward('automated', BigInt(fees.fees), height);
        const cb = coinbaseOutput(MINER_KEYCHAIN, keyId, value);
        const Ok = {
          output: outputToJson(cb.output),
          kernel: kernelToJson(cb.kernel),
          key_id: toHex(keyId),
        };
        res.end(JSON.stringify({ id: 1, jsonrpc: '2.0', result: { Ok } }));
      });
    });
    await new Promise<void>((r) => wallet.listen(0, '127.0.0.1', r));
    const walletUrl = `http://127.0.0.1:${(wallet.address() as AddressInfo).port}`;
    try {
      const node = await startNodeProcess({
        serverLines: [
          'pow_policy = { cuckatoo = 100 }',
          'run_test_miner = true',
          `test_miner_wallet_url = "${walletUrl}"`,
        ],
      });
      nodes.push(node);
      await waitForHeight(node, 4, 90_000);
      assert.deepEqual(await validateChain(node), OK);
      const tx = spendCoinbase(1);
      const pushed = await foreignRpc(node.url, 'push_transaction', [transactionToJson(tx), true]);
      assert.deepEqual(pushed.body.result, { Ok: null });
      const until = Date.now() + 60_000;
      while (!minedLines(node.stderr()).some((m) => m.txs === 1)) {
        assert.ok(Date.now() < until, node.stderr());
        await sleep(100);
      }
      const live = await validateChain(node);
      assert.equal(await foreignOk(node.url, 'get_pool_size', []), 0);
      assert.equal(await node.stop(), 0);
      // The same chain, restarted without the miner, validates.
      const again = await startNodeProcess({ home: node.home });
      nodes.push(again);
      assert.deepEqual(await validateChain(again), OK);
      // The running node validated too, while its miner kept finalizing templates.
      assert.deepEqual(live, OK);
      assert.match(
        node.stderr(),
        new RegExp(`"event":"test_miner_started","chain":"automated","coinbase":"${walletUrl}"`),
      );
      assert.ok(!node.stderr().includes('test_miner_block_refused'), node.stderr());
      // One coinbase per mined height, a new derivation each; the fees of the block with the
      // transaction went to its coinbase.
      const mined = minedLines(node.stderr());
      const withTx = mined.find((m) => m.txs === 1);
      assert.ok(withTx !== undefined);
      const paid = asked.filter((a) => mined.some((m) => m.height === a.height));
      assert.deepEqual(
        paid.map((a) => [a.height, a.fees, a.key_id]),
        mined.map((m) => [m.height, m.txs === 1 ? String(SPEND_FEE) : '0', null]),
      );
    } finally {
      wallet.close();
    }
  });

  it('stops with a clear message when the schedule asks for RandomX and the addon is off', async () => {
    process.env.MWNODE_RANDOMX_BACKEND = 'none';
    let node: NodeProcess;
    try {
      node = await startNodeProcess({
        serverLines: ['pow_policy = { randomx = 100 }', 'run_test_miner = true'],
      });
    } finally {
      delete process.env.MWNODE_RANDOMX_BACKEND;
    }
    nodes.push(node);
    const until = Date.now() + 30_000;
    while (!node.stderr().includes('"event":"test_miner_stopped"')) {
      assert.ok(Date.now() < until, node.stderr());
      await sleep(100);
    }
    assert.match(
      node.stderr(),
      /"event":"test_miner_stopped","code":"RandomXUnavailable","message":"the schedule asks for RandomX and the native RandomX addon is not built/,
    );
    // The node goes on serving.
    assert.equal((await tip(node)).height, 0);
    assert.equal(await node.stop(), 0);
  });

  it('usernet: height 10 within 3 minutes (npm start acceptance)', async () => {
    const started = Date.now();
    const node = await startUsernet();
    nodes.push(node);
    await waitForHeight(node, 10, 180_000);
    const algorithms = new Set(minedLines(node.stderr()).map((m) => m.algorithm));
    process.stderr.write(`usernet: height 10 after ${Date.now() - started} ms\n`);
    assert.deepEqual(await validateChain(node), OK);
    assert.ok(algorithms.has('randomx') && algorithms.has('progpow'), [...algorithms].join());
    assert.equal(await node.stop(), 0);
  });
});
