// Public surface of Epic's 64-bit bulletproofs: prove, verify (single and batch), find the bad
// proofs of a failed batch, rewind, and the wallet/node proof builders.
export {
  findInvalidRangeProofs,
  type RangeProofItem,
  verifyRange,
  verifyRangeBatch,
} from './batch.js';
export {
  type BuildProofInput,
  buildProof,
  LegacyProofBuilder,
  type OutputIdentity,
  type ProofBuild,
  ProofBuilder,
  ProofBuilderError,
  type RewoundOutput,
  rewindWithBuilder,
  SWITCH_NONE,
  SWITCH_REGULAR,
  type SwitchType,
  ViewKeyBuilder,
} from './builders.js';
export { prepareFixedGenerators } from './fixed_msm.js';
export { PROOF_SIZE, rangeProofLength } from './layout.js';
export { PROOF_MESSAGE_SIZE, type ProveInput, proveRange } from './prover.js';
export { type RewoundProof, rewindRange } from './rewind.js';
