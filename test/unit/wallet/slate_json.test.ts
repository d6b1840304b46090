// Slate JSON V3/V2 (reference wallet.md §6.1, §6.2, §9): Epic's doc-example slates parse and
// print back to the same JSON, version detection follows the untagged enum (V3 iff the
// `ttl_cutoff_height` key is there) and `deserialize_upgrade` (by version_info.version),
// serde's leniencies are kept and bad input is a typed error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import type { JsonValue } from '../../../core/json/value.js';
import { JsonFormError } from '../../../core/serde/fields.js';
import { transactionToJson } from '../../../core/serde/transaction.js';
import { SlateError } from '../../../core/wallet/slate.js';
import {
  deserializeUpgrade,
  parseVersionedSlate,
  probeSlateVersion,
  slateFromV3Json,
  slateToJson,
  slateToVersionJson,
  transactionV3FromJson,
  transactionV3ToJson,
} from '../../../core/wallet/slate_json.js';
import * as DOC from './epic_doc_slates.js';

type Obj = { [k: string]: JsonValue };
const sorted = (v: JsonValue) => stringifyJson(v, { sortKeys: true });
const obj = (text: string) => parseJson(text) as Obj;
/** The leading keys V2 and V3 slates print alike, in serde struct order. */
const HEAD_KEYS = [
  'version_info',
  'num_participants',
  'id',
  'tx',
  'amount',
  'fee',
  'height',
  'lock_height',
];

describe('doc-example slates round-trip', () => {
  // The verify_slate_messages example nests `payment_proof` inside `tx` (ignored there by serde),
  // so it does not print back identically; it is parsed in the HeightLocked test below.
  for (const [name, text] of Object.entries(DOC)) {
    if (name === 'VERIFY_MESSAGES_SLATE') continue;
    it(`${name}: parse then print gives the same JSON (keys compared sorted)`, () => {
      const { slate, version } = parseVersionedSlate(parseJson(text));
      assert.equal(version, 'V3');
      assert.equal(sorted(slateToVersionJson(slate, 'V3')), sorted(parseJson(text)));
    });
  }

  it('prints V3 fields in serde struct order', () => {
    const slate = slateFromV3Json(parseJson(DOC.FINALIZE_TX_RESULT));
    const text = stringifyJson(slateToJson(slate));
    const keys = Object.keys(parseJson(text) as Obj);
    assert.deepEqual(keys, [
      ...HEAD_KEYS,
      'ttl_cutoff_height',
      'participant_data',
      'payment_proof',
    ]);
    assert.ok(
      text.startsWith('{"version_info":{"version":3,"orig_version":3,"block_header_version":6}'),
    );
    assert.ok(
      text.includes(
        '"kernels":[{"features":"Plain","fee":"700000","lock_height":"0","excess":"08d09187',
      ),
    );
  });

  it('keeps the zero excess and signature of an unfinalized kernel', () => {
    const slate = slateFromV3Json(parseJson(DOC.FINALIZE_TX_REQUEST));
    const k = slate.tx.body.kernels[0];
    assert.ok(k !== undefined);
    assert.equal(toHex(k.excess), '00'.repeat(33));
    assert.equal(toHex(k.excessSig), '00'.repeat(64));
    const printed = slateToJson(slate) as Obj;
    const kernel = ((printed.tx as Obj).body as Obj).kernels as Obj[];
    assert.equal(kernel[0]?.excess_sig, '00'.repeat(64));
  });
});

