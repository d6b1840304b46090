// Stand-ins for the two costly parts of a mined block, for tests about serving and syncing
// long chains rather than about validation: a proof of work that is never solved and a coinbase
// range proof that is never proved (a JavaScript proof costs ~0.1 s, and only the first 160
// coinbases are precomputed). Everything else stays real — keys, commitments, kernel
// signatures, sums, MMRs and roots — and the chain's verifier accepts only these two unchecked.
import type { BlockVerifier } from '../../actors/chain/verifier.js';
import type { RewardParts } from '../../core/chain/block_build.js';
import { TEST_MODE_NONCE } from '../../core/chain/coinbase.js';
import { signSingle } from '../../core/crypto/aggsig.js';
import { commit, commitToPubkey } from '../../core/crypto/commit.js';
import { coinbaseExcess, kernelSigMessage } from '../../core/crypto/kernel.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import type { BlockHeader } from '../../core/types/block.js';
import { RANGE_PROOF_SIZE } from '../../core/types/transaction.js';
import { MINER_KEYCHAIN } from './coinbases.js';

/** What the stand-in verifier says every proof of work achieves: above any test target. */
export const STAND_IN_DIFFICULTY = 1n << 40n;

/**
 * makeCoinbase's output and kernel (same key m/2/0/`index`, commitment and signed kernel) with
 * an all-zero range proof in place of a real one.
 */
export function standInCoinbase(index: number, value: bigint): RewardParts {
  const blind = MINER_KEYCHAIN.deriveKey(
    value,
    deriveKeyId(2, 0, index),
    SwitchCommitmentType.Regular,
  );
  const commitment = commit(value, blind);
  const excess = coinbaseExcess(commitment, value);
  const features = { kind: 'Coinbase' } as const;
  const excessSig = signSingle(kernelSigMessage(features), blind, {
    pubkeyForE: commitToPubkey(excess),
    secnonce: TEST_MODE_NONCE,
  });
  return {
    output: { features: 'Coinbase', commit: commitment, proof: new Uint8Array(RANGE_PROOF_SIZE) },
    kernel: { features, excess, excessSig },
  };
}

let proofs = 0;

/**
 * `header` with a Cuckoo proof of the automated chain's shape (4 ascending nonces below 2^9)
 * that no other stand-in in this process has: the header hash is the proof's hash, so blocks
 * of different chains (or forks) never share a hash.
 */
export function withStandInProof(header: BlockHeader, edgeBits: number): BlockHeader {
  const k = proofs++;
  const nonces = [0, 1, 2, 3].map((i) => BigInt(i * 128 + ((k >> (7 * i)) & 127)));
  return { ...header, pow: { ...header.pow, proof: { kind: 'Cuckoo', edgeBits, nonces } } };
}

/** `real` with proofs of work and range proofs accepted unchecked; kernel signatures checked. */
export function standInVerifier(real: BlockVerifier): BlockVerifier {
  return {
    pow: async () => ({ ok: true, difficulty: STAND_IN_DIFFICULTY }),
    pows: async (headers) => headers.map(() => ({ ok: true, difficulty: STAND_IN_DIFFICULTY })),
    body: async (block) => {
      const { kernels } = await real.body({ ...block, body: { ...block.body, outputs: [] } });
      return { rangeProofs: block.body.outputs.map(() => null), kernels };
    },
  };
}
