// The wallet records' JSON in Epic's exact shapes (field order of the Rust structs, u64-strings,
// hex, chrono timestamps), their parsers, and retrieve_outputs / retrieve_txs paging. The
// records are those of Epic's `api/src/owner_rpc_s.rs` doc examples.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { defaultAccountId, Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import { JsonFormError } from '../../../core/serde/fields.js';
import {
  filterOutputs,
  filterTxs,
  outputCommitHex,
  pageOutputs,
  pageTxs,
  retrieveOutputsResultToJson,
  retrieveTxsResultToJson,
} from '../../../core/wallet/paging.js';
import { formatTimestamp, parseTimestamp } from '../../../core/wallet/timestamp.js';
import { newTxLogEntry, type OutputData, type TxLogEntry } from '../../../core/wallet/types.js';
import {
  outputDataFromJson,
  outputDataToJson,
  scannedBlockInfoToJson,
  summaryInfoToJson,
  txLogEntryFromJson,
  txLogEntryToJson,
} from '../../../core/wallet/types_json.js';

const ID0 = Identifier.fromHex('0300000000000000000000000000000000');
const ID1 = Identifier.fromHex('0300000000000000000000000100000000');
const C0 = '089be87c488db1e7c783b19272a83b23bce56a5263163554b345c6f7ffedac517e';
const C1 = '09d8836ffd38ffca42567ef965fdcf1f35b05aeb357664d70cd482438ca0ca0c9e';

function coinbase(keyId: Identifier, n: number, commit: string, height: bigint): OutputData {
  return {
    rootKeyId: defaultAccountId(),
    keyId,
    nChild: n,
    commit,
    mmrIndex: height,
    value: 1_457_920_000n,
    status: 'Unspent',
    height,
    lockHeight: height + 3n,
    isCoinbase: true,
    txLogEntry: n,
  };
}

const OUT0 = coinbase(ID0, 0, C0, 1n);
const OUT1 = coinbase(ID1, 1, C1, 2n);
const TS = parseTimestamp('2019-01-15T16:01:26Z');

function confirmedCoinbase(id: number, excess: string): TxLogEntry {
  assert.ok(TS !== null);
  return {
    ...newTxLogEntry(defaultAccountId(), 'ConfirmedCoinbase', id, TS),
    confirmationTs: TS,
    confirmed: true,
    numOutputs: 1,
    amountCredited: 1_457_920_000n,
    kernelExcess: excess,
    kernelLookupMinHeight: BigInt(id + 1),
    confirmationHeight: BigInt(id + 1),
  };
}

const TX0 = confirmedCoinbase(
  0,
  '09a89280fa8d888358ab730383f00a3d990b7f2c6b17fc960501f30aac8e014478',
);

describe('timestamps as chrono prints them', () => {
  it('no fraction, or the shortest of 3, 6, 9 digits; always Z', () => {
    assert.equal(formatTimestamp({ secs: 1_547_568_086, nanos: 0 }), '2019-01-15T16:01:26Z');
    assert.equal(
      formatTimestamp({ secs: 1_547_568_086, nanos: 120_000_000 }),
      '2019-01-15T16:01:26.120Z',
    );
    assert.equal(
      formatTimestamp({ secs: 1_547_568_086, nanos: 123_456_000 }),
      '2019-01-15T16:01:26.123456Z',
    );
    assert.equal(
      formatTimestamp({ secs: 1_547_568_086, nanos: 5 }),
      '2019-01-15T16:01:26.000000005Z',
    );
  });

  it('parses offsets and fractions back to the same instant', () => {
    assert.deepEqual(parseTimestamp('2019-01-15T17:01:26.5+01:00'), {
      secs: 1_547_568_086,
      nanos: 500_000_000,
    });
    assert.equal(parseTimestamp('2019-13-15T16:01:26Z'), null);
  });
});

describe('OutputData JSON', () => {
  it('prints in struct order with u64-strings', () => {
    assert.equal(
      stringifyJson(outputDataToJson(OUT0)),
      `{"root_key_id":"0200000000000000000000000000000000","key_id":"0300000000000000000000000000000000","n_child":0,"commit":"${C0}","mmr_index":"1","value":"1457920000","status":"Unspent","height":"1","lock_height":"4","is_coinbase":true,"tx_log_entry":0}`,
    );
  });

  it('round-trips, and accepts numbers for u64-strings', () => {
    const json = outputDataToJson(OUT1);
    assert.deepEqual(outputDataToJson(outputDataFromJson(json)), json);
    const numeric = { ...json, value: 1_457_920_000, height: 2 };
    assert.equal(outputDataFromJson(numeric).value, 1_457_920_000n);
  });

  it('refuses a bad status or a missing required key', () => {
    assert.throws(
      () => outputDataFromJson({ ...outputDataToJson(OUT0), status: 'Gone' }),
      JsonFormError,
    );
    const { mmr_index: _, ...noMmr } = outputDataToJson(OUT0);
    assert.throws(() => outputDataFromJson(noMmr), /missing field `mmr_index`/);
  });
});

