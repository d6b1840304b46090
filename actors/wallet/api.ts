// The wallet's operations as the listeners and the CLI call them: one method per method of
// epic-wallet 4.0's Owner API (V3; V2 is V3 without the token) and Foreign API. Arguments are
// decoded plain values (the gateway's tables did the JSON work); results resolve with the `Ok`
// payload exactly as Epic prints it; failures reject with a WalletFailure (core/wallet/errors.ts)
// whose `err` is Epic's externally tagged wallet `Error` (`"InvalidKeychainMask"`,
// `{"Lifecycle":"…"}`, `{"NotEnoughFunds":{…}}`).
//
// `init_secure_api` is not here: its key belongs to the Owner listener, not to the wallet
// (gateway/wallet/secure.ts serves it). Slates, transactions and tx log entries arrive as the
// client's JSON: the gateway's decoders have checked that they parse (a malformed one is -32602,
// as Epic's typed parameters are), and the service parses them again into its own types.
import type { JsonValue } from '../../core/json/value.js';

/** Epic's `Token`: the keychain mask from `open_wallet` (32 bytes), or null ("no mask"). */
export type Token = Uint8Array | null;

/** `InitTxSendArgs`: send the slate on after building it. */
export interface InitTxSendArgs {
  readonly method: string;
  readonly dest: string;
  readonly finalize: boolean;
  readonly postTx: boolean;
  readonly fluff: boolean;
}

/** `InitTxArgs` (reference §4.1); optional keys absent in JSON read as null. */
export interface InitTxArgs {
  readonly srcAcctName: string | null;
  readonly amount: bigint;
  readonly minimumConfirmations: bigint;
  readonly maxOutputs: number;
  readonly numChangeOutputs: number;
  readonly selectionStrategyIsUseAll: boolean;
  readonly message: string | null;
  readonly targetSlateVersion: number | null;
  readonly ttlBlocks: bigint | null;
  /** ed25519 public key, 32 bytes. */
  readonly paymentProofRecipientAddress: Uint8Array | null;
  readonly estimateOnly: boolean | null;
  readonly sendArgs: InitTxSendArgs | null;
}

/** `IssueInvoiceTxArgs`. */
export interface IssueInvoiceTxArgs {
  readonly destAcctName: string | null;
  readonly amount: bigint;
  readonly message: string | null;
  readonly targetSlateVersion: number | null;
}

/** `PaymentProof` as `verify_payment_proof` receives it. */
export interface PaymentProof {
  readonly amount: bigint;
  /** Kernel excess commitment, 33 bytes. */
  readonly excess: Uint8Array;
  /** Onion v3 address text (decoded by the service: a bad address is the wallet's error). */
  readonly recipientAddress: string;
  /** ed25519 signature, 64 bytes. */
  readonly recipientSig: Uint8Array;
  readonly senderAddress: string;
  readonly senderSig: Uint8Array;
}

/** `BlockFees` from a miner or the node. */
export interface BlockFees {
  readonly fees: bigint;
  readonly height: bigint;
  /** Identifier, 17 bytes. */
  readonly keyId: Uint8Array | null;
}

/** `global::ChainTypes` as `create_config` names it. */
export type ChainTypeName = 'AutomatedTesting' | 'UserTesting' | 'Floonet' | 'Mainnet';

