// The wallet's SQLite store on a temporary directory: record round trips, counters, history,
// contexts masked at rest, batches that roll back, reopening.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  defaultWalletTopDir,
  migrateWalletSchema,
  SCHEMA_VERSION,
  WALLET_MIGRATIONS,
  walletLayout,
} from '../../../actors/wallet/layout.js';
import { WalletStore } from '../../../actors/wallet/store.js';
import { defaultAccountId, Identifier, nextAccountId } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { WalletFailure } from '../../../core/wallet/errors.js';
import { newTxLogEntry, type OutputData, type PrivateContext } from '../../../core/wallet/types.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshStore(): WalletStore {
  const top = mkdtempSync(join(tmpdir(), 'mw-wallet-store-'));
  dirs.push(top);
  return new WalletStore(walletLayout(top));
}

const OUT: OutputData = {
  rootKeyId: defaultAccountId(),
  keyId: Identifier.fromHex('0300000000000000000000000000000000'),
  nChild: 0,
  commit: '08'.padEnd(66, 'a'),
  mmrIndex: null,
  value: 18_446_744_073_709_551_615n,
  status: 'Unconfirmed',
  height: 5n,
  lockHeight: 8n,
  isCoinbase: true,
  txLogEntry: 0,
};

describe('layout', () => {
  it("the top directory defaults to the node's network directory", () => {
    assert.equal(defaultWalletTopDir('usernet', '/h/.mwnode'), '/h/.mwnode/user');
    assert.equal(defaultWalletTopDir('mainnet', '/h/.mwnode'), '/h/.mwnode/main');
    assert.deepEqual(walletLayout('/t'), {
      topDir: '/t',
      dataDir: '/t/wallet_data',
      seedFile: '/t/wallet_data/wallet.seed',
      dbDir: '/t/wallet_data/db',
      dbFile: '/t/wallet_data/db/wallet.sqlite',
    });
  });
});