describe('version detection', () => {
  it('a ttl_cutoff_height key makes V3 whatever version_info says; its absence V2', () => {
    const withKey = obj(DOC.RECEIVE_TX_REQUEST);
    assert.equal((withKey.version_info as Obj).version, 2);
    assert.equal(parseVersionedSlate(withKey).version, 'V3');
    const { ttl_cutoff_height: _t, payment_proof: _p, ...v2 } = withKey;
    const parsed = parseVersionedSlate(v2);
    assert.equal(parsed.version, 'V2');
    assert.equal(parsed.slate.ttlCutoffHeight, null);
    assert.equal(parsed.slate.paymentProof, null);
  });

  it('a V3-shaped slate with a bad payment proof falls back to V2 (untagged enum)', () => {
    const s = obj(DOC.INIT_SEND_TX_RESULT);
    s.payment_proof = {
      sender_address: 'abcd',
      receiver_address: 'abcd',
      receiver_signature: null,
    };
    const parsed = parseVersionedSlate(s);
    assert.equal(parsed.version, 'V2');
    assert.equal(parsed.slate.paymentProof, null);
  });

  it('V2 printing drops ttl_cutoff_height and payment_proof; orig_version picks the form', () => {
    const slate = slateFromV3Json(parseJson(DOC.RECEIVE_TX_RESULT));
    assert.equal(slate.versionInfo.origVersion, 2);
    const keys = Object.keys(slateToJson(slate) as Obj);
    assert.deepEqual(keys, [...HEAD_KEYS, 'participant_data']);
    const bad = { ...slate, versionInfo: { ...slate.versionInfo, origVersion: 4 } };
    assert.throws(
      () => slateToJson(bad),
      (e: unknown) => e instanceof SlateError && e.variant === 'SlateSer',
    );
  });

  it('deserialize_upgrade chooses by version_info.version', () => {
    const s = obj(DOC.RECEIVE_TX_REQUEST);
    assert.equal(probeSlateVersion(s), 2);
    const slate = deserializeUpgrade(DOC.RECEIVE_TX_REQUEST);
    assert.equal(slate.ttlCutoffHeight, null);
    assert.equal(slate.amount, 60000000000n);
    const v7 = stringifyJson({
      ...s,
      version_info: { version: 7, orig_version: 7, block_header_version: 6 },
    });
    assert.throws(
      () => deserializeUpgrade(v7),
      (e: unknown) =>
        e instanceof SlateError &&
        e.display === 'Unknown Slate Version: 7' &&
        stringifyJson(e.toEpicJson()) === '{"SlateVersion":7}',
    );
    assert.equal(probeSlateVersion({ version: 1 }), 1);
    assert.equal(probeSlateVersion({}), 0);
    assert.throws(
      () => deserializeUpgrade('{'),
      (e: unknown) => e instanceof SlateError && e.variant === 'SlateVersionParse',
    );
    const v3NoTtl = { ...obj(DOC.INIT_SEND_TX_RESULT) };
    delete v3NoTtl.ttl_cutoff_height;
    assert.throws(
      () => deserializeUpgrade(stringifyJson(v3NoTtl)),
      (e: unknown) => e instanceof SlateError && stringifyJson(e.toEpicJson()) === '"SlateDeser"',
    );
  });

  it('refuses text above the length cap before parsing', () => {
    assert.throws(() => deserializeUpgrade(DOC.FINALIZE_TX_REQUEST, 1000), SlateError);
  });
});

