// The wallet's method tables against Epic's traits (`OwnerRpcS`, `OwnerRpc`, `ForeignRpc`):
// every method, its parameter names in order; and the serde rules of the decoders.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WalletApi } from '../../../actors/wallet/api.js';
import type { JsonValue } from '../../../core/json/value.js';
import * as d from '../../../gateway/wallet/decode.js';
import { SecureOwner } from '../../../gateway/wallet/secure.js';
import { foreignTable, ownerV2Table, ownerV3Methods } from '../../../gateway/wallet/tables.js';

const api = {} as WalletApi;
const T = ['token'];
const PAGE = ['limit', 'offset', 'sort_order'];

/** OwnerRpc (V2): methods 1–17 of reference §4.1 without the token. */
const SHARED: Record<string, string[]> = {
  accounts: [],
  create_account_path: ['label'],
  set_active_account: ['label'],
  retrieve_outputs: ['include_spent', 'refresh_from_node', 'tx_id', ...PAGE],
  retrieve_txs: ['refresh_from_node', 'tx_id', 'tx_slate_id', ...PAGE],
  retrieve_summary_info: ['refresh_from_node', 'minimum_confirmations'],
  init_send_tx: ['args'],
  issue_invoice_tx: ['args'],
  process_invoice_tx: ['slate', 'args'],
  tx_lock_outputs: ['slate', 'participant_id', 'addr_to'],
  finalize_tx: ['slate'],
  post_tx: ['tx', 'fluff'],
  cancel_tx: ['tx_id', 'tx_slate_id'],
  get_stored_tx: ['tx'],
  verify_slate_messages: ['slate'],
  scan: ['start_height', 'delete_unconfirmed'],
  node_height: [],
};

const V3_REST: Record<string, string[]> = {
  get_top_level_directory: [],
  set_top_level_directory: ['dir'],
  create_config: ['chain_type', 'wallet_config', 'logging_config', 'tor_config', 'epicbox_config'],
  create_wallet: ['name', 'mnemonic', 'mnemonic_length', 'password'],
  open_wallet: ['name', 'password'],
  close_wallet: ['name'],
  get_mnemonic: ['name', 'password'],
  change_password: ['name', 'old', 'new', 'remove_backup'],
  delete_wallet: [...T, 'name'], // Epic: ['name'] (docs/wallet.md)
  start_updater: [...T, 'frequency'],
  stop_updater: [],
  get_updater_messages: ['count'],
  get_public_address: [...T, 'derivation_index'],
  get_public_proof_address: [...T, 'derivation_index'],
  proof_address_from_onion_v3: ['address_v3'],
  retrieve_payment_proof: [...T, 'refresh_from_node', 'tx_id', 'tx_slate_id'],
  verify_payment_proof: [...T, 'proof'],
  set_tor_config: ['tor_config'],
  set_epicbox_config: ['epicbox_config'],
};

const names = (methods: Iterable<{ name: string; params: readonly { name: string }[] }>) =>
  Object.fromEntries([...methods].map((m) => [m.name, m.params.map((p) => p.name)]));

describe('method tables', () => {
  it('V3: 36 methods here plus init_secure_api in the secure layer = 37', () => {
    const v3 = names(ownerV3Methods(api));
    const shared = Object.fromEntries(Object.entries(SHARED).map(([k, v]) => [k, [...T, ...v]]));
    assert.deepEqual(v3, { ...shared, ...V3_REST });
    assert.equal(Object.keys(v3).length, 36);
    assert.ok(new SecureOwner(ownerV3Methods(api)) instanceof SecureOwner);
  });
  it('V2 owner: 17 methods, no token', () => {
    assert.deepEqual(names(ownerV2Table(api).values()), SHARED);
  });
  it('foreign: 6 methods', () => {
    assert.deepEqual(names(foreignTable(api).values()), {
      check_version: [],
      build_coinbase: ['block_fees'],
      build_foundation: ['block_fees'],
      verify_slate_messages: ['slate'],
      receive_tx: ['slate', 'dest_acct_name', 'message', 'addr_from'],
      finalize_invoice_tx: ['slate'],
    });
  });
});

// Any throw is -32602 InvalidArgStructure (jsonrpc.ts); the class does not matter.
const throws = (f: () => unknown) => assert.throws(f, Error);
const KEY = `${'00'.repeat(31)}01`;

