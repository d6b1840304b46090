// The pure code's errors as Epic's chain errors: header rules keep their variant, body rules
// become `InvalidBlockProof` with the block error's text, as Epic's `Block::validate` wraps
// them.
import { ChainFactsError } from '../../core/chain/next_header.js';
import { type ValidationCode, ValidationError } from '../../core/consensus/validation.js';
import { CommitError } from '../../core/crypto/commit.js';
import { KernelSumError } from '../../core/crypto/kernel.js';
import { ChainError, type ChainErrorKind } from './errors.js';

/** Header rules: the chain error of the same name. */
const HEADER_KINDS: Partial<Record<ValidationCode, ChainErrorKind>> = {
  TooMuchInFuture: 'InvalidBlockTime',
  InvalidBlockTime: 'InvalidBlockTime',
  LowEdgebits: 'LowEdgebits',
  InvalidSeed: 'InvalidSeed',
  PolicyIsNotAllowed: 'PolicyIsNotAllowed',
  ThereIsNotPolicy: 'ThereIsNotPolicy',
  InvalidSortAlgo: 'InvalidSortAlgo',
  InvalidBlockHeight: 'InvalidBlockHeight',
  DifficultyTooLow: 'DifficultyTooLow',
  WrongTotalDifficulty: 'WrongTotalDifficulty',
  InvalidScaling: 'InvalidScaling',
  CheckpointFailure: 'CheckpointFailure',
  ImmatureCoinbase: 'ImmatureCoinbase',
};

/** Body rules: the text of the block error Epic wraps in `Invalid Block Proof`. */
function blockErrorText(e: ValidationError): string {
  switch (e.code) {
    case 'TooHeavy':
      return 'Transaction Error Transaction too heavy';
    case 'SortError':
      return 'Transaction Error Serialization Error SortError';
    case 'DuplicateError':
      return 'Transaction Error Serialization Error DuplicateError';
    case 'CutThrough':
      return 'Transaction Error CutThrough Error';
    case 'KernelLockHeight':
      return `Kernel lock height exceeded ${e.detail.match(/lock height (\d+)/)?.[1] ?? ''}`;
    case 'InvalidFoundationOutput':
      return 'Invalid foundation output';
    case 'ExplicitBadHeader':
      return 'Other Error';
    default:
      return `Other Error`;
  }
}

export function chainErrorOf(e: unknown): Error {
  if (e instanceof ChainError) return e;
  if (e instanceof ValidationError) {
    if (e.code === 'InvalidBlockVersion') {
      const v = e.detail.match(/\d+/)?.[0] ?? '';
      return new ChainError('InvalidBlockVersion', `HeaderVersion(${v})`, e.detail);
    }
    const kind = HEADER_KINDS[e.code];
    if (kind !== undefined) return new ChainError(kind, '', e.detail);
    return new ChainError('InvalidBlockProof', blockErrorText(e), e.detail);
  }
  if (e instanceof KernelSumError) {
    const text = e.kind === 'CoinbaseSumMismatch' ? 'Coinbase sum mismatch' : 'Kernel sum mismatch';
    return new ChainError('InvalidBlockProof', text);
  }
  if (e instanceof CommitError)
    return new ChainError('InvalidBlockProof', 'Secp error IncorrectCommitSum', e.message);
  if (e instanceof ChainFactsError) {
    if (e.code === 'ThereIsNotPolicy') return new ChainError('ThereIsNotPolicy', '', e.detail);
    if (e.code === 'UnknownSeed')
      return new ChainError('StoreErr', 'DB Not Found Error: seed header', e.detail);
    return new ChainError('Other', e.detail, e.detail);
  }
  return e instanceof Error ? e : new Error(String(e));
}
