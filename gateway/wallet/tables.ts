// The wallet's JSON-RPC method tables: `/v3/owner` (Epic's `OwnerRpcS`), `/v2/owner`
// (`OwnerRpc`: methods 1–17 without the token) and `/v2/foreign` (`ForeignRpc`), with Epic's
// parameter names and order. Each method calls the WalletApi; a WalletFailure becomes
// `result.Err` through RpcFailure (the V3 route then maps it to -32099, secure.ts); any other
// rejection is a crash, reported as Epic's `GenericError`.
import type { Token, WalletApi } from '../../actors/wallet/api.js';
import type { JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import { isBusy } from '../errors.js';
import { type MethodTable, methodTable, RpcFailure, type RpcMethod } from '../jsonrpc.js';
import {
  blockFees,
  bool,
  chainType,
  type Decoder,
  ecdhPubkey,
  initTxArgs,
  issueInvoiceTxArgs,
  nullable,
  optionalObject,
  paymentProof,
  slate,
  str,
  token,
  transactionV3,
  txLogEntry,
  u32,
  u64,
  usize,
  uuid,
} from './decode.js';

type Param = readonly [string, Decoder<unknown>];
type Args = readonly unknown[];

/** Any rejection → RpcFailure with the wallet's error JSON (a crash is Epic's GenericError). */
function toRpcFailure(e: unknown): unknown {
  if (e instanceof RpcFailure || isBusy(e)) return e;
  const err =
    e instanceof WalletFailure
      ? e.err
      : { GenericError: e instanceof Error ? e.message : String(e) };
  return new RpcFailure({ kind: 'Raw', err });
}

export function walletMethod(
  name: string,
  params: readonly Param[],
  run: (args: Args) => Promise<JsonValue>,
): RpcMethod {
  return {
    name,
    params: params.map(([p, decode]) => ({ name: p, decode })),
    run: async (args) => {
      try {
        return await run(args);
      } catch (e) {
        throw toRpcFailure(e);
      }
    },
  };
}

const optStr = nullable(str);
const optU32 = nullable(u32);
const optUsize = nullable(usize);
const optUuid = nullable(uuid);

const s = (a: Args, i: number) => a[i] as string;
const ns = (a: Args, i: number) => a[i] as string | null;
const b = (a: Args, i: number) => a[i] as boolean;
const n = (a: Args, i: number) => a[i] as number;
const nn = (a: Args, i: number) => a[i] as number | null;
const j = (a: Args, i: number) => a[i] as JsonValue;

/** One of Owner methods 1–17: parameters after the token, and the call given the token. */
interface SharedOwnerMethod {
  readonly name: string;
  readonly params: readonly Param[];
  readonly call: (api: WalletApi, t: Token, a: Args) => Promise<JsonValue>;
}

const SHARED_OWNER: readonly SharedOwnerMethod[] = [
  { name: 'accounts', params: [], call: (api, t) => api.accounts(t) },
  {
    name: 'create_account_path',
    params: [['label', str]],
    call: (api, t, a) => api.createAccountPath(t, s(a, 0)),
  },
  {
    name: 'set_active_account',
    params: [['label', str]],
    call: (api, t, a) => api.setActiveAccount(t, s(a, 0)),
  },
  {
    name: 'retrieve_outputs',
    params: [
      ['include_spent', bool],
      ['refresh_from_node', bool],
      ['tx_id', optU32],
      ['limit', optUsize],
      ['offset', optUsize],
      ['sort_order', optStr],
    ],
    call: (api, t, a) =>
      api.retrieveOutputs(t, b(a, 0), b(a, 1), nn(a, 2), nn(a, 3), nn(a, 4), ns(a, 5)),
  },
  {
    name: 'retrieve_txs',
    params: [
      ['refresh_from_node', bool],
      ['tx_id', optU32],
      ['tx_slate_id', optUuid],
      ['limit', optUsize],
      ['offset', optUsize],
      ['sort_order', optStr],
    ],
    call: (api, t, a) =>
      api.retrieveTxs(t, b(a, 0), nn(a, 1), ns(a, 2), nn(a, 3), nn(a, 4), ns(a, 5)),
  },
  {
    name: 'retrieve_summary_info',
    params: [
      ['refresh_from_node', bool],
      ['minimum_confirmations', u64],
    ],
    call: (api, t, a) => api.retrieveSummaryInfo(t, b(a, 0), a[1] as bigint),
  },
  {
    name: 'init_send_tx',
    params: [['args', initTxArgs]],
    call: (api, t, a) => api.initSendTx(t, a[0] as ReturnType<typeof initTxArgs>),
  },
  {
    name: 'issue_invoice_tx',
    params: [['args', issueInvoiceTxArgs]],
    call: (api, t, a) => api.issueInvoiceTx(t, a[0] as ReturnType<typeof issueInvoiceTxArgs>),
  },
  {
    name: 'process_invoice_tx',
    params: [
      ['slate', slate],
      ['args', initTxArgs],
    ],
    call: (api, t, a) => api.processInvoiceTx(t, j(a, 0), a[1] as ReturnType<typeof initTxArgs>),
  },
  {
    name: 'tx_lock_outputs',
    params: [
      ['slate', slate],
      ['participant_id', usize],
      ['addr_to', optStr],
    ],
    call: (api, t, a) => api.txLockOutputs(t, j(a, 0), n(a, 1), ns(a, 2)),
  },
  {
    name: 'finalize_tx',
    params: [['slate', slate]],
    call: (api, t, a) => api.finalizeTx(t, j(a, 0)),
  },
  {
    name: 'post_tx',
    params: [
      ['tx', transactionV3],
      ['fluff', bool],
    ],
    call: (api, t, a) => api.postTx(t, j(a, 0), b(a, 1)),
  },
  {
    name: 'cancel_tx',
    params: [
      ['tx_id', optU32],
      ['tx_slate_id', optUuid],
    ],
    call: (api, t, a) => api.cancelTx(t, nn(a, 0), ns(a, 1)),
  },
  {
    name: 'get_stored_tx',
    params: [['tx', txLogEntry]],
    call: (api, t, a) => api.getStoredTx(t, j(a, 0)),
  },
  {
    name: 'verify_slate_messages',
    params: [['slate', slate]],
    call: (api, t, a) => api.verifySlateMessages(t, j(a, 0)),
  },
  {
    name: 'scan',
    params: [
      ['start_height', nullable(u64)],
      ['delete_unconfirmed', bool],
    ],
    call: (api, t, a) => api.scan(t, a[0] as bigint | null, b(a, 1)),
  },
  { name: 'node_height', params: [], call: (api, t) => api.nodeHeight(t) },
];

/** Owner V3 methods 18–37 except `init_secure_api` (the listener's, see secure.ts). */
function lifecycleMethods(api: WalletApi): RpcMethod[] {
  const m = walletMethod;
  return [
    m('get_top_level_directory', [], () => api.getTopLevelDirectory()),
    m('set_top_level_directory', [['dir', str]], (a) => api.setTopLevelDirectory(s(a, 0))),
    m(
      'create_config',
      [
        ['chain_type', chainType],
        ['wallet_config', optionalObject],
        ['logging_config', optionalObject],
        ['tor_config', optionalObject],
        ['epicbox_config', optionalObject],
      ],
      (a) =>
        api.createConfig(a[0] as ReturnType<typeof chainType>, j(a, 1), j(a, 2), j(a, 3), j(a, 4)),
    ),
    m(
      'create_wallet',
      [
        ['name', optStr],
        ['mnemonic', optStr],
        ['mnemonic_length', u32],
        ['password', str],
      ],
      (a) => api.createWallet(ns(a, 0), ns(a, 1), n(a, 2), s(a, 3)),
    ),
    m(
      'open_wallet',
      [
        ['name', optStr],
        ['password', str],
      ],
      (a) => api.openWallet(ns(a, 0), s(a, 1)),
    ),
    m('close_wallet', [['name', optStr]], (a) => api.closeWallet(ns(a, 0))),
    m(
      'get_mnemonic',
      [
        ['name', optStr],
        ['password', str],
      ],
      (a) => api.getMnemonic(ns(a, 0), s(a, 1)),
    ),
    m(
      'change_password',
      [
        ['name', optStr],
        ['old', str],
        ['new', str],
        ['remove_backup', bool],
      ],
      (a) => api.changePassword(ns(a, 0), s(a, 1), s(a, 2), b(a, 3)),
    ),
    // Takes the token (spec §4.6); Epic's takes only `name`, so any page could call it.
    m(
      'delete_wallet',
      [
        ['token', token],
        ['name', optStr],
      ],
      (a) => api.deleteWallet(a[0] as Token, ns(a, 1)),
    ),
    m(
      'start_updater',
      [
        ['token', token],
        ['frequency', u32],
      ],
      (a) => api.startUpdater(a[0] as Token, n(a, 1)),
    ),
    m('stop_updater', [], () => api.stopUpdater()),
    m('get_updater_messages', [['count', u32]], (a) => api.getUpdaterMessages(n(a, 0))),
    m(
      'get_public_address',
      [
        ['token', token],
        ['derivation_index', u32],
      ],
      (a) => api.getPublicAddress(a[0] as Token, n(a, 1)),
    ),
    m(
      'get_public_proof_address',
      [
        ['token', token],
        ['derivation_index', u32],
      ],
      (a) => api.getPublicProofAddress(a[0] as Token, n(a, 1)),
    ),
    m('proof_address_from_onion_v3', [['address_v3', str]], (a) =>
      api.proofAddressFromOnionV3(s(a, 0)),
    ),
    m(
      'retrieve_payment_proof',
      [
        ['token', token],
        ['refresh_from_node', bool],
        ['tx_id', optU32],
        ['tx_slate_id', optUuid],
      ],
      (a) => api.retrievePaymentProof(a[0] as Token, b(a, 1), nn(a, 2), ns(a, 3)),
    ),
    m(
      'verify_payment_proof',
      [
        ['token', token],
        ['proof', paymentProof],
      ],
      (a) => api.verifyPaymentProof(a[0] as Token, a[1] as ReturnType<typeof paymentProof>),
    ),
    m('set_tor_config', [['tor_config', optionalObject]], (a) => api.setTorConfig(j(a, 0))),
    m('set_epicbox_config', [['epicbox_config', optionalObject]], (a) =>
      api.setEpicboxConfig(j(a, 0)),
    ),
  ];
}

/** `init_secure_api`'s parameter; its run is the listener's (secure.ts). */
export const ECDH_PUBKEY_PARAM: Param = ['ecdh_pubkey', ecdhPubkey];

/** The 36 V3 methods the wallet serves; secure.ts adds `init_secure_api` for the 37th. */
export function ownerV3Methods(api: WalletApi): RpcMethod[] {
  const shared = SHARED_OWNER.map((d) =>
    walletMethod(d.name, [['token', token], ...d.params], (a) =>
      d.call(api, a[0] as Token, a.slice(1)),
    ),
  );
  return [...shared, ...lifecycleMethods(api)];
}

/** `/v2/owner`: methods 1–17 without the token; the wallet runs them with "no mask". */
export function ownerV2Table(api: WalletApi): MethodTable {
  return methodTable(
    SHARED_OWNER.map((d) => walletMethod(d.name, d.params, (a) => d.call(api, null, a))),
  );
}

export function foreignTable(api: WalletApi): MethodTable {
  const m = walletMethod;
  const slateParam: Param = ['slate', slate];
  const fees: Param = ['block_fees', blockFees];
  return methodTable([
    m('check_version', [], () => api.checkVersion()),
    m('build_coinbase', [fees], (a) => api.buildCoinbase(a[0] as ReturnType<typeof blockFees>)),
    m('build_foundation', [fees], (a) => api.buildFoundation(a[0] as ReturnType<typeof blockFees>)),
    m('verify_slate_messages', [slateParam], (a) => api.foreignVerifySlateMessages(j(a, 0))),
    m(
      'receive_tx',
      [slateParam, ['dest_acct_name', optStr], ['message', optStr], ['addr_from', optStr]],
      (a) => api.receiveTx(j(a, 0), ns(a, 1), ns(a, 2), ns(a, 3)),
    ),
    m('finalize_invoice_tx', [slateParam], (a) => api.finalizeInvoiceTx(j(a, 0))),
  ]);
}