/** The Owner API: methods 1–37 of reference §4.1 except `init_secure_api` (see above). */
export interface WalletOwnerApi {
  accounts(token: Token): Promise<JsonValue>;
  createAccountPath(token: Token, label: string): Promise<JsonValue>;
  setActiveAccount(token: Token, label: string): Promise<JsonValue>;
  retrieveOutputs(
    token: Token,
    includeSpent: boolean,
    refreshFromNode: boolean,
    txId: number | null,
    limit: number | null,
    offset: number | null,
    sortOrder: string | null,
  ): Promise<JsonValue>;
  retrieveTxs(
    token: Token,
    refreshFromNode: boolean,
    txId: number | null,
    /** Lower-case hyphenated UUID. */
    txSlateId: string | null,
    limit: number | null,
    offset: number | null,
    sortOrder: string | null,
  ): Promise<JsonValue>;
  retrieveSummaryInfo(
    token: Token,
    refreshFromNode: boolean,
    minimumConfirmations: bigint,
  ): Promise<JsonValue>;
  initSendTx(token: Token, args: InitTxArgs): Promise<JsonValue>;
  issueInvoiceTx(token: Token, args: IssueInvoiceTxArgs): Promise<JsonValue>;
  processInvoiceTx(token: Token, slate: JsonValue, args: InitTxArgs): Promise<JsonValue>;
  txLockOutputs(
    token: Token,
    slate: JsonValue,
    participantId: number,
    addrTo: string | null,
  ): Promise<JsonValue>;
  finalizeTx(token: Token, slate: JsonValue): Promise<JsonValue>;
  /** `tx`: a TransactionV3 as JSON. */
  postTx(token: Token, tx: JsonValue, fluff: boolean): Promise<JsonValue>;
  cancelTx(token: Token, txId: number | null, txSlateId: string | null): Promise<JsonValue>;
  /** `tx`: a TxLogEntry as JSON (an object). */
  getStoredTx(token: Token, tx: JsonValue): Promise<JsonValue>;
  verifySlateMessages(token: Token, slate: JsonValue): Promise<JsonValue>;
  scan(token: Token, startHeight: bigint | null, deleteUnconfirmed: boolean): Promise<JsonValue>;
  nodeHeight(token: Token): Promise<JsonValue>;
  getTopLevelDirectory(): Promise<JsonValue>;
  setTopLevelDirectory(dir: string): Promise<JsonValue>;
  /** The four configs are objects (Epic's structs, unparsed) or null. */
  createConfig(
    chainType: ChainTypeName,
    walletConfig: JsonValue,
    loggingConfig: JsonValue,
    torConfig: JsonValue,
    epicboxConfig: JsonValue,
  ): Promise<JsonValue>;
  createWallet(
    name: string | null,
    mnemonic: string | null,
    mnemonicLength: number,
    password: string,
  ): Promise<JsonValue>;
  /** Resolves with the new token as hex (every call invalidates the earlier tokens). */
  openWallet(name: string | null, password: string): Promise<JsonValue>;
  closeWallet(name: string | null): Promise<JsonValue>;
  getMnemonic(name: string | null, password: string): Promise<JsonValue>;
  changePassword(
    name: string | null,
    oldPassword: string,
    newPassword: string,
    removeBackup: boolean,
  ): Promise<JsonValue>;
  /** Checks the token first (Epic's takes none; spec §4.6). */
  deleteWallet(token: Token, name: string | null): Promise<JsonValue>;
  /** `frequency` in milliseconds. */
  startUpdater(token: Token, frequency: number): Promise<JsonValue>;
  stopUpdater(): Promise<JsonValue>;
  getUpdaterMessages(count: number): Promise<JsonValue>;
  getPublicAddress(token: Token, derivationIndex: number): Promise<JsonValue>;
  getPublicProofAddress(token: Token, derivationIndex: number): Promise<JsonValue>;
  proofAddressFromOnionV3(addressV3: string): Promise<JsonValue>;
  retrievePaymentProof(
    token: Token,
    refreshFromNode: boolean,
    txId: number | null,
    txSlateId: string | null,
  ): Promise<JsonValue>;
  verifyPaymentProof(token: Token, proof: PaymentProof): Promise<JsonValue>;
  /** An object or null. */
  setTorConfig(torConfig: JsonValue): Promise<JsonValue>;
  /** An object or null. */
  setEpicboxConfig(epicboxConfig: JsonValue): Promise<JsonValue>;
}

/** The Foreign API (reference §5), plus the sync flag its listener answers 503 from. */
export interface WalletForeignApi {
  checkVersion(): Promise<JsonValue>;
  buildCoinbase(blockFees: BlockFees): Promise<JsonValue>;
  buildFoundation(blockFees: BlockFees): Promise<JsonValue>;
  /** Foreign `verify_slate_messages` (the Owner one takes a token). */
  foreignVerifySlateMessages(slate: JsonValue): Promise<JsonValue>;
  receiveTx(
    slate: JsonValue,
    destAcctName: string | null,
    message: string | null,
    addrFrom: string | null,
  ): Promise<JsonValue>;
  finalizeInvoiceTx(slate: JsonValue): Promise<JsonValue>;
  /** The node last reported `no_sync` (Epic polls `get_status` every 10 s; false at start). */
  isNodeSynced(): boolean;
}

export interface WalletApi extends WalletOwnerApi, WalletForeignApi {}
