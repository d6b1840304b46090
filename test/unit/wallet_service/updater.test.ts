// update_wallet_state (actors/wallet/updater.ts) and the updater methods against a real node on
// the automated-testing chain (coinbase maturity 3): blocks whose coinbases the wallet built
// through build_coinbase (one of them by key reuse) are mined, then a refresh turns them from
// Unconfirmed to Unspent with ConfirmedCoinbase entries and the right immature/spendable split;
// the kernel step, TTL cancellation and its not-cancellable stop; node_height; start/stop of the
// updater loop; the sync poller.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WalletEnv } from '../../../actors/wallet/env.js';
import { foreignApi } from '../../../actors/wallet/foreign_api.js';
import { lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { ownerReadApi } from '../../../actors/wallet/owner_read.js';
import { startSyncPoller } from '../../../actors/wallet/sync.js';
import { updateWalletState } from '../../../actors/wallet/updater.js';
import { isUpdaterRunning, updaterApi } from '../../../actors/wallet/updater_api.js';
import { fromHex } from '../../../core/bytes.js';
import type { JsonValue } from '../../../core/json/value.js';
import { childKeyId, defaultAccountId, Identifier } from '../../../core/keychain/identifier.js';
import { coinbaseValue } from '../../../core/wallet/coinbase.js';
import { amountAsFloat } from '../../../core/wallet/scan_match.js';
import { timestampFromMillis } from '../../../core/wallet/timestamp.js';
import { newTxLogEntry } from '../../../core/wallet/types.js';
import { type KillableNode, startKillable } from '../../support/killable_node.js';
import { foreignOk } from '../../support/miner.js';
import { ownerSecret, removeHome } from '../../support/node_process.js';
import {
  coinbaseEntryJson,
  drainStatus,
  FIXED_NOW,
  type MinedBlock,
  makeEnv,
  mineCbData,
  mineWithWallet,
  rejectsWith,
  removeDir,
  tempDir,
} from './service_fixture.js';

let node: KillableNode;
let top: string;
let env: WalletEnv;
let token: Uint8Array;
let read: ReturnType<typeof ownerReadApi>;
const mined: MinedBlock[] = [];
let pending: { [k: string]: JsonValue };

const DEFAULT = defaultAccountId();
const v = (h: bigint) => coinbaseValue('automated', 0n, h);
const sum = (hs: bigint[]) => hs.reduce((s, h) => s + v(h), 0n).toString();
const commitOf = (m: MinedBlock) => (m.cb.output as { commit: string }).commit;
const excessOf = (m: MinedBlock) => (m.cb.kernel as { excess: string }).excess;

before(async () => {
  node = await startKillable();
  top = tempDir();
  const secret = (ownerSecret(node.home).split(/\r?\n/)[0] ?? '').trim();
  env = makeEnv(top, node.url, secret);
  const lc = lifecycleApi(env);
  await lc.createWallet(null, null, 32, 'pw');
  token = Buffer.from((await lc.openWallet(null, 'pw')) as string, 'hex');
  read = ownerReadApi(env);
  const foreign = foreignApi(env);
  for (let i = 0; i < 4; i++) mined.push(await mineWithWallet(node.url, foreign));
  // height 5: a first coinbase the miner could not use, then the same key again (reuse)
  const template = (await foreignOk(node.url, 'get_block_template', [])) as {
    [k: string]: JsonValue;
  };
  const unused = (await foreign.buildCoinbase({ fees: 0n, height: 5n, keyId: null })) as {
    key_id: string;
  };
  const again = (await foreign.buildCoinbase({
    fees: 0n,
    height: 5n,
    keyId: fromHex(unused.key_id),
  })) as { [k: string]: JsonValue };
  assert.equal(again.key_id, unused.key_id);
  mined.push(await mineCbData(node.url, template, again));
  // height 6: built, never mined
  pending = (await foreign.buildCoinbase({ fees: 0n, height: 6n, keyId: null })) as {
    [k: string]: JsonValue;
  };
});

after(async () => {
  await node.stop();
  removeHome(node.home);
  removeDir(top);
});

describe('refresh after mining the wallet coinbases (tip 5)', () => {
  it('retrieve_summary_info: refreshed, immature (lock > 5) vs spendable', async () => {
    drainStatus(env);
    assert.deepEqual(await read.retrieveSummaryInfo(token, true, 1n), [
      true,
      {
        last_confirmed_height: '5',
        minimum_confirmations: '1',
        total: sum([1n, 2n, 3n, 4n, 5n]),
        amount_awaiting_finalization: '0',
        amount_awaiting_confirmation: '0',
        amount_immature: sum([3n, 4n, 5n]),
        amount_currently_spendable: sum([1n, 2n]),
        amount_locked: '0',
      },
    ]);
  });

  it('outputs: Unspent at their block heights with MMR indices, the unmined one Unconfirmed', async () => {
    const where = await env.node.getOutputs(mined.map(commitOf));
    const expected = mined.map((m, i) => {
      const h = BigInt(i + 1);
      const commit = commitOf(m);
      return {
        output: {
          root_key_id: DEFAULT.toHex(),
          key_id: childKeyId(DEFAULT, i).toHex(),
          n_child: i,
          commit,
          mmr_index: where.get(commit)?.mmrIndex.toString() ?? 'missing',
          value: v(h).toString(),
          status: 'Unspent',
          height: h.toString(),
          lock_height: (h + 3n).toString(),
          is_coinbase: true,
          tx_log_entry: i,
        },
        commit,
      };
    });
    const pendingCommit = (pending.output as { commit: string }).commit;
    expected.push({
      output: {
        root_key_id: DEFAULT.toHex(),
        key_id: childKeyId(DEFAULT, 5).toHex(),
        n_child: 5,
        commit: pendingCommit,
        mmr_index: null as unknown as string,
        value: v(6n).toString(),
        status: 'Unconfirmed',
        height: '6',
        lock_height: '9',
        is_coinbase: true,
        tx_log_entry: null as unknown as number,
      },
      commit: pendingCommit,
    });
    assert.deepEqual(await read.retrieveOutputs(token, false, false, null, null, null, null), {
      refresh_from_node: false,
      pager: { records_read: 6, total_records: 6, limit: 0, offset: 0, sort_order: 'asc' },
      outputs: expected,
    });
  });

  it('txs: one ConfirmedCoinbase entry per mined coinbase, kernel excess and heights', async () => {
    const r = (await read.retrieveTxs(token, false, null, null, null, null, null)) as {
      txs: JsonValue[];
    };
    assert.deepEqual(
      r.txs,
      mined.map((m, i) =>
        coinbaseEntryJson(i, v(BigInt(i + 1)), {
          confirmation_height: 5,
          kernel_excess: excessOf(m),
          kernel_lookup_min_height: 5,
        }),
      ),
    );
  });

  it('progress messages, scanned block and init status of that refresh', async () => {
    const messages = drainStatus(env) as { [k: string]: JsonValue }[];
    assert.deepEqual(messages.slice(0, 3), [
      { UpdatingOutputs: 'Updating outputs from node' },
      { UpdatingTransactions: 'Updating transactions' },
      { Scanning: ['Starting UTXO scan', 0] },
    ]);
    const checking = messages[3]?.Scanning as [string, number];
    assert.match(
      checking[0],
      /^Checking \d+ outputs \(from PMMR index \d+ to \d+, highest: \d+\)\.$/,
    );
    assert.equal(checking[1], 99);
    const where = await env.node.getOutputs([commitOf(mined[0] as MinedBlock)]);
    const first = mined[0] as MinedBlock;
    assert.deepEqual(messages[4], {
      Scanning: [
        `\nOutput found:\ncommit: ${commitOf(first)},\namount: ${amountAsFloat(v(1n))},\nkeyid: ${childKeyId(DEFAULT, 0).toHex()},\nmmr index: ${where.get(commitOf(first))?.mmrIndex}\n`,
        99,
      ],
    });
    assert.deepEqual(messages.slice(-2), [
      { Scanning: ['Identified 5 wallet_outputs as belonging to this wallet', 99] },
      { ScanningComplete: 'Scanning Complete' },
    ]);
    assert.equal(messages.length, 3 + 1 + 5 + 2);
    const store = env.lifecycle.store();
    assert.equal(store.initStatus(), 'InitComplete');
    const tip = await env.node.getTip();
    const scanned = store.lastScannedBlock();
    assert.equal(scanned.height, 5n);
    assert.equal(scanned.hash, tip.lastBlockPushed);
  });

  it('node_height from the node', async () => {
    const tip = await env.node.getTip();
    assert.deepEqual(await read.nodeHeight(token), {
      height: '5',
      header_hash: tip.lastBlockPushed,
      updated_from_node: true,
    });
  });
});

describe('kernels and TTL', () => {
  const ts = timestampFromMillis(FIXED_NOW);

  it('a kernel on chain confirms its entry at the tip; an expired TxSentCreated is cancelled', async () => {
    const store = env.lifecycle.store();
    const byKernel = {
      ...newTxLogEntry(DEFAULT, 'TxReceived', 100, ts),
      kernelExcess: excessOf(mined[0] as MinedBlock),
      kernelLookupMinHeight: 1n,
    };
    const expired = { ...newTxLogEntry(DEFAULT, 'TxSentCreated', 101, ts), ttlCutoffHeight: 3n };
    const change = {
      rootKeyId: DEFAULT,
      keyId: childKeyId(DEFAULT, 50),
      nChild: 50,
      commit: `08${'ab'.repeat(32)}`,
      mmrIndex: null,
      value: 5n,
      status: 'Unconfirmed' as const,
      height: 5n,
      lockHeight: 5n,
      isCoinbase: false,
      txLogEntry: 101,
    };
    store.saveTxLogEntry(byKernel);
    store.saveTxLogEntry(expired);
    store.saveOutput(change);
    assert.equal(await updateWalletState(env, env.lifecycle.keychain(token), false), true);
    const k = store.txLogEntry(DEFAULT, 100);
    assert.equal(k?.confirmed, true);
    assert.equal(k?.confirmationHeight, 5n);
    assert.equal(store.txLogEntry(DEFAULT, 101)?.txType, 'TxSentCancelled');
    assert.equal(store.getOutput(change.keyId, null), null);
    drainStatus(env);
  });

  it('the updater loop: messages, refresh forced off while it runs, stop', async () => {
    const up = updaterApi(env);
    assert.equal(await up.startUpdater(token, 20), null);
    assert.equal(isUpdaterRunning(env), true);
    for (let i = 0; i < 200 && env.status.size < 4; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const r = (await read.retrieveOutputs(token, false, true, null, null, null, null)) as {
      refresh_from_node: boolean;
    };
    assert.equal(r.refresh_from_node, false);
    assert.equal(await up.stopUpdater(), null);
    assert.equal(isUpdaterRunning(env), false);
    assert.deepEqual(await up.getUpdaterMessages(2), [
      { UpdatingTransactions: 'Updating transactions' },
      { UpdatingOutputs: 'Updating outputs from node' },
    ]);
    await rejectsWith(up.startUpdater(new Uint8Array(32).fill(1), 20), 'InvalidKeychainMask');
    await rejectsWith(up.getPublicAddress(token, 0), {
      GenericError: 'Epicbox is not supported by mwwallet',
    });
    await rejectsWith(up.setEpicboxConfig(null), {
      GenericError: 'Epicbox is not supported by mwwallet',
    });
    await rejectsWith(up.setTorConfig(null), { GenericError: 'Tor is not supported by mwwallet' });
    await rejectsWith(up.proofAddressFromOnionV3('x'), {
      GenericError: 'Tor is not supported by mwwallet',
    });
    drainStatus(env);
  });

  it('an expired TxSent entry is not cancellable: the refresh fails with its id', async () => {
    const store = env.lifecycle.store();
    store.saveTxLogEntry({ ...newTxLogEntry(DEFAULT, 'TxSent', 102, ts), ttlCutoffHeight: 2n });
    await rejectsWith(updateWalletState(env, env.lifecycle.keychain(token), false), {
      TransactionNotCancellable: '102',
    });
    store.saveTxLogEntry({ ...newTxLogEntry(DEFAULT, 'TxSent', 102, ts), confirmed: true });
  });
});

describe('sync poller against the node', () => {
  it('sets env.synced from get_status (no_sync)', async () => {
    env.synced = false;
    const stop = startSyncPoller(env, 10_000);
    for (let i = 0; i < 200 && !env.synced; i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    assert.equal(env.synced, true);
    assert.ok(Identifier.fromHex(DEFAULT.toHex()).equals(DEFAULT));
  });
});
