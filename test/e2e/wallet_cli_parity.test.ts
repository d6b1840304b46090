// epic-wallet's commands beyond the basic flows, each a real one-shot mwwallet process against a
// usernet node whose test miner pays wallet A. With the chain held: `send -m self` into another
// account, a send with a payment proof finalized without posting then `repost` (dump, post), and
// `pay -m self` of the other account's invoice, reposted. Once mined: `txs` / `txs -t` of the
// self send (outputs, messages, no proof), `txs -i` of the proof send (messages, proof), `repost`
// refused, `export_proof` and `verify_proof` in both wallets (and a forged one), `txs` and
// `outputs` paging, `recover`, and Epic's argument errors.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { amountToHrString } from '../../core/amount.js';
import type { NodeProcess } from '../support/node_process.js';
import {
  info,
  minedBlocks,
  ok,
  type TwoWallets,
  tableRows,
  twoWallets,
  waitUntil,
} from '../support/wallet_e2e.js';
import {
  MWWALLET,
  startWalletListener,
  type TestWallet,
  walletCommand,
} from '../support/wallet_process.js';

// Three matured coinbases (14.5792 each): one per send; `pay` selects all that is left.
const NEEDED = 4_200_000_000n;
/** The command's own error lines (not JSON log events, not the refresh's progress lines). */
const errorLines = (stderr: string): string[] =>
  stderr.split('\n').filter((l) => l.startsWith('mwwallet: '));
const slateIdOf = (file: string): string =>
  String((JSON.parse(readFileSync(file, 'utf8')) as { id: unknown }).id);

/** The FORMAT_NO_COLSEP layout of `rows` under `titles`, for checking a printed table whole. */
function layout(titles: readonly string[], rows: readonly Record<string, string>[]): string {
  const cells = [titles, ...rows.map((r) => titles.map((t) => r[t] ?? ''))];
  const w = titles.map((_, i) => Math.max(...cells.map((c) => (c[i] ?? '').length)));
  const rule = (ch: string) => ch.repeat(w.reduce((s, n) => s + n + 2, 0));
  const line = (c: readonly string[]) => c.map((x, i) => ` ${x.padEnd(w[i] ?? 0)} `).join('');
  const body = cells
    .slice(1)
    .map(line)
    .join(`\n${rule('-')}\n`);
  return [rule('-'), line(titles), rule('='), ...(rows.length > 0 ? [body] : []), rule('-')]
    .join('\n')
    .concat('\n');
}

const TX_TITLES = [
  'Id',
  'Type',
  'Shared Tx Id',
  'From/To Address',
  'Creation Time',
  'Confirmed?',
  'Confirmation Time',
  'Change Returned',
  'Total Spent',
  'Fee',
  'Net Change',
];
const DETAIL_TITLES = [
  'Num. Inputs',
  'Num. Outputs',
  'TTL Cutoff Height',
  'Payment Proof',
  'Kernel',
  'Tx Data',
];
const MESSAGE_TITLES = ['Participant Id', 'Message', 'Public Key', 'Signature'];
const OUTPUT_TITLES = [
  'Output Commitment',
  'MMR Index',
  'Block Height',
  'Locked Until',
  'Status',
  'Coinbase?',
  '# Confirms',
  'Value',
  'Tx',
];