describe('TxLogEntry JSON', () => {
  it('prints every field in struct order', () => {
    assert.equal(
      stringifyJson(txLogEntryToJson(TX0)),
      '{"confirmation_height":1,"parent_key_id":"0200000000000000000000000000000000","id":0,' +
        '"tx_slate_id":null,"tx_type":"ConfirmedCoinbase","creation_ts":"2019-01-15T16:01:26Z",' +
        '"confirmation_ts":"2019-01-15T16:01:26Z","confirmed":true,"num_inputs":0,"num_outputs":1,' +
        '"amount_credited":"1457920000","amount_debited":"0","fee":null,"ttl_cutoff_height":null,' +
        '"messages":null,"stored_tx":null,' +
        '"kernel_excess":"09a89280fa8d888358ab730383f00a3d990b7f2c6b17fc960501f30aac8e014478",' +
        '"kernel_lookup_min_height":1,"payment_proof":null,"public_addr":null}',
    );
  });

  it('parses with the optional keys absent and normalises the slate id', () => {
    const {
      confirmation_height: _a,
      payment_proof: _b,
      public_addr: _c,
      ...rest
    } = txLogEntryToJson(TX0);
    const t = txLogEntryFromJson({ ...rest, tx_slate_id: '0436430C2B02624C2032570501212B00' });
    assert.equal(t.txSlateId, '0436430c-2b02-624c-2032-570501212b00');
    assert.equal(t.confirmationHeight, null);
    assert.equal(t.amountCredited, 1_457_920_000n);
  });

  it('`fee` is a required key (custom deserializer without default)', () => {
    const { fee: _, ...noFee } = txLogEntryToJson(TX0);
    assert.throws(() => txLogEntryFromJson(noFee), /missing field `fee`/);
  });

  it('messages and payment proof round-trip', () => {
    const t: TxLogEntry = {
      ...TX0,
      messages: [
        {
          id: 0n,
          publicKey: `02${'11'.repeat(32)}`,
          message: 'hi',
          messageSig: null,
        },
      ],
      paymentProof: {
        receiverAddress: '22'.repeat(32),
        receiverSignature: null,
        senderAddressPath: 0,
        senderAddress: '33'.repeat(32),
        senderSignature: '44'.repeat(64),
      },
    };
    const json = txLogEntryToJson(t);
    assert.deepEqual(txLogEntryToJson(txLogEntryFromJson(parseJson(stringifyJson(json)))), json);
    assert.match(stringifyJson(json), /"messages":\{"messages":\[\{"id":"0","public_key":"02/);
  });
});

describe('paging (reference §4.1)', () => {
  it('retrieve_outputs doc example, exact text', () => {
    const page = pageOutputs(
      filterOutputs([OUT1, OUT0], {
        includeSpent: false,
        txId: null,
        parentKeyId: defaultAccountId(),
      }),
      {
        limit: null,
        offset: null,
        sortOrder: null,
      },
    );
    const json = retrieveOutputsResultToJson({
      refreshFromNode: true,
      pager: page.pager,
      outputs: page.items.map((o) => ({ output: o, commit: o.commit ?? '' })),
    });
    const text = stringifyJson(json);
    assert.ok(
      text.startsWith(
        '{"refresh_from_node":true,"pager":{"records_read":2,"total_records":2,"limit":0,"offset":0,"sort_order":"asc"},"outputs":[{"output":{"root_key_id"',
      ),
    );
    assert.deepEqual(
      page.items.map((o) => o.nChild),
      [0, 1],
    );
  });

  it('"desc" and any other string sort descending; ties keep storage order', () => {
    const a = { ...OUT0, nChild: 10 };
    const b = { ...OUT0, nChild: 11 };
    const c = { ...OUT1, nChild: 12 };
    const req = { limit: null, offset: null };
    assert.deepEqual(
      pageOutputs([a, b, c], { ...req, sortOrder: 'desc' }).items.map((o) => o.nChild),
      [12, 10, 11],
    );
    assert.deepEqual(
      pageOutputs([a, b, c], { ...req, sortOrder: 'DESC' }).items.map((o) => o.nChild),
      [12, 10, 11],
    );
    assert.deepEqual(
      pageOutputs([c, a, b], { ...req, sortOrder: 'asc' }).items.map((o) => o.nChild),
      [10, 11, 12],
    );
  });

  it('offset then limit; the pager echoes the request', () => {
    const outs = [0, 1, 2, 3, 4].map((i) => ({ ...OUT0, height: BigInt(i), nChild: i }));
    const p = pageOutputs(outs, { limit: 2, offset: 1, sortOrder: 'desc' });
    assert.deepEqual(
      p.items.map((o) => o.nChild),
      [3, 2],
    );
    assert.deepEqual(p.pager, {
      recordsRead: 2,
      totalRecords: 5,
      limit: 2,
      offset: 1,
      sortOrder: 'desc',
    });
    assert.equal(pageOutputs(outs, { limit: 3, offset: 9, sortOrder: null }).items.length, 0);
  });

  it('filters: spent, tx id, account, slate id, outstanding', () => {
    const spent = { ...OUT1, status: 'Spent' as const };
    assert.equal(
      filterOutputs([OUT0, spent], { includeSpent: false, txId: null, parentKeyId: null }).length,
      1,
    );
    assert.equal(
      filterOutputs([OUT0, spent], { includeSpent: true, txId: 1, parentKeyId: null }).length,
      1,
    );
    const other = Identifier.fromHex('0200000001000000000000000000000000');
    assert.equal(
      filterOutputs([OUT0], { includeSpent: true, txId: null, parentKeyId: other }).length,
      0,
    );
    const open = {
      ...TX0,
      id: 1,
      confirmed: false,
      txType: 'TxSentCreated' as const,
      txSlateId: 'x',
    };
    const f = { parentKeyId: null, txId: null, txSlateId: null, outstandingOnly: true };
    assert.deepEqual(
      filterTxs([TX0, open], f).map((t) => t.id),
      [1],
    );
    assert.deepEqual(
      filterTxs([TX0, open], { ...f, outstandingOnly: false, txSlateId: 'x' }).map((t) => t.id),
      [1],
    );
  });

  it('retrieve_txs sorts by creation time and prints txs under the pager', () => {
    const later = { ...TX0, id: 1, creationTs: { secs: TX0.creationTs.secs + 1, nanos: 0 } };
    const page = pageTxs([later, TX0], { limit: 1, offset: null, sortOrder: null });
    const text = stringifyJson(
      retrieveTxsResultToJson({ refreshFromNode: false, pager: page.pager, txs: page.items }),
    );
    assert.ok(
      text.startsWith(
        '{"refresh_from_node":false,"pager":{"records_read":1,"total_records":2,"limit":1,"offset":0,"sort_order":"asc"},"txs":[{"confirmation_height":1,"parent_key_id":"0200000000000000000000000000000000","id":0,',
      ),
    );
  });
});

describe('outputCommitHex', () => {
  it('uses the cached commitment, else recomputes it from value and key', () => {
    const keychain = ExtKeychain.fromSeed(new Uint8Array(32).fill(1));
    assert.equal(outputCommitHex(OUT0, keychain), C0);
    const fresh = outputCommitHex({ ...OUT0, commit: null }, keychain);
    assert.equal(
      fresh,
      toHex(keychain.commit(OUT0.value, OUT0.keyId, SwitchCommitmentType.Regular)),
    );
    assert.match(fresh, /^0[89][0-9a-f]{64}$/);
  });
});

describe('small shapes', () => {
  it('summary info is [bool, WalletInfo] with u64-strings; ScannedBlockInfo uses numbers', () => {
    const info = {
      lastConfirmedHeight: 4n,
      minimumConfirmations: 1n,
      total: 2_915_840_000n,
      amountAwaitingFinalization: 0n,
      amountAwaitingConfirmation: 0n,
      amountImmature: 1_457_920_000n,
      amountCurrentlySpendable: 1_457_920_000n,
      amountLocked: 0n,
    };
    assert.equal(
      stringifyJson(summaryInfoToJson(true, info)),
      '[true,{"last_confirmed_height":"4","minimum_confirmations":"1","total":"2915840000","amount_awaiting_finalization":"0","amount_awaiting_confirmation":"0","amount_immature":"1457920000","amount_currently_spendable":"1457920000","amount_locked":"0"}]',
    );
    assert.equal(
      stringifyJson(
        scannedBlockInfoToJson({ height: 5n, hash: 'ab', startPmmrIndex: 1n, lastPmmrIndex: 9n }),
      ),
      '{"height":5,"hash":"ab","start_pmmr_index":1,"last_pmmr_index":9}',
    );
  });
});
