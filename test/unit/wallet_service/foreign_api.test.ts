// foreignApi (actors/wallet/foreign_api.ts) on a real wallet: check_version, build_coinbase's
// key choice (next child, reuse of a stored unconfirmed key, a foreign key id ignored), the
// Unconfirmed coinbase record it saves, build_foundation, the closed-wallet error, and the sync
// flag (sync.ts) with an unreachable node. Mining these coinbases is in updater.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WalletEnv } from '../../../actors/wallet/env.js';
import { CHECK_VERSION_RESULT, foreignApi } from '../../../actors/wallet/foreign_api.js';
import { lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { ownerReadApi } from '../../../actors/wallet/owner_read.js';
import { pollSyncOnce, startSyncPoller } from '../../../actors/wallet/sync.js';
import { fromHex, toHex } from '../../../core/bytes.js';
import { foundationPayout } from '../../../core/consensus/rewards.js';
import { verifyKernel } from '../../../core/crypto/kernel.js';
import type { JsonValue } from '../../../core/json/value.js';
import { Identifier } from '../../../core/keychain/identifier.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import { kernelFromJson } from '../../../core/serde/transaction.js';
import { coinbaseValue } from '../../../core/wallet/coinbase.js';
import { makeEnv, rejectsWith, removeDir, tempDir } from './service_fixture.js';

let top: string;
let env: WalletEnv;
let api: ReturnType<typeof foreignApi>;
let lc: ReturnType<typeof lifecycleApi>;
let token: Uint8Array;

type CbData = {
  output: { [k: string]: JsonValue };
  kernel: { [k: string]: JsonValue };
  key_id: string;
};

const keyBytes = (hex: string) => fromHex(hex) as Uint8Array;

before(async () => {
  top = tempDir();
  env = makeEnv(top);
  lc = lifecycleApi(env);
  api = foreignApi(env);
  await lc.createWallet(null, null, 32, 'pw');
});

after(() => removeDir(top));

describe('closed wallet', () => {
  it('check_version and build_coinbase need an open wallet', async () => {
    await rejectsWith(api.checkVersion(), { Lifecycle: 'Wallet has not been opened' });
    await rejectsWith(api.buildCoinbase({ fees: 0n, height: 1n, keyId: null }), {
      Lifecycle: 'Wallet has not been opened',
    });
    token = Buffer.from((await lc.openWallet(null, 'pw')) as string, 'hex');
  });
});

describe('check_version', () => {
  it('is Epic result exactly', async () => {
    assert.deepEqual(await api.checkVersion(), {
      foreign_api_version: 2,
      supported_slate_versions: ['V3', 'V2'],
    });
    assert.equal(await api.checkVersion(), CHECK_VERSION_RESULT);
  });
});

describe('build_coinbase', () => {
  let first: CbData;

  it('pays reward(fees, height) to the next child, saves it Unconfirmed with lock height +3', async () => {
    first = (await api.buildCoinbase({ fees: 7n, height: 10n, keyId: null })) as CbData;
    const value = coinbaseValue('automated', 7n, 10n);
    const keyId = '0300000000000000000000000000000000';
    assert.equal(first.key_id, keyId);
    const keychain = env.lifecycle.keychain(token);
    const commit = toHex(
      keychain.commit(value, Identifier.fromHex(keyId), SwitchCommitmentType.Regular),
    );
    assert.equal(first.output.features, 'Coinbase');
    assert.equal(first.output.commit, commit);
    assert.equal((first.output.proof as string).length, 1350);
    assert.equal(first.kernel.features, 'Coinbase');
    assert.equal(first.kernel.fee, '0');
    assert.equal(first.kernel.lock_height, '0');
    assert.ok(verifyKernel(kernelFromJson(first.kernel, 'kernel')));
    const read = ownerReadApi(env);
    assert.deepEqual(await read.retrieveOutputs(token, true, false, null, null, null, null), {
      refresh_from_node: false,
      pager: { records_read: 1, total_records: 1, limit: 0, offset: 0, sort_order: 'asc' },
      outputs: [
        {
          output: {
            root_key_id: '0200000000000000000000000000000000',
            key_id: keyId,
            n_child: 0,
            commit,
            mmr_index: null,
            value: value.toString(),
            status: 'Unconfirmed',
            height: '10',
            lock_height: '13',
            is_coinbase: true,
            tx_log_entry: null,
          },
          commit,
        },
      ],
    });
    assert.equal(env.lifecycle.store().currentChildIndex(env.lifecycle.store().parentKeyId), 1);
  });

  it('a miner key id naming a stored output is reused; an unknown one is not', async () => {
    const reused = (await api.buildCoinbase({
      fees: 0n,
      height: 11n,
      keyId: keyBytes(first.key_id),
    })) as CbData;
    assert.equal(reused.key_id, first.key_id);
    const store = env.lifecycle.store();
    assert.equal(store.currentChildIndex(store.parentKeyId), 1);
    // the record under that key now describes the new coinbase
    const o = store.getOutput(Identifier.fromHex(first.key_id), null);
    assert.equal(o?.height, 11n);
    assert.equal(o?.value, coinbaseValue('automated', 0n, 11n));
    assert.equal(store.outputs().length, 1);

    const unknown = (await api.buildCoinbase({
      fees: 0n,
      height: 12n,
      keyId: keyBytes('0300000000000000000000000900000000'),
    })) as CbData;
    assert.equal(unknown.key_id, '0300000000000000000000000100000000');
    const next = (await api.buildCoinbase({ fees: 0n, height: 12n, keyId: null })) as CbData;
    assert.equal(next.key_id, '0300000000000000000000000200000000');
    assert.equal(store.outputs().length, 3);
  });

  it('build_foundation pays the levy at a foundation height and refuses other heights', async () => {
    let h = 1n;
    while (foundationPayout('automated', h) === 0n) h += 1n;
    const cb = (await api.buildFoundation({ fees: 0n, height: h, keyId: null })) as CbData;
    const o = env.lifecycle.store().getOutput(Identifier.fromHex(cb.key_id), null);
    assert.equal(o?.value, foundationPayout('automated', h));
    assert.equal(o?.isCoinbase, true);
    assert.equal(o?.lockHeight, h + 3n);
    await rejectsWith(api.buildFoundation({ fees: 0n, height: h + 1n, keyId: null }), {
      GenericError: `height ${h + 1n} is not a foundation height`,
    });
  });
});

describe('sync flag', () => {
  it('isNodeSynced follows the poller; an unreachable node is not synced', async () => {
    assert.equal(api.isNodeSynced(), false);
    env.synced = true;
    assert.equal(api.isNodeSynced(), true);
    assert.equal(await pollSyncOnce(env), false);
    assert.equal(api.isNodeSynced(), false);
    env.synced = true;
    const stop = startSyncPoller(env, 10);
    for (let i = 0; i < 100 && env.synced; i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    assert.equal(env.synced, false);
  });
});