describe('WalletStore', () => {
  it('has the default account and derives ids as Epic (reference §10.1.8)', () => {
    const s = freshStore();
    assert.deepEqual(
      s.accounts().map((a) => [a.label, a.path.toHex()]),
      [['default', '0200000000000000000000000000000000']],
    );
    assert.equal(s.nextChild().toHex(), '0300000000000000000000000000000000');
    assert.equal(s.nextChild().toHex(), '0300000000000000000000000100000000');
    assert.equal(s.currentChildIndex(defaultAccountId()), 2);
    const next = nextAccountId(s.accounts().map((a) => a.path));
    assert.equal(next.toHex(), '0200000001000000000000000000000000');
    s.saveAccount({ label: 'account1', path: next });
    s.setActiveAccount('account1');
    assert.equal(s.parentKeyId.toHex(), '0200000001000000000000000000000000');
    assert.equal(s.nextChild().toHex(), '0300000001000000000000000000000000');
    assert.throws(
      () => s.setActiveAccount('nope'),
      (e) =>
        e instanceof WalletFailure &&
        (e.err as { UnknownAccountLabel: string }).UnknownAccountLabel === 'nope',
    );
    s.close();
  });

  it('outputs round-trip exactly (u64 max value) and keep a history of changes', () => {
    const s = freshStore();
    s.saveOutput(OUT);
    assert.deepEqual(s.getOutput(OUT.keyId, null), OUT);
    s.saveOutput({ ...OUT, status: 'Unspent' });
    s.saveOutput({ ...OUT, status: 'Unspent' });
    assert.equal(s.outputs().length, 1);
    assert.equal(s.outputs()[0]?.status, 'Unspent');
    assert.deepEqual(
      s.outputHistory().map((o) => o.status),
      ['Unconfirmed'],
    );
    // The same key id with a known MMR index is a separate record, as in Epic.
    s.saveOutput({ ...OUT, mmrIndex: 7n });
    assert.equal(s.outputs().length, 2);
    assert.deepEqual(s.outputsByCommit(OUT.commit ?? '').length, 2);
    s.deleteOutput(OUT.keyId, null, 3);
    assert.deepEqual(
      s.outputs().map((o) => o.mmrIndex),
      [7n],
    );
    const hist = s.outputHistory();
    assert.deepEqual(
      hist.slice(-2).map((o) => [o.status, o.txLogEntry]),
      [
        ['Unspent', 0],
        ['Deleted', 3],
      ],
    );
    s.close();
  });

  it('tx log: per-account ids, upsert, storage order, lookup by slate id', () => {
    const s = freshStore();
    const p = defaultAccountId();
    assert.equal(s.nextTxLogId(p), 0);
    assert.equal(s.nextTxLogId(p), 1);
    const other = Identifier.fromHex('0200000001000000000000000000000000');
    assert.equal(s.nextTxLogId(other), 0);
    const ts = { secs: 1_547_568_086, nanos: 123_000_000 };
    const t1 = {
      ...newTxLogEntry(p, 'TxSentCreated', 1, ts),
      txSlateId: '0436430c-2b02-624c-2032-570501212b00',
      fee: 700_000n,
    };
    const t0 = { ...newTxLogEntry(p, 'TxReceived', 0, ts), messages: [], storedTx: 'a.epictx' };
    s.saveTxLogEntry(t1);
    s.saveTxLogEntry(t0);
    s.saveTxLogEntry({ ...t1, txType: 'TxSentCancelled' });
    assert.deepEqual(
      s.txLogEntries().map((t) => [t.id, t.txType]),
      [
        [1, 'TxSentCancelled'],
        [0, 'TxReceived'],
      ],
    );
    assert.deepEqual(s.txLogEntry(p, 0), t0);
    assert.deepEqual(
      s.txLogEntriesBySlateId(t1.txSlateId).map((t) => t.fee),
      [700_000n],
    );
    s.close();
  });

  it('per-account heights, scan info, init status, stored transactions', () => {
    const s = freshStore();
    const p = defaultAccountId();
    assert.equal(s.lastConfirmedHeight(p), 0n);
    s.saveLastConfirmedHeight(p, 123n);
    assert.equal(s.lastConfirmedHeight(), 123n);
    assert.deepEqual(s.lastScannedBlock(), {
      height: 0n,
      hash: '',
      startPmmrIndex: 0n,
      lastPmmrIndex: 0n,
    });
    const scan = { height: 9n, hash: 'ff00', startPmmrIndex: 1n, lastPmmrIndex: 30n };
    s.saveLastScannedBlock(scan);
    assert.deepEqual(s.lastScannedBlock(), scan);
    assert.equal(s.initStatus(), 'InitComplete');
    s.saveInitStatus('InitNeedsScanning');
    assert.equal(s.initStatus(), 'InitNeedsScanning');
    assert.equal(s.storedTx('x.epictx'), null);
    s.saveStoredTx('x.epictx', 'abcd');
    assert.equal(s.storedTx('x.epictx'), 'abcd');
    s.close();
  });

  it('private contexts are stored masked and read back in the clear', () => {
    const s = freshStore();
    const keychain = ExtKeychain.fromSeed(new Uint8Array(32).fill(3));
    const slate = '0436430c-2b02-624c-2032-570501212b00';
    const ctx: PrivateContext = {
      parentKeyId: defaultAccountId(),
      secKey: new Uint8Array(32).fill(9),
      secNonce: new Uint8Array(32).fill(1),
      outputIds: [{ keyId: OUT.keyId, mmrIndex: null, value: 5n }],
      inputIds: [{ keyId: OUT.keyId, mmrIndex: 4n, value: 10n }],
      fee: 700_000n,
      participantId: 1,
      paymentProofDerivationIndex: 0,
    };
    s.savePrivateContext(keychain, slate, 1, ctx);
    assert.deepEqual(s.getPrivateContext(keychain, slate, 1), ctx);
    const raw = new Database(s.layout.dbFile, { readonly: true });
    const row = raw.prepare('SELECT sec_key_masked FROM private_contexts').get() as {
      sec_key_masked: string;
    };
    raw.close();
    assert.notEqual(row.sec_key_masked, '09'.repeat(32));
    s.deletePrivateContext(slate, 1);
    assert.throws(
      () => s.getPrivateContext(keychain, slate, 1),
      (e) =>
        e instanceof WalletFailure &&
        (e.err as { NotFoundErr: string }).NotFoundErr ===
          'Slate id: [4, 36, 43, c, 2b, 2, 62, 4c, 20, 32, 57, 5, 1, 21, 2b, 0]',
    );
    s.close();
  });

  it('a batch that throws leaves nothing behind; a finished one survives reopening', () => {
    const s = freshStore();
    assert.throws(() =>
      s.batch(() => {
        s.saveOutput(OUT);
        s.nextTxLogId(defaultAccountId());
        throw new Error('crash');
      }),
    );
    assert.equal(s.outputs().length, 0);
    assert.equal(s.nextTxLogId(defaultAccountId()), 0);
    s.batch(() => s.saveOutput(OUT));
    const layout = s.layout;
    s.close();
    const again = new WalletStore(layout);
    assert.deepEqual(again.outputs(), [OUT]);
    assert.equal(again.nextTxLogId(defaultAccountId()), 1);
    again.close();
  });

  it('SQLite failures are Backend errors', () => {
    const s = freshStore();
    s.close();
    assert.throws(
      () => s.outputs(),
      (e) => e instanceof WalletFailure && e.variant === 'Backend',
    );
  });

  it('refuses a database of a newer schema version, saying which', () => {
    const s = freshStore();
    const layout = s.layout;
    s.close();
    const raw = new Database(layout.dbFile);
    raw.prepare('UPDATE schema_version SET version = 99').run();
    raw.close();
    assert.throws(
      () => new WalletStore(layout),
      (e) =>
        e instanceof WalletFailure &&
        e.message.endsWith(
          `schema version 99 is newer than this wallet's (${SCHEMA_VERSION}): use a newer mwwallet`,
        ),
    );
  });
});

