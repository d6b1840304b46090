// ownerReadApi (actors/wallet/owner_read.ts) on a real wallet in a temporary directory, with
// records put straight into its store: accounts and their errors, retrieve_outputs /
// retrieve_txs filters, sorting and paging with exact JSON, retrieve_summary_info, node_height's
// fallback and the refresh result when the node cannot be reached. The refresh against a real
// node is in updater.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WalletEnv } from '../../../actors/wallet/env.js';
import { lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { ownerReadApi } from '../../../actors/wallet/owner_read.js';
import { toHex } from '../../../core/bytes.js';
import { childKeyId, defaultAccountId, deriveKeyId } from '../../../core/keychain/identifier.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import { timestampFromMillis } from '../../../core/wallet/timestamp.js';
import { newTxLogEntry, type OutputData, type OutputStatus } from '../../../core/wallet/types.js';
import {
  drainStatus,
  FIXED_NOW,
  makeEnv,
  rejectsWith,
  removeDir,
  tempDir,
  txEntryJson,
} from './service_fixture.js';

let top: string;
let env: WalletEnv;
let api: ReturnType<typeof ownerReadApi>;
let token: Uint8Array;

const DEFAULT = defaultAccountId();
const OTHER = deriveKeyId(2, 1, 0);
const commitOf = (n: number) => `08${n.toString(16).padStart(2, '0').repeat(32)}`;

function output(
  parent: typeof DEFAULT,
  n: number,
  height: bigint,
  status: OutputStatus,
  value: bigint,
  tx: number | null,
  commit: string | null = commitOf(n),
): OutputData {
  return {
    rootKeyId: parent,
    keyId: childKeyId(parent, n),
    nChild: n,
    commit,
    mmrIndex: null,
    value,
    status,
    height,
    lockHeight: height,
    isCoinbase: false,
    txLogEntry: tx,
  };
}

const A = output(DEFAULT, 0, 5n, 'Unspent', 100n, 0);
const B = output(DEFAULT, 1, 3n, 'Spent', 200n, 1);
const C = output(DEFAULT, 2, 9n, 'Unconfirmed', 300n, 1);
const D = output(DEFAULT, 3, 7n, 'Locked', 400n, null, null);
const E = output(OTHER, 0, 4n, 'Unspent', 500n, null);

function outputJson(o: OutputData, commit = o.commit) {
  return {
    output: {
      root_key_id: o.rootKeyId.toHex(),
      key_id: o.keyId.toHex(),
      n_child: o.nChild,
      commit: o.commit,
      mmr_index: null,
      value: o.value.toString(),
      status: o.status,
      height: o.height.toString(),
      lock_height: o.lockHeight.toString(),
      is_coinbase: false,
      tx_log_entry: o.txLogEntry,
    },
    commit,
  };
}

const T0 = timestampFromMillis(FIXED_NOW);
const T1 = timestampFromMillis(FIXED_NOW + 1000);
const tx0 = {
  ...newTxLogEntry(DEFAULT, 'TxReceived', 0, T1),
  txSlateId: 'a6e0c5bf-0000-4000-8000-000000000001',
};
const tx1 = { ...newTxLogEntry(DEFAULT, 'TxSentCreated', 1, T0), amountDebited: 7n };
const txOther = newTxLogEntry(OTHER, 'TxReceived', 0, T0);

function txJson(t: typeof tx1, ts: string) {
  return txEntryJson({
    parent_key_id: t.parentKeyId.toHex(),
    id: t.id,
    tx_slate_id: t.txSlateId,
    tx_type: t.txType,
    creation_ts: ts,
    amount_debited: t.amountDebited.toString(),
  });
}

before(async () => {
  top = tempDir();
  env = makeEnv(top);
  const lc = lifecycleApi(env);
  await lc.createWallet(null, null, 32, 'pw');
  token = Buffer.from((await lc.openWallet(null, 'pw')) as string, 'hex');
  api = ownerReadApi(env);
  const store = env.lifecycle.store();
  for (const o of [A, B, C, D, E]) store.saveOutput(o);
  for (const t of [tx0, tx1, txOther]) store.saveTxLogEntry(t);
  store.saveLastConfirmedHeight(DEFAULT, 10n);
});

after(() => removeDir(top));

describe('accounts', () => {
  it('lists, creates (m/k/0 after the highest), refuses duplicates, switches', async () => {
    assert.deepEqual(await api.accounts(token), [
      { label: 'default', path: '0200000000000000000000000000000000' },
    ]);
    assert.equal(
      await api.createAccountPath(token, 'savings'),
      '0200000001000000000000000000000000',
    );
    assert.equal(await api.createAccountPath(token, 'spare'), '0200000002000000000000000000000000');
    await rejectsWith(api.createAccountPath(token, 'savings'), {
      AccountLabelAlreadyExists: 'savings',
    });
    await rejectsWith(api.setActiveAccount(token, 'nope'), { UnknownAccountLabel: 'nope' });
    assert.equal(await api.setActiveAccount(token, 'savings'), null);
    assert.equal(env.lifecycle.store().parentKeyId.toHex(), OTHER.toHex());
    // the other account's output only
    const r = (await api.retrieveOutputs(token, true, false, null, null, null, null)) as {
      outputs: unknown[];
    };
    assert.deepEqual(r.outputs, [outputJson(E)]);
    assert.equal(await api.setActiveAccount(token, 'default'), null);
    assert.deepEqual(await api.accounts(token), [
      { label: 'default', path: '0200000000000000000000000000000000' },
      { label: 'savings', path: '0200000001000000000000000000000000' },
      { label: 'spare', path: '0200000002000000000000000000000000' },
    ]);
  });

  it('every read checks the token', async () => {
    const bad = new Uint8Array(32).fill(7);
    await rejectsWith(api.accounts(bad), 'InvalidKeychainMask');
    await rejectsWith(api.accounts(null), 'InvalidKeychainMask');
    await rejectsWith(api.createAccountPath(bad, 'x'), 'InvalidKeychainMask');
    await rejectsWith(api.setActiveAccount(bad, 'default'), 'InvalidKeychainMask');
    await rejectsWith(
      api.retrieveOutputs(bad, false, false, null, null, null, null),
      'InvalidKeychainMask',
    );
    await rejectsWith(
      api.retrieveTxs(bad, false, null, null, null, null, null),
      'InvalidKeychainMask',
    );
    await rejectsWith(api.retrieveSummaryInfo(bad, false, 1n), 'InvalidKeychainMask');
    await rejectsWith(api.nodeHeight(bad), 'InvalidKeychainMask');
    await rejectsWith(api.scan(bad, null, false), 'InvalidKeychainMask');
  });
});

describe('retrieve_outputs', () => {
  it('default: non-Spent outputs of the account by height; a missing commit is recomputed', async () => {
    const keychain = env.lifecycle.keychain(token);
    const dCommit = toHex(keychain.commit(D.value, D.keyId, SwitchCommitmentType.Regular));
    assert.deepEqual(await api.retrieveOutputs(token, false, false, null, null, null, null), {
      refresh_from_node: false,
      pager: { records_read: 3, total_records: 3, limit: 0, offset: 0, sort_order: 'asc' },
      outputs: [outputJson(A), outputJson(D, dCommit), outputJson(C)],
    });
  });

  it('include_spent, desc, offset 1, limit 2', async () => {
    const r = (await api.retrieveOutputs(token, true, false, null, 2, 1, 'desc')) as {
      pager: unknown;
      outputs: { output: { n_child: number } }[];
    };
    assert.deepEqual(r.pager, {
      records_read: 2,
      total_records: 4,
      limit: 2,
      offset: 1,
      sort_order: 'desc',
    });
    assert.deepEqual(
      r.outputs.map((o) => o.output.n_child),
      [3, 0],
    );
  });

  it('tx_id filter; any other sort string sorts descending; an offset past the end is empty', async () => {
    const r = (await api.retrieveOutputs(token, true, false, 1, null, null, 'newest')) as {
      pager: unknown;
      outputs: unknown[];
    };
    assert.deepEqual(r.outputs, [outputJson(C), outputJson(B)]);
    assert.deepEqual(r.pager, {
      records_read: 2,
      total_records: 2,
      limit: 0,
      offset: 0,
      sort_order: 'newest',
    });
    assert.deepEqual(await api.retrieveOutputs(token, false, false, null, 5, 10, null), {
      refresh_from_node: false,
      pager: { records_read: 0, total_records: 3, limit: 5, offset: 10, sort_order: 'asc' },
      outputs: [],
    });
  });

  it('refresh with the node unreachable: refreshed false, Epic messages queued', async () => {
    drainStatus(env);
    const r = (await api.retrieveOutputs(token, false, true, null, null, null, null)) as {
      refresh_from_node: boolean;
    };
    assert.equal(r.refresh_from_node, false);
    assert.deepEqual(drainStatus(env), [
      { UpdatingOutputs: 'Updating outputs from node' },
      { UpdateWarning: 'Updater Thread unable to contact node' },
    ]);
  });
});

describe('retrieve_txs', () => {
  it('the account entries by creation time, with paging and filters', async () => {
    assert.deepEqual(await api.retrieveTxs(token, false, null, null, null, null, null), {
      refresh_from_node: false,
      pager: { records_read: 2, total_records: 2, limit: 0, offset: 0, sort_order: 'asc' },
      txs: [txJson(tx1, '2026-11-22T12:00:00Z'), txJson(tx0, '2026-11-22T12:00:01Z')],
    });
    const bySlate = (await api.retrieveTxs(
      token,
      false,
      null,
      tx0.txSlateId,
      null,
      null,
      'desc',
    )) as {
      txs: { id: number }[];
    };
    assert.deepEqual(
      bySlate.txs.map((t) => t.id),
      [0],
    );
    const byId = (await api.retrieveTxs(token, false, 1, null, 1, 0, null)) as {
      pager: unknown;
      txs: { id: number }[];
    };
    assert.deepEqual(
      byId.txs.map((t) => t.id),
      [1],
    );
    assert.deepEqual(byId.pager, {
      records_read: 1,
      total_records: 1,
      limit: 1,
      offset: 0,
      sort_order: 'asc',
    });
  });
});

describe('retrieve_summary_info and node_height', () => {
  it('WalletInfo of the active account at the stored last confirmed height', async () => {
    assert.deepEqual(await api.retrieveSummaryInfo(token, false, 1n), [
      false,
      {
        last_confirmed_height: '10',
        minimum_confirmations: '1',
        total: '500',
        amount_awaiting_finalization: '300',
        amount_awaiting_confirmation: '0',
        amount_immature: '0',
        amount_currently_spendable: '100',
        amount_locked: '400',
      },
    ]);
    const zero = (await api.retrieveSummaryInfo(token, false, 0n)) as [
      boolean,
      { [k: string]: string },
    ];
    assert.equal(zero[1].amount_awaiting_confirmation, '300');
    assert.equal(zero[1].amount_awaiting_finalization, '0');
  });

  it('node_height falls back to the highest output height of the account (Spent included)', async () => {
    assert.deepEqual(await api.nodeHeight(token), {
      height: '9',
      header_hash: '',
      updated_from_node: false,
    });
  });

  it('scan with the node unreachable fails with the node client error', async () => {
    await assert.rejects(api.scan(token, null, false), (e: unknown) => {
      const err = (e as { err: { ClientCallback: string } }).err;
      assert.match(err.ClientCallback, /^Error calling get_tip: /);
      return true;
    });
  });
});
