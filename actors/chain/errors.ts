// Why the chain refused a block, as Epic's `chain::Error` names and prints it: the API answers
// `{"Internal": <message>}` with exactly this text (Epic converts chain errors with to_string),
// and miners and pools match on it.
import { toHex } from '../../core/bytes.js';

export type ChainErrorKind =
  | 'Unfit'
  | 'Orphan'
  | 'OldBlock'
  | 'DifficultyTooLow'
  | 'WrongTotalDifficulty'
  | 'LowEdgebits'
  | 'InvalidScaling'
  | 'InvalidPow'
  | 'InvalidBlockProof'
  | 'InvalidBlockTime'
  | 'InvalidBlockHeight'
  | 'InvalidBlockVersion'
  | 'InvalidRoot'
  | 'InvalidMMRSize'
  | 'AlreadySpent'
  | 'DuplicateCommitment'
  | 'ImmatureCoinbase'
  | 'TxLockHeight'
  | 'InvalidSortAlgo'
  | 'ThereIsNotPolicy'
  | 'PolicyIsNotAllowed'
  | 'InvalidSeed'
  | 'CheckpointFailure'
  | 'StoreErr'
  | 'Other';

/** Rust's `Debug` of a pedersen Commitment, as Epic's AlreadySpent/DuplicateCommitment print it. */
export function commitmentDebug(commit: Uint8Array): string {
  return `Commitment(${toHex(commit)})`;
}

const FIXED: Partial<Record<ChainErrorKind, string>> = {
  Orphan: 'Orphan',
  OldBlock: 'Old Block',
  DifficultyTooLow: 'Difficulty is too low compared to ours or the block PoW hash',
  WrongTotalDifficulty: 'Addition of difficulties on all previous blocks is wrong',
  LowEdgebits: 'Cuckoo Size too small',
  InvalidScaling: 'Wrong scaling factor',
  InvalidPow: 'Invalid PoW',
  InvalidBlockTime: 'Invalid Block Time',
  InvalidBlockHeight: 'Invalid Block Height',
  InvalidRoot: 'Invalid Root',
  InvalidMMRSize: 'Invalid MMR Size',
  ImmatureCoinbase: 'Attempt to spend immature coinbase',
  TxLockHeight: 'Transaction Lock Height',
  InvalidSortAlgo: 'Wrong sort algorithm',
  ThereIsNotPolicy: "There's not policy",
  PolicyIsNotAllowed: 'Policy is not allowed',
  InvalidSeed: 'Invalid seed',
  CheckpointFailure: 'Checkpoint Integrity Failure: Mismatched hashes',
};

const PREFIX: Partial<Record<ChainErrorKind, string>> = {
  Unfit: 'Block is unfit: ',
  InvalidBlockProof: 'Invalid Block Proof ',
  InvalidBlockVersion: 'Invalid Block Version: ',
  AlreadySpent: 'Already Spent: ',
  DuplicateCommitment: 'Duplicate Commitment: ',
  StoreErr: 'Store error: ',
  Other: 'Other Error: ',
};

export class ChainError extends Error {
  readonly kind: ChainErrorKind;
  /** The kind again, as the code an actor's caller sees (the P2P layer bans on bad data). */
  readonly code: ChainErrorKind;
  /** Our own detail for logs (values compared); not part of the API text. */
  readonly detail: string;

  /** `arg` is the variant's payload as Epic prints it (e.g. a reason, a commitment's Debug). */
  constructor(kind: ChainErrorKind, arg = '', detail = '') {
    super(FIXED[kind] ?? `${PREFIX[kind] ?? ''}${arg}`);
    this.name = 'ChainError';
    this.kind = kind;
    this.code = kind;
    this.detail = detail;
  }
}

/** Epic's `Unfit` reasons, verbatim. */
export const UNFIT = {
  alreadyInHead: 'already known in head',
  alreadyInStore: 'already known in store',
  alreadyProcessed: 'already processed',
} as const;

/** Kinds that are not the sender's fault (Epic's `Error::is_bad_data` is false for them). */
const NOT_BAD_DATA: ReadonlySet<ChainErrorKind> = new Set(['Unfit', 'Orphan', 'StoreErr', 'Other']);

/**
 * Epic's `is_bad_data` (`chain/src/error.rs`): whether a refusal proves the data invalid, so the
 * P2P layer bans the peer that sent it. Unknown parents (Orphan), duplicates (Unfit), our own
 * store's trouble and anything else (Other) are not bad data.
 */
export function isBadData(kind: ChainErrorKind): boolean {
  return !NOT_BAD_DATA.has(kind);
}
