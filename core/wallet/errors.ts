// The wallet's failures as Epic's `libwallet::Error` enum travels in JSON: serde's externally
// tagged form. A unit variant is its name as a string ("InvalidKeychainMask"), a newtype variant
// an object with one key ({"Lifecycle":"…"}), a struct variant an object holding an object
// ({"NotEnoughFunds":{…}}). The Owner/Foreign APIs put this value under `result.Err`; the V3
// route turns it into a -32099 message (`rpc32099Message`).
import { amountToHrString } from '../amount.js';
import { stringifyJson } from '../json/stringify.js';
import { isJsonObject, type JsonValue } from '../json/value.js';

/** The variant names this wallet produces; any other name is still accepted by `unit`/`newtype`. */
export type WalletErrorVariant =
  | 'NotEnoughFunds'
  | 'Fee'
  | 'ClientCallback'
  | 'Backend'
  | 'Node'
  | 'NodeStatus'
  | 'WalletComms'
  | 'Signature'
  | 'DuplicateTransactionId'
  | 'WalletSeedExists'
  | 'WalletSeedDoesntExist'
  | 'TransactionDoesntExist'
  | 'TransactionNotCancellable'
  | 'TransactionCancellationError'
  | 'TransactionAlreadyConfirmed'
  | 'TransactionAlreadyReceived'
  | 'TransactionBuildingNotCompleted'
  | 'AccountLabelAlreadyExists'
  | 'UnknownAccountLabel'
  | 'SlateVersionParse'
  | 'SlateDeser'
  | 'SlateVersion'
  | 'Compatibility'
  | 'KeychainDoesntExist'
  | 'Lifecycle'
  | 'InvalidKeychainMask'
  | 'PaymentProof'
  | 'PaymentProofRetrieval'
  | 'PaymentProofParsing'
  | 'AddressDecoding'
  | 'TransactionExpired'
  | 'Encryption'
  | 'Decryption'
  | 'NotFoundErr'
  | 'GenericError'
  | 'ArgumentError'
  | 'LibWallet'
  | 'Unauthorized'
  | 'NotFound';

const U64_MAX = (1n << 64n) - 1n;