describe('decoders', () => {
  it('token: null, or the first 32 bytes as a valid secret key', () => {
    assert.equal(d.token(null), null);
    assert.deepEqual(d.token(`${KEY}ffff`), Uint8Array.from(Buffer.from(KEY, 'hex')));
    assert.deepEqual(d.token(`0x${KEY}`), Uint8Array.from(Buffer.from(KEY, 'hex')));
    throws(() => d.token('abcd'));
    throws(() => d.token('00'.repeat(32)));
    throws(() => d.token('ff'.repeat(32)));
    throws(() => d.token(5));
  });
  it('string_or_u64 and plain integers', () => {
    assert.equal(d.stringOrU64('18446744073709551615'), 18446744073709551615n);
    assert.equal(d.stringOrU64(7), 7n);
    assert.equal(d.stringOrU64('+7'), 7n);
    throws(() => d.stringOrU64('18446744073709551616'));
    throws(() => d.stringOrU64('-1'));
    throws(() => d.stringOrU64('1.5'));
    assert.throws(() => d.u64('7'));
    assert.throws(() => d.u32(2 ** 32));
    assert.equal(d.usize(2n ** 64n - 1n), Number.MAX_SAFE_INTEGER);
  });
  it('uuid forms', () => {
    const want = '0436430c-2b02-624c-2032-570501212b00';
    for (const form of [
      want,
      want.toUpperCase(),
      want.replaceAll('-', ''),
      `{${want}}`,
      `urn:uuid:${want}`,
    ])
      assert.equal(d.uuid(form), want);
    throws(() => d.uuid('0436430c-2b02-624c-2032-570501212b0'));
  });
  it('identifier: up to 17 bytes, zero-filled', () => {
    assert.deepEqual(d.identifier('0302'), Uint8Array.from([3, 2, ...new Array(15).fill(0)]));
  });
  it('InitTxArgs: custom-deserialized fields are required keys, plain Options are not', () => {
    const args: Record<string, JsonValue> = {
      amount: '600000000',
      minimum_confirmations: 10,
      max_outputs: 500,
      num_change_outputs: 1,
      selection_strategy_is_use_all: true,
      ttl_blocks: '5',
      payment_proof_recipient_address: null,
    };
    assert.deepEqual(d.initTxArgs(args), {
      srcAcctName: null,
      amount: 600000000n,
      minimumConfirmations: 10n,
      maxOutputs: 500,
      numChangeOutputs: 1,
      selectionStrategyIsUseAll: true,
      message: null,
      targetSlateVersion: null,
      ttlBlocks: 5n,
      paymentProofRecipientAddress: null,
      estimateOnly: null,
      sendArgs: null,
    });
    const { ttl_blocks: _t, ...noTtl } = args;
    throws(() => d.initTxArgs(noTtl));
    const { payment_proof_recipient_address: _p, ...noProof } = args;
    throws(() => d.initTxArgs(noProof));
    throws(() => d.initTxArgs({ ...args, max_outputs: '500' }));
    const send = { method: 'http', dest: 'http://x', finalize: true, post_tx: false, fluff: true };
    assert.deepEqual(d.initTxArgs({ ...args, send_args: send }).sendArgs, {
      method: 'http',
      dest: 'http://x',
      finalize: true,
      postTx: false,
      fluff: true,
    });
    const pk = 'd03c09e9c19bb74aa9ea44e0fe5ae237a9bf40bddf0941064a80913a4459c8bb';
    const withProof = d.initTxArgs({ ...args, payment_proof_recipient_address: pk });
    assert.equal(
      Buffer.from(withProof.paymentProofRecipientAddress as Uint8Array).toString('hex'),
      pk,
    );
  });
  it('BlockFees, PaymentProof, chain types', () => {
    assert.deepEqual(d.blockFees({ fees: 0, height: '1' }), { fees: 0n, height: 1n, keyId: null });
    throws(() => d.blockFees({ fees: 0 }));
    throws(() =>
      d.paymentProof({
        amount: '1',
        excess: '08',
        recipient_address: 'a',
        recipient_sig: '',
        sender_address: 'b',
        sender_sig: '',
      }),
    );
    assert.equal(d.chainType('UserTesting'), 'UserTesting');
    throws(() => d.chainType('Testnet'));
    throws(() => d.object([]));
    assert.equal(d.optionalObject(null), null);
  });
});
