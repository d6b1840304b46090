// Restore scan (actors/wallet/scan_wallet.ts) against a real node on the automated-testing
// chain: wallet A mines three blocks with coinbases it built and keeps one unmined coinbase; a
// second wallet recovered from A's recovery phrase scans on its first refresh (FullScanWarn)
// and ends with A's confirmed outputs and balance, "Restore" log entries and the child counter
// past the highest key found; a repeated scan changes nothing; scan with delete_unconfirmed
// drops A's unmined coinbase; a Spent output still in the UTXO set comes back as Unspent; a
// store failure during reconciliation leaves nothing behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { WalletEnv } from '../../../actors/wallet/env.js';
import { foreignApi } from '../../../actors/wallet/foreign_api.js';
import { lifecycleApi } from '../../../actors/wallet/lifecycle_api.js';
import { ownerReadApi } from '../../../actors/wallet/owner_read.js';
import type { JsonValue } from '../../../core/json/value.js';
import { childKeyId, defaultAccountId } from '../../../core/keychain/identifier.js';
import { coinbaseValue } from '../../../core/wallet/coinbase.js';
import { type KillableNode, startKillable } from '../../support/killable_node.js';
import { ownerSecret, removeHome } from '../../support/node_process.js';
import {
  coinbaseEntryJson,
  drainStatus,
  makeEnv,
  mineWithWallet,
  removeDir,
  tempDir,
} from './service_fixture.js';

interface Wallet {
  readonly env: WalletEnv;
  readonly token: Uint8Array;
  readonly read: ReturnType<typeof ownerReadApi>;
}

let node: KillableNode;
let secret: string;
const dirs: string[] = [];
let a: Wallet;
let phrase: string;
let pendingCommit: string;

const DEFAULT = defaultAccountId();
const v = (h: bigint) => coinbaseValue('automated', 0n, h);

async function wallet(mnemonic: string | null): Promise<Wallet> {
  const top = tempDir();
  dirs.push(top);
  const env = makeEnv(top, node.url, secret);
  const lc = lifecycleApi(env);
  await lc.createWallet(null, mnemonic, 32, 'pw');
  const token = Buffer.from((await lc.openWallet(null, 'pw')) as string, 'hex');
  return { env, token, read: ownerReadApi(env) };
}

type OutputsResult = { outputs: { output: { [k: string]: JsonValue }; commit: string }[] };
const outputsOf = async (w: Wallet) =>
  ((await w.read.retrieveOutputs(w.token, true, false, null, null, null, null)) as OutputsResult)
    .outputs;

before(async () => {
  node = await startKillable();
  secret = (ownerSecret(node.home).split(/\r?\n/)[0] ?? '').trim();
  a = await wallet(null);
  phrase = (await lifecycleApi(a.env).getMnemonic(null, 'pw')) as string;
  const foreign = foreignApi(a.env);
  for (let i = 0; i < 3; i++) await mineWithWallet(node.url, foreign);
  const pending = (await foreign.buildCoinbase({ fees: 0n, height: 4n, keyId: null })) as {
    output: { commit: string };
  };
  pendingCommit = pending.output.commit;
  const [refreshed] = (await a.read.retrieveSummaryInfo(a.token, true, 1n)) as [boolean];
  assert.equal(refreshed, true);
});

after(async () => {
  await node.stop();
  removeHome(node.home);
  for (const d of dirs) removeDir(d);
});

