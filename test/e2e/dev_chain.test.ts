// `npm start`'s dev chain keeps making blocks (issue 16, item 6): the node runs the config that
// scripts/start.mjs writes (config/dev_chain.ts: usernet, RandomX and Cuckatoo only, the test
// miner mining through the node's stratum server, which pays the dev wallet; issue 21, item 4),
// on free ports, with a real dev wallet listening. Usernet's own
// schedule stalled its CPU miner at height 51 (ProgPoW, difficulty 200,000); this chain passes it
// with both algorithms, every block's coinbase lands in the wallet, and its spendable balance
// keeps growing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { devChainConfig } from '../../config/dev_chain.js';
import { CONFIG_FILE_NAME, ensureNetworkDir } from '../../config/home.js';
import { writeConfigFile } from '../../config/load.js';
import { reward } from '../../core/consensus/rewards.js';
import { findRandomXAddon } from '../../jobs/randomx_addon.js';
import { type NodeProcess, removeHome, spawnNode, tempHome } from '../support/node_process.js';
import {
  info,
  initWallet,
  minedBlocks,
  nanos,
  ok,
  type Summary,
  tableRows,
  waitUntil,
} from '../support/wallet_e2e.js';
import {
  freePort,
  startWalletListener,
  type TestWallet,
  testWallet,
  type WalletListener,
} from '../support/wallet_process.js';

/** Ten blocks past the height where usernet's own schedule stalls the CPU miner. */
const PAST_STALL = 61;

const spendable = (s: Summary): bigint => s.rows['Currently Spendable'] ?? 0n;

describe('npm start: the dev chain keeps mining and paying the dev wallet', {
  timeout: 300_000,
}, () => {
  const home = tempHome();
  let node: NodeProcess | undefined;
  let listener: WalletListener | undefined;
  let wallet: TestWallet;
  const randomx = findRandomXAddon() !== null;

  before(async () => {
    const netDir = ensureNetworkDir(home, 'usernet');
    const walletPort = await freePort();
    const config = devChainConfig({ networkDir: netDir, randomx });
    const configFile = join(netDir, CONFIG_FILE_NAME);
    writeConfigFile(configFile, {
      ...config,
      apiHttpAddr: { host: '127.0.0.1', port: 0 },
      p2p: { ...config.p2p, host: '127.0.0.1', port: 0 },
      testMinerWalletUrl: `http://127.0.0.1:${walletPort}`,
      stratum: {
        ...config.stratum,
        stratumServerAddr: { host: '127.0.0.1', port: 0 },
        walletListenerUrl: `http://127.0.0.1:${walletPort}`,
      },
    });
    node = await spawnNode({ home, configFile, chainFlag: '--usernet', stdout: 'ignore' });
    const secretPath = config.apiSecretPath ?? assert.fail('the dev chain has an owner secret');
    wallet = testWallet(home, 'usernet', { url: node.url, secretPath }, { foreign: walletPort });
    await initWallet(wallet);
    listener = await startWalletListener(wallet, 'listen', ['-l', String(walletPort)]);
  });

  after(async () => {
    await listener?.stop();
    await node?.stop();
    removeHome(home);
  });

  it(`passes height ${PAST_STALL} with RandomX and Cuckatoo, the balance growing`, async () => {
    const live = node as NodeProcess;
    await waitUntil(
      () => minedBlocks(live).length >= PAST_STALL - 10,
      200_000,
      () => live.stderr().slice(-2000),
    );
    const first = await info(wallet);
    await waitUntil(
      () => minedBlocks(live).length >= PAST_STALL,
      100_000,
      () => live.stderr().slice(-2000),
    );
    const second = await info(wallet);
    assert.ok(
      second.height >= BigInt(PAST_STALL),
      `wallet at ${second.height}; mined: ${minedBlocks(live)
        .map((m) => JSON.stringify(m))
        .join(' ')}`,
    );
    assert.ok(spendable(second) > spendable(first), `${spendable(first)} → ${spendable(second)}`);
    assert.equal(live.stderr().includes('test_miner_out_of_reach'), false);
    // Every block came through stratum: found by the miner, accepted by the stratum server.
    const accepted = live.stderr().match(/"event":"stratum_block_accepted"/g) ?? [];
    assert.equal(accepted.length, minedBlocks(live).length);
    assert.match(
      live.stderr(),
      /"event":"test_miner_started","chain":"usernet","coinbase":"stratum"/,
    );
    // One block per height: the miner never forks its own block with a later job of its height.
    const heights = minedBlocks(live).map((m) => m.height);
    assert.equal(new Set(heights).size, heights.length, heights.join(' '));
    const algorithms = new Set(minedBlocks(live).map((m) => m.algorithm));
    assert.deepEqual([...algorithms].sort(), randomx ? ['cuckatoo', 'randomx'] : ['cuckatoo']);
    // Every block up to the wallet's height paid the dev wallet exactly usernet's reward.
    const coinbases = tableRows(await ok(wallet, ['outputs'])).filter(
      (o) => o['Coinbase?'] === 'true' && BigInt(o['Block Height'] ?? '0') <= second.height,
    );
    assert.deepEqual(
      coinbases.map((o) => Number(o['Block Height'])).sort((x, y) => x - y),
      Array.from({ length: Number(second.height) }, (_, i) => i + 1),
    );
    for (const o of coinbases) {
      const h = BigInt(o['Block Height'] ?? '');
      assert.equal(nanos(o.Value ?? ''), reward('usernet', 0n, h), `block ${h}`);
    }
  });
});