describe("serde's leniencies and refusals", () => {
  const base = () => obj(DOC.FINALIZE_TX_REQUEST);

  it('u64 fields take numbers or digit strings (a leading + too); ids in any uuid form', () => {
    const s = base();
    s.amount = 600000000;
    s.fee = '+700000';
    s.id = '{0436430C2B02624C2032570501212B00}';
    const slate = parseVersionedSlate(s).slate;
    assert.equal(slate.amount, 600000000n);
    assert.equal(slate.fee, 700000n);
    assert.equal(slate.id, '0436430c-2b02-624c-2032-570501212b00');
    assert.equal(
      parseVersionedSlate({ ...s, id: 'urn:uuid:0436430c-2b02-624c-2032-570501212b00' }).slate.id,
      slate.id,
    );
  });

  it('a missing message key is null; part_sig and message_sig keys are required', () => {
    const s = base();
    const p = (s.participant_data as Obj[])[0] as Obj;
    delete p.message;
    assert.equal(parseVersionedSlate(s).slate.participantData[0]?.message, null);
    delete p.part_sig;
    assert.throws(() => parseVersionedSlate(s), JsonFormError);
  });

  it('refuses bad values with a path', () => {
    const cases: [string, (s: Obj) => void][] = [
      ['negative amount', (s) => (s.amount = -1)],
      ['amount above u64', (s) => (s.amount = '18446744073709551616')],
      ['amount with a sign', (s) => (s.amount = '-5')],
      ['num_participants as string', (s) => (s.num_participants = '2')],
      ['bad uuid', (s) => (s.id = '0436430c-2b02-624c-2032-570501212b0')],
      ['odd hex offset', (s) => ((s.tx as Obj).offset = 'abc')],
      [
        'pubkey not on curve',
        (s) => (((s.participant_data as Obj[])[0] as Obj).public_nonce = `02${'ff'.repeat(32)}`),
      ],
      ['short part_sig', (s) => (((s.participant_data as Obj[])[1] as Obj).part_sig = 'abcd')],
      [
        'sig half above n',
        (s) => (((s.participant_data as Obj[])[1] as Obj).part_sig = 'ff'.repeat(64)),
      ],
      [
        'short proof',
        (s) => (((((s.tx as Obj).body as Obj).outputs as Obj[])[0] as Obj).proof = 'abcd'),
      ],
      [
        'unknown kernel features',
        (s) =>
          (((((s.tx as Obj).body as Obj).kernels as Obj[])[0] as Obj).features =
            'NoRecentDuplicate'),
      ],
      ['version above u16', (s) => ((s.version_info as Obj).version = 70000)],
    ];
    for (const [what, edit] of cases) {
      const s = base();
      edit(s);
      assert.throws(() => parseVersionedSlate(s), JsonFormError, what);
    }
  });

  it('an offset of any length is padded or cut to 32 bytes (BlindingFactor::from_hex)', () => {
    const s = base();
    (s.tx as Obj).offset = '0x0102';
    assert.equal(toHex(parseVersionedSlate(s).slate.tx.offset), `0102${'00'.repeat(30)}`);
  });
});

describe('TransactionV3 and the node-native form', () => {
  it('converts the finalized doc transaction to the push_transaction shape (§9.7)', () => {
    const slate = slateFromV3Json(parseJson(DOC.FINALIZE_TX_RESULT));
    const v3 = transactionV3ToJson(slate.tx) as Obj;
    assert.equal(sorted(v3), sorted(obj(DOC.FINALIZE_TX_RESULT).tx as Obj as JsonValue));
    const native = transactionToJson(transactionV3FromJson(v3, 'tx')) as Obj;
    const kernels = (native.body as Obj).kernels as Obj[];
    assert.equal(
      stringifyJson(kernels[0] as Obj),
      '{"features":{"Plain":{"fee":700000}},"excess":"08d09187cb93cf5d6b97b28e8ca529912bf35ec8773d3e9af9b3c174a270dc7f05","excess_sig":"66074d25a751c4743342c90ad8ead9454daa00d9b9aed29bca321036d16c4b4da58bc9999cea000f52b45347c1c46a3a4f3f70719696a09289ede2a9c87b27fd"}',
    );
    assert.deepEqual((native.body as Obj).inputs, (v3.body as Obj).inputs);
    assert.deepEqual((native.body as Obj).outputs, (v3.body as Obj).outputs);
  });

  it('HeightLocked kernels keep fee and lock height both ways', () => {
    const slate = slateFromV3Json(parseJson(DOC.VERIFY_MESSAGES_SLATE));
    assert.deepEqual(slate.tx.body.kernels[0]?.features, {
      kind: 'HeightLocked',
      fee: 8000000n,
      lockHeight: 4n,
    });
    const k = ((transactionV3ToJson(slate.tx) as Obj).body as Obj).kernels as Obj[];
    assert.equal(k[0]?.features, 'HeightLocked');
    assert.equal(k[0]?.lock_height, '4');
  });
});
