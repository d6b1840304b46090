// mwwallet's file-based commands end to end, each a real one-shot process: A (paid by a usernet
// node's test miner) sends through a slate file, B receives it, A finalizes and posts; a second
// file send is cancelled and its locked outputs come back; accounts are created and listed; a
// response slate posted before it is finalized and a wrong password each fail with Epic's
// one-line error and exit code 1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NodeProcess } from '../support/node_process.js';
import {
  expectOnlyReceived,
  expectSentConfirmed,
  info,
  minedBlocks,
  nanos,
  ok,
  type TwoWallets,
  tableRows,
  twoWallets,
  waitForTxBlock,
  waitUntil,
} from '../support/wallet_e2e.js';
import { type TestWallet, walletCommand } from '../support/wallet_process.js';

const EPIC = 100_000_000n;
const SEND = 150_000_000n; // 1.5
const CANCELLED = 125_000_000n; // 1.25

/** The lines of a failed command's stderr that are not JSON log events. */
const errorLines = (stderr: string): string[] =>
  stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'));

const slateId = (file: string): string =>
  String((JSON.parse(readFileSync(file, 'utf8')) as { id: unknown }).id);

describe('mwwallet file send/receive/finalize, cancel, accounts, errors', {
  timeout: 150_000,
}, () => {
  let node: NodeProcess;
  let a: TestWallet;
  let b: TestWallet;
  let w: TwoWallets | undefined;

  before(async () => {
    w = await twoWallets();
    ({ node, a, b } = w);
  });

  after(() => w?.stop());

  it('A has matured coinbases to spend', async () => {
    await waitUntil(
      async () => ((await info(a)).rows['Currently Spendable'] ?? 0n) >= SEND + CANCELLED + EPIC,
      90_000,
      () => node.stderr().slice(-2000),
    );
  });

  it('send -m file, receive, an unfinalized post fails, finalize posts; mined', async () => {
    const file = join(a.home, 'send.slate');
    assert.equal(
      await ok(a, ['send', '1.5', '-m', 'file', '-d', file, '-c', '1']),
      `Transaction file was successfully created: ${file}\n`,
    );
    const id = slateId(file);
    assert.equal(
      await ok(b, ['receive', '-i', file]),
      `Response file ${file}.response generated, and can be sent back to the transaction originator.\n`,
    );
    // B's response carries only B's partial signature: the node refuses the transaction.
    const early = await walletCommand(a, ['post', '-i', `${file}.response`]);
    assert.equal(early.code, 1);
    assert.equal(early.stdout, '');
    assert.deepEqual(errorLines(early.stderr), [
      'mwwallet: Wallet error: ClientCallback: Posting transaction to node: {"Internal":"Failed to update pool: Invalid Tx: Incorrect signature"}',
    ]);
    const seen = minedBlocks(node).length;
    assert.equal(
      await ok(a, ['finalize', '-i', `${file}.response`]),
      `Transaction ${id} finalized and posted.\n`,
    );
    await waitForTxBlock(node, seen);
    await expectSentConfirmed(a, id);
    await expectOnlyReceived(b, id, SEND);
  });

  it('a second file send locks outputs; cancel -i releases them exactly', async () => {
    // With A's listener stopped the miner gets no coinbase: the chain, and A's totals, stand still.
    const retries = (): number => node.stderr().split('"event":"test_miner_retry"').length;
    const seenRetries = retries();
    await w?.listenA?.stop();
    if (w) w.listenA = undefined;
    await waitUntil(
      () => retries() > seenRetries,
      30_000,
      () => node.stderr().slice(-2000),
    );
    const before = (await info(a)).rows;
    const file = join(a.home, 'cancel.slate');
    await ok(a, ['send', '1.25', '-m', 'file', '-d', file, '-c', '1']);
    const entry = tableRows(await ok(a, ['txs'])).find((t) => t['Shared Tx Id'] === slateId(file));
    assert.ok(entry !== undefined);
    assert.deepEqual([entry.Type, entry['Confirmed?']], ['Sent (Created)', 'false']);
    const fee = nanos(entry.Fee ?? '');
    const locked = tableRows(await ok(a, ['outputs']))
      .filter((o) => o.Status === 'Locked')
      .reduce((s, o) => s + nanos(o.Value ?? ''), 0n);
    assert.equal(nanos(entry['Total Spent'] ?? ''), locked);
    assert.equal(nanos(entry['Change Returned'] ?? ''), locked - CANCELLED - fee);
    assert.deepEqual((await info(a)).rows, {
      ...before,
      'Awaiting Finalization': (before['Awaiting Finalization'] ?? 0n) + locked - CANCELLED - fee,
      'Locked by transaction': locked,
      'Currently Spendable': (before['Currently Spendable'] ?? 0n) - locked,
    });
    assert.equal(await ok(a, ['cancel', '-i', entry.Id ?? '']), 'Transaction cancelled.\n');
    assert.deepEqual((await info(a)).rows, before);
    const cancelled = tableRows(await ok(a, ['txs'])).find((t) => t.Id === entry.Id);
    assert.equal(cancelled?.Type, 'Sent (Cancelled)');
    assert.equal(
      tableRows(await ok(a, ['outputs'])).filter((o) => o.Status === 'Locked').length,
      0,
    );
  });

  it('account -c savings, then account lists both', async () => {
    assert.equal(await ok(b, ['account', '-c', 'savings']), "Account: 'savings' Created!\n");
    assert.equal(
      await ok(b, ['account']),
      [
        ' Name    | Parent BIP-32 Derivation Path      ',
        ' default | 0200000000000000000000000000000000 ',
        ' savings | 0200000001000000000000000000000000 ',
        '',
      ].join('\n'),
    );
  });

  it('a wrong password fails with exit code 1 and one line', async () => {
    const r = await walletCommand({ ...b, password: 'not the password' }, ['info']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.deepEqual(errorLines(r.stderr), [
      'mwwallet: Wallet error: Lifecycle: Error opening wallet (is password correct?)',
    ]);
  });

  it('listen on a port in use fails with exit code 1 and one line', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const r = await walletCommand(b, ['listen', '-l', String(port)]);
      assert.equal(r.code, 1);
      assert.deepEqual(errorLines(r.stderr), [
        `mwwallet: cannot listen on 127.0.0.1:${port}: the port is in use or the address is not one of this machine's`,
      ]);
    } finally {
      blocker.close();
    }
  });
});