describe('restore from the recovery phrase into a fresh wallet', () => {
  let b: Wallet;

  it('the first refresh scans the whole chain and gives A balance', async () => {
    b = await wallet(phrase);
    assert.equal(b.env.lifecycle.store().initStatus(), 'InitNeedsScanning');
    const info = await b.read.retrieveSummaryInfo(b.token, true, 1n);
    const ofA = (await a.read.retrieveSummaryInfo(a.token, false, 1n)) as [boolean, JsonValue];
    assert.deepEqual(info, [true, ofA[1]]);
    assert.deepEqual(
      (info as [boolean, { total: string }])[1].total,
      (v(1n) + v(2n) + v(3n)).toString(),
    );
    const messages = drainStatus(b.env);
    assert.deepEqual(messages.slice(0, 4), [
      { UpdatingOutputs: 'Updating outputs from node' },
      { UpdatingTransactions: 'Updating transactions' },
      {
        FullScanWarn:
          'This wallet has not been scanned against the current chain. Beginning full scan... (this first scan may take a while, but subsequent scans will be much quicker)',
      },
      { Scanning: ['Starting UTXO scan', 0] },
    ]);
    const restoring = messages.filter((m) =>
      JSON.stringify(m).includes('exists in UTXO set but not in wallet. Restoring.'),
    );
    assert.equal(restoring.length, 3);
    assert.deepEqual(messages.at(-1), { ScanningComplete: 'Scanning Complete' });
    assert.equal(b.env.lifecycle.store().initStatus(), 'InitComplete');
  });

  it('the same confirmed outputs as A (the unmined coinbase is not on chain)', async () => {
    const fromA = (await outputsOf(a)).filter((o) => o.commit !== pendingCommit);
    assert.equal(fromA.length, 3);
    assert.deepEqual(await outputsOf(b), fromA);
    const store = b.env.lifecycle.store();
    assert.equal(store.currentChildIndex(DEFAULT), 3);
  });

  it('one confirmed "Restore" entry per restored output', async () => {
    const r = (await b.read.retrieveTxs(b.token, false, null, null, null, null, null)) as {
      txs: JsonValue[];
    };
    assert.deepEqual(
      r.txs,
      [1n, 2n, 3n].map((h, i) => coinbaseEntryJson(i, v(h), { public_addr: 'Restore' })),
    );
  });

  it('scanning again changes nothing and records the tip', async () => {
    const before = await outputsOf(b);
    assert.equal(await b.read.scan(b.token, null, false), null);
    assert.deepEqual(await outputsOf(b), before);
    const messages = drainStatus(b.env);
    assert.ok(
      !messages.some((m) => JSON.stringify(m).includes('Restoring')),
      JSON.stringify(messages),
    );
    assert.deepEqual(messages.at(-1), { ScanningComplete: 'Scanning Complete' });
    const tip = await b.env.node.getTip();
    const scanned = b.env.lifecycle.store().lastScannedBlock();
    assert.equal(scanned.height, 3n);
    assert.equal(scanned.hash, tip.lastBlockPushed);
  });
});

describe('repairs in the scanned wallet', () => {
  it('delete_unconfirmed drops the unmined coinbase', async () => {
    drainStatus(a.env);
    assert.equal((await outputsOf(a)).length, 4);
    assert.equal(await a.read.scan(a.token, 1n, true), null);
    const left = await outputsOf(a);
    assert.deepEqual(
      left.map((o) => o.output.n_child),
      [0, 1, 2],
    );
    const keyId = childKeyId(DEFAULT, 3).toHex();
    assert.ok(
      drainStatus(a.env).some(
        (m) =>
          JSON.stringify(m) ===
          JSON.stringify({
            Scanning: [
              `Unconfirmed output for ${v(4n)} with ID ${keyId} (Commitment(${pendingCommit})) not in UTXO set. Deleting and cancelling associated transaction log entries.`,
              99,
            ],
          }),
      ),
    );
  });

  it('a Spent output found in the UTXO set is Unspent again', async () => {
    const store = a.env.lifecycle.store();
    const o = store.outputs()[0];
    assert.ok(o !== undefined);
    store.saveOutput({ ...o, status: 'Spent' });
    assert.equal(await a.read.scan(a.token, null, false), null);
    assert.equal(store.getOutput(o.keyId, o.mmrIndex)?.status, 'Unspent');
  });
});

describe('atomic reconciliation', () => {
  it('a store failure at the last operation leaves nothing of the scan behind', async () => {
    const c = await wallet(phrase);
    const store = c.env.lifecycle.store();
    const saveChildIndex = store.saveChildIndex.bind(store);
    // the plan's last operation (the child counter) fails as a full disk would
    store.saveChildIndex = () => {
      throw new Error('disk full');
    };
    await assert.rejects(c.read.scan(c.token, null, false), /disk full/);
    assert.deepEqual(store.outputs(), []);
    assert.deepEqual(store.txLogEntries(), []);
    assert.equal(store.currentChildIndex(DEFAULT), 0);
    store.saveChildIndex = saveChildIndex;
    assert.equal(await c.read.scan(c.token, null, false), null);
    assert.equal(store.outputs().length, 3);
    assert.equal(store.currentChildIndex(DEFAULT), 3);
  });
});