describe('mwwallet send/pay -m self, repost, payment proofs, txs -i/-t, paging, recover', {
  timeout: 300_000,
}, () => {
  let node: NodeProcess;
  let a: TestWallet;
  let b: TestWallet;
  let w: TwoWallets | undefined;
  /** Slate ids (and the proof send's log id) of the transactions posted. */
  const ids = { self: '', proof: '', proofLog: '', invoice: '' };
  const proofOf = { proofHex: '', onionB: '' };

  before(async () => {
    w = await twoWallets();
    ({ node, a, b } = w);
  });

  after(() => w?.stop());

  it('A has matured coinbases to spend; the chain is held while transactions are built', async () => {
    await waitUntil(
      async () => ((await info(a)).rows['Currently Spendable'] ?? 0n) >= NEEDED,
      120_000,
      () => node.stderr().slice(-2000),
    );
    // The usernet test miner stops at a difficulty it cannot reach (about 50 blocks): with A's
    // listener stopped it gets no coinbase and mines nothing until the transactions are posted.
    await w?.listenA?.stop();
    if (w) w.listenA = undefined;
  });

  it('send -m self -d savings: received into the other account and posted', async () => {
    assert.equal(await ok(a, ['account', '-c', 'savings']), "Account: 'savings' Created!\n");
    const sent = await ok(a, ['send', '1', '-m', 'self', '-d', 'savings', '-c', '1']);
    const m = /^Tx ([0-9a-f-]{36}) sent to account 'savings', finalized and posted\.\n$/.exec(sent);
    assert.ok(m?.[1] !== undefined, sent);
    ids.self = m[1];
  });

  it('a send with a payment proof, finalized -n, dumped and reposted', async () => {
    const addrB = await ok(b, ['address']);
    const m =
      /Public Proof Address for account - default\n-+\n([0-9a-f]{64})\n\nTOR Onion V3 Address for account - default\n-+\n([a-z2-7]{56})\n\n$/.exec(
        addrB,
      );
    assert.ok(m?.[1] !== undefined && m[2] !== undefined, addrB);
    const [, proofHex, onionB] = m;
    Object.assign(proofOf, { proofHex, onionB });
    const file = join(a.home, 'proof.slate');
    await ok(a, [
      'send',
      '1.25',
      '-m',
      'file',
      '-d',
      file,
      '-c',
      '1',
      '-z',
      proofHex,
      '-g',
      'for the proof',
    ]);
    const id = slateIdOf(file);
    await ok(b, ['receive', '-i', file, '-g', 'thanks']);
    assert.equal(
      await ok(a, ['finalize', '-i', `${file}.response`, '-n']),
      `Transaction ${id} finalized.\n`,
    );
    const [entry] = tableRows(await ok(a, ['txs', '-t', id]));
    assert.ok(entry !== undefined);
    assert.deepEqual([entry.Type, entry['Confirmed?']], ['Sent (Created)', 'false']);
    const logId = entry.Id ?? '';
    const dump = join(a.home, 'dump.json');
    assert.equal(
      await ok(a, ['repost', '-i', logId, '-m', dump]),
      `Dumped transaction data for tx ${logId} to ${dump}\n`,
    );
    const dumped = JSON.parse(readFileSync(dump, 'utf8')) as { body: { kernels: unknown[] } };
    assert.equal(dumped.body.kernels.length, 1);
    assert.equal(await ok(a, ['repost', '-i', logId, '-f']), `Reposted transaction at ${logId}\n`);
    Object.assign(ids, { proof: id, proofLog: logId });
  });

  it('pay -m self: the savings account invoices, default pays; finalized, then reposted', async () => {
    const file = join(a.home, 'self.invoice');
    await ok(a, ['-a', 'savings', 'invoice', '0.5', '-d', file]);
    const id = slateIdOf(file);
    assert.equal(
      await ok(a, ['pay', '-i', file, '-m', 'self', '-c', '1']),
      `Invoice ${id} paid and finalized by this wallet (not posted).\n`,
    );
    const [paid] = tableRows(await ok(a, ['txs', '-t', id]));
    assert.deepEqual([paid?.Type, paid?.['Confirmed?']], ['Sent (Created)', 'false']);
    assert.equal(
      await ok(a, ['repost', '-i', paid?.Id ?? '']),
      `Reposted transaction at ${paid?.Id}\n`,
    );
    ids.invoice = id;
  });

  it('the blocks that follow confirm all three', async () => {
    if (w) w.listenA = await startWalletListener(a, 'listen', ['-l', String(w.portA)]);
    const confirmed = async (acct: string, id: string): Promise<boolean> =>
      tableRows(await ok(a, ['-a', acct, 'txs', '-t', id]))[0]?.['Confirmed?'] === 'true';
    await waitUntil(
      async () =>
        (await confirmed('savings', ids.self)) &&
        (await confirmed('default', ids.proof)) &&
        (await confirmed('savings', ids.invoice)),
      90_000,
      () => node.stderr().slice(-2000),
    );
  });

  it('txs of the self send: the savings log, and -t with outputs, messages, no proof', async () => {
    const selfId = ids.self;
    // The savings account's log: the one received entry, exactly, at the node's height.
    const saved = await ok(a, ['-a', 'savings', 'txs']);
    // The miner goes on: the height is the one the command asked the node for.
    const height = BigInt(/Block Height: (\d+)\n/.exec(saved)?.[1] ?? '0');
    const rows = tableRows(saved);
    assert.deepEqual(
      rows.map((r) => [r.Id, r.Type, r['Shared Tx Id'], r['From/To Address'], r['Confirmed?']]),
      [
        ['0', 'Received', selfId, 'None', 'true'],
        ['1', 'Received', ids.invoice, 'None', 'true'],
      ],
    );
    assert.deepEqual(
      [
        rows[0]?.['Change Returned'],
        rows[0]?.['Total Spent'],
        rows[0]?.Fee,
        rows[0]?.['Net Change'],
      ],
      ['1.0', '0.0', 'None', '1.0'],
    );
    assert.deepEqual([rows[1]?.['Change Returned'], rows[1]?.['Net Change']], ['0.5', '0.5']);
    assert.match(rows[0]?.['Creation Time'] ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(
      saved,
      `\nWallet Transactions - Account 'savings' - Block Height: ${height}\n` +
        'Displaying 2 of 2 transactions (Limit: 0, Offset: 0, Sort Order: asc)\n\n' +
        `${layout(TX_TITLES, rows)}\n`,
    );
    // One transaction by slate id: its details, its output in savings, no messages, no proof.
    const one = await ok(a, ['-a', 'savings', 'txs', '-t', selfId.toUpperCase()]);
    const now = BigInt(/Block Height: (\d+)\n/.exec(one)?.[1] ?? '0');
    const outs = tableRows(one, 2);
    assert.equal(outs.length, 1);
    assert.deepEqual(
      [
        outs[0]?.Status,
        outs[0]?.['Coinbase?'],
        outs[0]?.Value,
        outs[0]?.Tx,
        outs[0]?.['Block Height'],
      ],
      ['Unspent', 'false', '1.00000000', '0', outs[0]?.['Block Height'] ?? ''],
    );
    // Epic keeps both participants' entries even without a message: no text, no signature.
    const msgs = tableRows(one, 3);
    assert.deepEqual(
      msgs.map((r) => [r['Participant Id'], r.Message, r.Signature]),
      [
        ['0', 'None', 'None'],
        ['1', 'None', 'None'],
      ],
    );
    for (const r of msgs) assert.match(r['Public Key'] ?? '', /^0[23][0-9a-f]{64}$/);
    const details = tableRows(one, 1);
    assert.deepEqual(
      details.map((d) => [
        d['Num. Inputs'],
        d['Num. Outputs'],
        d['TTL Cutoff Height'],
        d['Payment Proof'],
        d['Tx Data'],
      ]),
      [['0', '1', 'None', 'None', 'None']],
    );
    assert.match(details[0]?.Kernel ?? '', /^0[89][0-9a-f]{64}$/);
    assert.equal(
      one,
      `\nWallet Transactions - Account 'savings' - Block Height: ${now}\n` +
        'Displaying 1 of 1 transactions (Limit: 0, Offset: 0, Sort Order: asc)\n\n' +
        `${layout(TX_TITLES, rows.slice(0, 1))}\n${layout(DETAIL_TITLES, details)}\n` +
        `\nWallet Outputs - Account 'savings' - Block Height: ${now}\n` +
        'Displaying 1 of 1 transactions (Limit: 0, Offset: 0, Sort Order: asc)\n' +
        `${layout(OUTPUT_TITLES, outs)}\n` +
        `\nTransaction Messages - Transaction '0'\n${layout(MESSAGE_TITLES, msgs)}\n` +
        "\nPayment Proof - Transaction '0'\nNone\n\n",
    );
  });

  it('the proof send: txs -i, repost refused once confirmed, export_proof / verify_proof', async () => {
    const logId = ids.proofLog;
    const { proofHex, onionB } = proofOf;
    const again = await walletCommand(a, ['repost', '-i', logId]);
    assert.deepEqual([again.code, again.stdout], [1, '']);
    assert.deepEqual(errorLines(again.stderr), [
      `mwwallet: Transaction with id ${logId} is confirmed. Not reposting.`,
    ]);
    // txs -i: the messages of both participants and the proof, as Epic prints them.
    const shown = await ok(a, ['txs', '-i', logId]);
    const msgs = tableRows(shown, 3);
    assert.deepEqual(
      msgs.map((r) => [r['Participant Id'], r.Message]),
      [
        ['0', 'for the proof'],
        ['1', 'thanks'],
      ],
    );
    for (const r of msgs) assert.match(r.Signature ?? '', /^30[0-9a-f]+$/);
    const addrA = /Public Proof Address for account - default\n-+\n([0-9a-f]{64})\n/.exec(
      await ok(a, ['address']),
    )?.[1];
    const proofPart = shown.slice(shown.indexOf(`\nPayment Proof - Transaction '${logId}'\n`));
    const kernel = tableRows(shown, 1)[0]?.Kernel ?? '';
    const sigs = [...proofPart.matchAll(/Signature: ([0-9a-f]{128})\n/g)].map((x) => x[1]);
    assert.equal(sigs.length, 2);
    const exported = join(a.home, 'proof.json');
    assert.equal(
      await ok(a, ['export_proof', '-i', logId, exported]),
      `Payment proof exported to ${exported}\n`,
    );
    const proof = JSON.parse(readFileSync(exported, 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(proof), [
      'amount',
      'excess',
      'recipient_address',
      'recipient_sig',
      'sender_address',
      'sender_sig',
    ]);
    assert.deepEqual(
      [proof.amount, proof.excess, proof.recipient_address, proof.recipient_sig, proof.sender_sig],
      ['125000000', kernel, onionB, sigs[0], sigs[1]],
    );
    assert.equal(
      proofPart,
      `\nPayment Proof - Transaction '${logId}'\n\n` +
        `Receiver Address: ${proofHex}\nReceiver Address (Onion V3): ${onionB}\n` +
        `Receiver Signature: ${sigs[0]}\nAmount: ${amountToHrString(125_000_000n, true)}\n` +
        `Kernel Excess: ${kernel}\nSender Address: ${addrA}\nSender Signature: ${sigs[1]}\n` +
        `Sender Address (Onion V3): ${proof.sender_address}\n\n\n`,
    );
    assert.equal(
      await ok(a, ['verify_proof', exported]),
      "Payment proof's signatures are valid.\nThe proof's sender address belongs to this wallet.\n",
    );
    assert.equal(
      await ok(b, ['verify_proof', exported]),
      "Payment proof's signatures are valid.\nThe proof's recipient address belongs to this wallet.\n",
    );
    // The same proof claiming more: the signatures no longer hold.
    const forged = join(a.home, 'forged.json');
    writeFileSync(forged, JSON.stringify({ ...proof, amount: '225000000' }));
    const r = await walletCommand(b, ['verify_proof', forged]);
    assert.deepEqual([r.code, r.stdout], [1, '']);
    assert.deepEqual(errorLines(r.stderr), [
      'mwwallet: Wallet error: PaymentProof: Invalid recipient signature',
    ]);
  });
  it('txs and outputs page with -l/-o/-s as Epic', async () => {
    // The miner goes on: a page is compared with the whole list read while no block came.
    const still = async <T>(read: () => Promise<T>): Promise<T> => {
      for (;;) {
        const seen = minedBlocks(node).length;
        const got = await read();
        if (minedBlocks(node).length === seen) return got;
      }
    };
    // One process at a time: both refresh the same wallet store.
    const both = (x: string[], y: string[]) => async (): Promise<[string, string]> => [
      await ok(a, x),
      await ok(a, y),
    ];
    const [all, page] = await still(
      both(['txs', '-s', 'desc'], ['txs', '-l', '2', '-o', '1', '-s', 'desc']),
    );
    const total = tableRows(all).length;
    const height = /Block Height: (\d+)\n/.exec(page)?.[1] ?? '';
    const rows = tableRows(all).slice(1, 3);
    assert.equal(
      page,
      `\nWallet Transactions - Account 'default' - Block Height: ${height}\n` +
        `Displaying 2 of ${total} transactions (Limit: 2, Offset: 1, Sort Order: desc)\n\n` +
        `${layout(TX_TITLES, rows)}\n`,
    );
    const [outs, paged] = await still(
      both(['-s', 'outputs', '-s', 'desc'], ['-s', 'outputs', '-l', '3', '-o', '2', '-s', 'desc']),
    );
    const outRows = tableRows(outs);
    const outHeight = /Block Height: (\d+)\n/.exec(paged)?.[1] ?? '';
    assert.equal(
      paged,
      `\nWallet Outputs - Account 'default' - Block Height: ${outHeight}\n` +
        `Displaying 3 of ${outRows.length} transactions (Limit: 3, Offset: 2, Sort Order: desc)\n` +
        `${layout(OUTPUT_TITLES, outRows.slice(2, 5))}\n`,
    );
    // Spent outputs only with the global -s.
    assert.ok(outRows.some((o) => o.Status === 'Spent'));
    assert.ok(tableRows(await ok(a, ['outputs'])).every((o) => o.Status !== 'Spent'));
  });

  it('recover shows the phrase init printed; a wrong password shows nothing', async () => {
    assert.equal(
      await ok(a, ['recover']),
      `Your recovery phrase is:\n\n${w?.phraseA}\n\nPlease back-up these words in a non-digital format.\n`,
    );
    const r = await walletCommand({ ...a, password: 'wrong' }, ['recover']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(errorLines(r.stderr).length, 1);
    assert.match(errorLines(r.stderr)[0] ?? '', /^mwwallet: Wallet error: Lifecycle: /);
  });

  it('bad txs/repost/export_proof arguments are Epic argument errors', async () => {
    const cases: [string[], string][] = [
      [
        ['txs', '-i', 'x1'],
        'Could not parse id as a whole number. e=invalid digit found in string',
      ],
      [
        ['txs', '-i', '1', '-t', '0436430c-2b02-624c-2032-570501212b00'],
        "At most one of 'id' (-i) or 'txid' (-t) may be provided.",
      ],
      [['txs', '-t', 'not-a-uuid'], 'Could not parse txid parameter. e=invalid UUID: not-a-uuid'],
      [
        ['outputs', '-l', '-3'],
        'Could not parse limit as a whole number. e=invalid digit found in string',
      ],
      [['export_proof', 'p.json'], "Either 'id' (-i) or 'txid' (-t) must be provided."],
      [
        ['send', '1', '-d', 'example.com'],
        'HTTP Destination should start with http://: or https://: example.com',
      ],
      [['send', '1', '-m', 'file'], "Value for argument 'dest' is required in this context"],
    ];
    for (const [args, why] of cases) {
      const r = await walletCommand(b, args);
      assert.deepEqual([r.code, r.stdout], [1, ''], args.join(' '));
      assert.deepEqual(errorLines(r.stderr), [`mwwallet: Wallet error: ArgumentError: ${why}`]);
    }
  });

  it('--help lists every command, and pay shows Epic defaults', async () => {
    const help = (args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [MWWALLET, ...args], (e, out) => (e ? reject(e) : resolve(out))),
      );
    const top = await help(['--help']);
    const commands = top
      .slice(top.indexOf('Commands:'))
      .split('\n')
      .map((l) => /^ {2}([a-z_]+)/.exec(l)?.[1])
      .filter((c) => c !== undefined);
    assert.deepEqual(commands, [
      'init',
      'listen',
      'owner_api',
      'info',
      'outputs',
      'txs',
      'repost',
      'send',
      'receive',
      'finalize',
      'invoice',
      'pay',
      'post',
      'cancel',
      'scan',
      'address',
      'export_proof',
      'verify_proof',
      'recover',
      'account',
      'help',
    ]);
    assert.ok(top.includes('  -s, --show_spent  '), top);
    const pay = (await help(['help', 'pay'])).replace(/\s+/g, ' ');
    assert.ok(pay.includes('(choices: "all", "smallest", default: "all")'), pay);
    assert.ok(pay.includes('(choices: "file", "self", default: "file")'), pay);
    const send = (await help(['send', '--help'])).replace(/\s+/g, ' ');
    assert.ok(send.includes('(choices: "all", "smallest", default: "smallest")'), send);
    assert.ok(send.includes('(choices: "http", "file", "self", default: "http")'), send);
  });
});
