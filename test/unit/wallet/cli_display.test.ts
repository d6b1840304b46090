// The wallet command line's text, exactly: the prettytable layout epic-wallet's lists use, the
// txs/outputs views of fixed Owner API results, messages with DER signatures, a payment proof,
// and the argument checks of wallet_args.rs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slateUuid, sortOrder, wholeNumber } from '../../../cli/wallet/args.js';
import { outputsText, txsText } from '../../../cli/wallet/display_lists.js';
import {
  paymentProofText,
  signatureDerHex,
  txMessagesText,
} from '../../../cli/wallet/display_tx.js';
import { noColsepTable } from '../../../cli/wallet/pretty_table.js';
import { fromHex } from '../../../core/bytes.js';
import { onionV3FromPubkey } from '../../../core/wallet/payment_proof.js';

describe('noColsepTable', () => {
  it('pads each column to its widest cell, titles included, with rules between rows', () => {
    assert.equal(
      noColsepTable(
        ['Id', 'Type'],
        [
          ['1', 'Sent'],
          ['12', 'Received'],
        ],
      ),
      [
        '--------------',
        ' Id  Type     ',
        '==============',
        ' 1   Sent     ',
        '--------------',
        ' 12  Received ',
        '--------------',
        '',
      ].join('\n'),
    );
  });

  it('an empty table is its titles between rules', () => {
    assert.equal(noColsepTable(['Id'], []), '----\n Id \n====\n----\n');
  });
});

const TX = {
  id: 3,
  tx_type: 'TxSentCreated',
  tx_slate_id: '0436430c-2b02-624c-2032-570501212b00',
  public_addr: null,
  creation_ts: '2019-01-15T16:01:26.120Z',
  confirmed: false,
  confirmation_ts: null,
  amount_credited: '50000000',
  amount_debited: '200000000',
  fee: '800000',
  num_inputs: 1,
  num_outputs: 1,
  ttl_cutoff_height: '120',
  payment_proof: null,
  kernel_excess: null,
  stored_tx: '0436430c-2b02-624c-2032-570501212b00.epictx',
  messages: null,
};
const PAGER = { records_read: 1, total_records: 4, limit: 1, offset: 2, sort_order: 'desc' };

describe('txs / outputs text', () => {
  it('txs: title, pager line, the table and, for one transaction, its details', () => {
    const text = txsText(
      { account: 'default', height: 42n },
      { refresh_from_node: true, pager: PAGER, txs: [TX] },
      true,
    );
    assert.equal(
      text,
      [
        '',
        "Wallet Transactions - Account 'default' - Block Height: 42",
        'Displaying 1 of 4 transactions (Limit: 1, Offset: 2, Sort Order: desc)',
        '',
        '-'.repeat(176),
        ' Id  Type            Shared Tx Id                          From/To Address  Creation Time        Confirmed?  Confirmation Time  Change Returned  Total Spent  Fee    Net Change ',
        '='.repeat(176),
        ' 3   Sent (Created)  0436430c-2b02-624c-2032-570501212b00  None             2019-01-15 16:01:26  false       None               0.5              2.0          0.008  -1.5       ',
        '-'.repeat(176),
        '',
        '-'.repeat(78),
        ' Num. Inputs  Num. Outputs  TTL Cutoff Height  Payment Proof  Kernel  Tx Data ',
        '='.repeat(78),
        ' 1            1             120                None           None    Yes     ',
        '-'.repeat(78),
        '',
        '',
      ].join('\n'),
    );
  });

  it('outputs: a still-mined coinbase is Mining; confirmations count from the height', () => {
    const commit = `08${'ab'.repeat(32)}`;
    const out = (height: string, status: string, coinbase: boolean) => ({
      commit,
      output: {
        mmr_index: status === 'Unconfirmed' ? null : '7',
        height,
        lock_height: coinbase ? String(Number(height) + 3) : '0',
        status,
        is_coinbase: coinbase,
        value: '150000000',
        tx_log_entry: null,
      },
    });
    const text = outputsText(
      { account: 'savings', height: 10n },
      {
        refresh_from_node: false,
        pager: { records_read: 2, total_records: 2, limit: 0, offset: 0, sort_order: 'asc' },
        outputs: [out('8', 'Unspent', true), out('11', 'Unconfirmed', true)],
      },
    );
    assert.equal(
      text,
      [
        '',
        "Wallet Outputs - Account 'savings' - Block Height: 10",
        'Displaying 2 of 2 transactions (Limit: 0, Offset: 0, Sort Order: asc)',
        '-'.repeat(155),
        ' Output Commitment                                                   MMR Index  Block Height  Locked Until  Status   Coinbase?  # Confirms  Value       Tx ',
        '='.repeat(155),
        ` ${commit}  7          8             11            Unspent  true       3           1.50000000     `,
        '-'.repeat(155),
        ` ${commit}  None       11            14            Mining   true       0           1.50000000     `,
        '-'.repeat(155),
        '',
        '',
        'WARNING: Wallet failed to verify data. The above is from local cache and possibly invalid! (is your `epic server` offline or broken?)',
        '',
      ].join('\n'),
    );
  });
});

