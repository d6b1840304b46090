// Why a proof of work failed, one code per cause. The Cuckoo codes carry Epic's own messages
// (`core/src/pow/cuckatoo.rs`, `cuckaroo.rs`); the pipeline maps every one of them to
// InvalidPow, so the codes matter for diagnostics and tests, not for consensus.

export type PowErrorCode =
  // Cuckoo family (Epic sizes the check by the proof; we require the chain's proof size first)
  | 'TooFewNonces'
  | 'TooManyNonces'
  | 'EdgeTooBig'
  | 'EdgesNotAscending'
  | 'DuplicateEdge'
  | 'EndpointsDontMatch'
  | 'BranchInCycle'
  | 'CycleDeadEnds'
  | 'CycleTooShort'
  // a proof of one kind handed to the verifier of another
  | 'WrongAlgorithm'
  | 'InvalidMd5'
  | 'InvalidRandomX'
  | 'RandomXUnavailable'
  | 'InvalidProgPow'
  | 'ProgPowUnavailable';

/** Epic's message for each cause; ours where Epic has no such check or says nothing useful. */
const EPIC_MESSAGES: Readonly<Record<PowErrorCode, string>> = {
  TooFewNonces: 'fewer nonces than the proof size',
  TooManyNonces: 'more nonces than the proof size',
  EdgeTooBig: 'edge too big',
  EdgesNotAscending: 'edges not ascending',
  // Epic finds a repeated edge with the same comparison as an unsorted one.
  DuplicateEdge: 'edges not ascending',
  EndpointsDontMatch: "endpoints don't match up",
  BranchInCycle: 'branch in cycle',
  CycleDeadEnds: 'cycle dead ends',
  CycleTooShort: 'cycle too short',
  WrongAlgorithm: 'wrong algorithm',
  // Epic reports a wrong MD5 digest as Error::EdgeAddition.
  InvalidMd5: 'md5 digest does not match',
  InvalidRandomX: 'Hash randomx invalid!',
  RandomXUnavailable: 'no RandomX backend is available',
  InvalidProgPow: 'Hash progpow invalid!',
  ProgPowUnavailable: 'no ProgPoW verifier is available',
};

export class PowError extends Error {
  readonly code: PowErrorCode;

  constructor(code: PowErrorCode, detail?: string) {
    const base = EPIC_MESSAGES[code];
    super(detail === undefined ? base : `${base}: ${detail}`);
    this.name = 'PowError';
    this.code = code;
  }

  /** The text Epic's verifier gives for this cause. */
  get epicMessage(): string {
    return EPIC_MESSAGES[this.code];
  }
}

export function powFail(code: PowErrorCode, detail?: string): never {
  throw new PowError(code, detail);
}