describe('wallet schema migrations', () => {
  /** A store at schema 1 with one account and one output, and its raw connection. */
  function storeAtOne(): { conn: Database.Database; layout: ReturnType<typeof walletLayout> } {
    const s = freshStore();
    s.saveOutput(OUT);
    const layout = s.layout;
    s.close();
    return { conn: new Database(layout.dbFile), layout };
  }
  const version = (conn: Database.Database) =>
    (conn.prepare('SELECT version FROM schema_version').get() as { version: number }).version;
  const STEPS = [
    'ALTER TABLE outputs ADD COLUMN note TEXT',
    "CREATE TABLE labels (name TEXT PRIMARY KEY); INSERT INTO labels VALUES ('x');",
  ];

  it('brings a store from schema 1 up step by step, its data kept', () => {
    const { conn } = storeAtOne();
    try {
      conn.transaction(() => migrateWalletSchema(conn, 1, 3, STEPS))();
      assert.equal(version(conn), 3);
      assert.deepEqual(conn.prepare('SELECT key_id, note FROM outputs').all(), [
        { key_id: OUT.keyId.toHex(), note: null },
      ]);
      assert.deepEqual(conn.prepare('SELECT name FROM labels').all(), [{ name: 'x' }]);
    } finally {
      conn.close();
    }
  });

  it('leaves the store as it was when a step fails', () => {
    const { conn } = storeAtOne();
    try {
      assert.throws(
        () =>
          conn.transaction(() =>
            migrateWalletSchema(conn, 1, 3, [STEPS[0] as string, 'CREATE TABLE outputs (x)']),
          )(),
        /table outputs already exists/,
      );
      assert.equal(version(conn), 1);
      const columns = conn.prepare("SELECT name FROM pragma_table_info('outputs')").all();
      assert.equal(
        columns.some((c) => (c as { name: string }).name === 'note'),
        false,
      );
    } finally {
      conn.close();
    }
  });

  it('says when no step leads from a schema, and does nothing at the current one', () => {
    const { conn } = storeAtOne();
    try {
      assert.throws(
        () => migrateWalletSchema(conn, 1, 2, []),
        /no upgrade from schema version 1 to 2/,
      );
      migrateWalletSchema(conn, SCHEMA_VERSION);
      assert.equal(version(conn), SCHEMA_VERSION);
      assert.deepEqual(WALLET_MIGRATIONS.length, SCHEMA_VERSION - 1);
    } finally {
      conn.close();
    }
  });
});
