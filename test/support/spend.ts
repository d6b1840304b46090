// A real transaction spending one of the precomputed automated-testing coinbases
// (coinbases.ts): one Coinbase input, one Plain output of the rest after the fee, a Plain kernel,
// zero offset (so a block carrying it keeps the header's total offset).
import { signSingle } from '../../core/crypto/aggsig.js';
import { buildProof, ProofBuilder, SWITCH_REGULAR } from '../../core/crypto/bulletproof/index.js';
import { blindSum, commit } from '../../core/crypto/commit.js';
import { kernelSigMessage } from '../../core/crypto/kernel.js';
import { deriveKeyId } from '../../core/keychain/identifier.js';
import { publicKeyFromSecret } from '../../core/keychain/secret.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import type { Transaction } from '../../core/types/transaction.js';
import { AUTO_REWARD, MINER_KEYCHAIN } from './coinbases.js';

/** Well above the automated chain's minimum for one input, one output and one kernel. */
export const SPEND_FEE = 10_000_000n;

/** Spends coinbase m/2/0/`index` to m/2/1/`outIndex`. */
export function spendCoinbase(index: number, fee = SPEND_FEE, outIndex = index): Transaction {
  const kc = MINER_KEYCHAIN;
  const inBlind = kc.deriveKey(AUTO_REWARD, deriveKeyId(2, 0, index), SwitchCommitmentType.Regular);
  const value = AUTO_REWARD - fee;
  const outId = deriveKeyId(2, 1, outIndex);
  const outBlind = kc.deriveKey(value, outId, SwitchCommitmentType.Regular);
  const outCommit = commit(value, outBlind);
  const proof = buildProof(ProofBuilder.fromMasterSecret(kc.master.secretKey), {
    value,
    blind: outBlind,
    commitment: outCommit,
    keyId: outId.toBytes(),
    switchType: SWITCH_REGULAR,
  });
  const excessBlind = blindSum([outBlind], [inBlind]);
  const features = { kind: 'Plain', fee } as const;
  const excessSig = signSingle(kernelSigMessage(features), excessBlind, {
    pubkeyForE: publicKeyFromSecret(excessBlind),
  });
  return {
    offset: new Uint8Array(32),
    body: {
      inputs: [{ features: 'Coinbase', commit: commit(AUTO_REWARD, inBlind) }],
      outputs: [{ features: 'Plain', commit: outCommit, proof }],
      kernels: [{ features, excess: commit(0n, excessBlind), excessSig }],
    },
  };
}