describe('one transaction: messages and payment proof', () => {
  it('a message signature is shown in DER: minimal integers, a 0 before a set top bit', () => {
    const r = `${'00'.repeat(31)}01`;
    const s = `80${'00'.repeat(31)}`;
    assert.equal(signatureDerHex(r + s), `3026020101022100${s}`);
  });

  it('no messages, no proof: None under each title', () => {
    assert.equal(txMessagesText(TX), "\nTransaction Messages - Transaction '3'\nNone\n");
    assert.equal(paymentProofText(TX), "\nPayment Proof - Transaction '3'\nNone\n");
  });

  it('a proof: both addresses in hex and onion v3, the amount net of change and fee', () => {
    const pub = '2a'.repeat(32);
    const text = paymentProofText({
      ...TX,
      kernel_excess: `09${'11'.repeat(32)}`,
      payment_proof: {
        receiver_address: pub,
        receiver_signature: 'cd'.repeat(64),
        sender_address: pub,
        sender_signature: null,
        sender_address_path: 0,
      },
    });
    const onion = onionV3FromPubkey(fromHex(pub) ?? new Uint8Array(0));
    assert.equal(
      text,
      [
        '',
        "Payment Proof - Transaction '3'",
        '',
        `Receiver Address: ${pub}`,
        `Receiver Address (Onion V3): ${onion}`,
        `Receiver Signature: ${'cd'.repeat(64)}`,
        // debited 2.0 − credited 0.5 − fee 0.008
        'Amount: 1.492',
        `Kernel Excess: 09${'11'.repeat(32)}`,
        `Sender Address: ${pub}`,
        'Sender Signature: None',
        `Sender Address (Onion V3): ${onion}`,
        '',
        '',
      ].join('\n'),
    );
  });
});

describe('argument checks', () => {
  const messageOf = (f: () => unknown): string => {
    try {
      f();
      return 'no error';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };

  it("Epic's messages for numbers, uuids, sort orders", () => {
    assert.deepEqual(
      [
        messageOf(() => wholeNumber('x', 'id')),
        messageOf(() => wholeNumber('', 'id')),
        messageOf(() => wholeNumber('18446744073709551616', 'id')),
        messageOf(() => slateUuid('nope')),
        messageOf(() => sortOrder('up')),
      ],
      [
        'ArgumentError: Could not parse id as a whole number. e=invalid digit found in string',
        'ArgumentError: Could not parse id as a whole number. e=cannot parse integer from empty string',
        'ArgumentError: Could not parse id as a whole number. e=number too large to fit in target type',
        'ArgumentError: Could not parse txid parameter. e=invalid UUID: nope',
        "ArgumentError: Invalid value for 'sort_order'. Must be 'asc' or 'desc'.",
      ],
    );
    assert.equal(wholeNumber('18446744073709551615', 'id'), 18446744073709551615n);
    assert.equal(
      slateUuid('0436430C2B02624C2032570501212B00'),
      '0436430c-2b02-624c-2032-570501212b00',
    );
    assert.equal(sortOrder('DESC'), 'desc');
  });
});