/** serde prints u64 fields as JSON numbers; above 2^53 our JSON model needs a bigint. */
function u64Json(n: bigint): number | bigint {
  if (n < 0n || n > U64_MAX) throw new RangeError(`not a u64: ${n}`);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

export class WalletFailure extends Error {
  /** Epic's error enum value, externally tagged, exactly as it goes into `result.Err`. */
  readonly err: JsonValue;

  constructor(err: JsonValue) {
    super(rpc32099Message(err) ?? stringifyJson(err));
    this.name = 'WalletFailure';
    this.err = err;
  }

  /** The variant name: the string itself, or the single key of the object. */
  get variant(): string {
    if (typeof this.err === 'string') return this.err;
    if (isJsonObject(this.err)) return Object.keys(this.err)[0] ?? '';
    return '';
  }

  static unit(variant: WalletErrorVariant): WalletFailure {
    return new WalletFailure(variant);
  }

  static newtype(variant: WalletErrorVariant, value: JsonValue): WalletFailure {
    return new WalletFailure({ [variant]: value });
  }

  static lifecycle(message: string): WalletFailure {
    return WalletFailure.newtype('Lifecycle', message);
  }

  static keychainDoesntExist(): WalletFailure {
    return WalletFailure.unit('KeychainDoesntExist');
  }

  static invalidKeychainMask(): WalletFailure {
    return WalletFailure.unit('InvalidKeychainMask');
  }

  /** Amounts in the smallest unit; the `_disp` texts are Epic's `amount_to_hr_string(_, false)`. */
  static notEnoughFunds(available: bigint, needed: bigint): WalletFailure {
    return WalletFailure.newtype('NotEnoughFunds', {
      available: u64Json(available),
      available_disp: amountToHrString(available, false),
      needed: u64Json(needed),
      needed_disp: amountToHrString(needed, false),
    });
  }

  static transactionDoesntExist(what: string): WalletFailure {
    return WalletFailure.newtype('TransactionDoesntExist', what);
  }

  static transactionNotCancellable(what: string): WalletFailure {
    return WalletFailure.newtype('TransactionNotCancellable', what);
  }

  static transactionCancellationError(message: string): WalletFailure {
    return WalletFailure.newtype('TransactionCancellationError', message);
  }

  static transactionAlreadyReceived(slateId: string): WalletFailure {
    return WalletFailure.newtype('TransactionAlreadyReceived', slateId);
  }

  /** Epic's text is "Wallet seed already exists at: <data dir>". */
  static walletSeedExists(dataDir: string): WalletFailure {
    return WalletFailure.newtype('WalletSeedExists', `Wallet seed already exists at: ${dataDir}`);
  }

  static walletSeedDoesntExist(): WalletFailure {
    return WalletFailure.unit('WalletSeedDoesntExist');
  }

  static encryption(): WalletFailure {
    return WalletFailure.unit('Encryption');
  }

  static decryption(): WalletFailure {
    return WalletFailure.unit('Decryption');
  }

  static fee(message: string): WalletFailure {
    return WalletFailure.newtype('Fee', message);
  }

  static clientCallback(message: string): WalletFailure {
    return WalletFailure.newtype('ClientCallback', message);
  }

  static paymentProof(message: string): WalletFailure {
    return WalletFailure.newtype('PaymentProof', message);
  }

  static paymentProofRetrieval(message: string): WalletFailure {
    return WalletFailure.newtype('PaymentProofRetrieval', message);
  }

  static genericError(message: string): WalletFailure {
    return WalletFailure.newtype('GenericError', message);
  }

  static argumentError(message: string): WalletFailure {
    return WalletFailure.newtype('ArgumentError', message);
  }

  static accountLabelAlreadyExists(label: string): WalletFailure {
    return WalletFailure.newtype('AccountLabelAlreadyExists', label);
  }

  static unknownAccountLabel(label: string): WalletFailure {
    return WalletFailure.newtype('UnknownAccountLabel', label);
  }

  static backend(message: string): WalletFailure {
    return WalletFailure.newtype('Backend', message);
  }

  static nodeStatus(message: string): WalletFailure {
    return WalletFailure.newtype('NodeStatus', message);
  }

  static notFoundErr(message: string): WalletFailure {
    return WalletFailure.newtype('NotFoundErr', message);
  }
}

export function isWalletFailure(e: unknown): e is WalletFailure {
  return e instanceof WalletFailure;
}

/**
 * The message of the V3 route's -32099 error for a `result.Err` value (Epic's
 * `OwnerV3Helpers::check_error_response`), or null when Epic would pass the reply on unchanged
 * (an `Err` that is neither a string nor an object):
 * - a string is the message itself;
 * - an object whose values are all strings gives `Key: value`;
 * - any other object gives `Key: <compact JSON of the value>`, keys sorted as serde_json's
 *   default map prints them.
 * Epic walks a HashMap and keeps the last pair; externally tagged values have exactly one.
 */
export function rpc32099Message(err: JsonValue): string | null {
  if (typeof err === 'string') return err;
  if (!isJsonObject(err)) return null;
  const entries = Object.entries(err);
  const last = entries[entries.length - 1];
  if (last === undefined) return '';
  const [key, value] = last;
  const allStrings = entries.every(([, v]) => typeof v === 'string');
  const shown = allStrings ? (value as string) : stringifyJson(value, { sortKeys: true });
  return `${key}: ${shown}`;
}

// Epic's `Display` texts (thiserror) of the variants above, for logs and the command line.
const DISPLAY: Readonly<Record<string, (v: JsonValue) => string>> = {
  NotEnoughFunds: (v) => {
    const o = isJsonObject(v) ? v : {};
    return `Not enough funds. Required: ${o.needed_disp}, Available: ${o.available_disp}`;
  },
  Fee: (v) => `Fee Error: ${v}`,
  ClientCallback: (v) => `Client Callback Error: ${v}`,
  Backend: (v) => `Wallet store error: ${v}`,
  Node: () => 'Node API error',
  NodeStatus: (v) => `Node status error: ${v}`,
  WalletComms: (v) => `Wallet Communication Error: ${v}`,
  Signature: (v) => `Signature error: ${v}`,
  DuplicateTransactionId: () => 'Duplicate transaction ID error',
  WalletSeedExists: (v) => `Wallet seed exists error: ${v}`,
  WalletSeedDoesntExist: () => "Wallet seed doesn't exist error",
  TransactionDoesntExist: (v) => `Transaction ${v} doesn't exist`,
  TransactionNotCancellable: (v) => `Transaction ${v} cannot be cancelled`,
  TransactionCancellationError: (v) => `Cancellation Error: ${v}`,
  TransactionAlreadyConfirmed: () => 'Transaction already confirmed error',
  TransactionAlreadyReceived: (v) => `Transaction ${v} has already been received`,
  TransactionBuildingNotCompleted: (v) => `Transaction building not completed: ${v}`,
  AccountLabelAlreadyExists: (v) => `Account Label '${v}' already exists`,
  UnknownAccountLabel: (v) => `Unknown Account Label '${v}'`,
  KeychainDoesntExist: () => "Keychain doesn't exist (has wallet been opened?)",
  Lifecycle: (v) => `Lifecycle Error: ${v}`,
  InvalidKeychainMask: () => 'Supplied Keychain Mask Token is incorrect',
  PaymentProof: (v) => `Payment Proof generation error: ${v}`,
  PaymentProofRetrieval: (v) => `Payment Proof retrieval error: ${v}`,
  TransactionExpired: () => 'Transaction Expired',
  Encryption: () => 'Unable to encrypt message',
  Decryption: () => 'Unable to decrypt message',
  NotFoundErr: (v) => `NotFoundErr Error: ${v}`,
  GenericError: (v) => `Generic error: ${v}`,
  ArgumentError: (v) => `Invalid Arguments: ${v}`,
  LibWallet: (v) => `LibWallet Error: ${v}`,
};

/**
 * Epic's human text for an error value (`Lifecycle Error: …`, `Not enough funds. Required: …`),
 * for the command line; variants without an entry fall back to the -32099 form.
 */
export function epicDisplay(err: JsonValue): string {
  const variant = typeof err === 'string' ? err : isJsonObject(err) ? Object.keys(err)[0] : '';
  const show = variant === undefined ? undefined : DISPLAY[variant];
  if (show === undefined) return rpc32099Message(err) ?? stringifyJson(err);
  const payload = isJsonObject(err) && variant !== undefined ? (err[variant] ?? null) : null;
  return show(payload);
}
