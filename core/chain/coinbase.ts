// Coinbase outputs and kernels as Epic's core/src/libtx/reward.rs builds them (`output`,
// `output_foundation`, `output_foundation_proof`), and the key a node without a wallet pays
// its test-miner rewards to (servers/src/mining/mine_block.rs `burn_reward`).
import { type ChainType, chainParams } from '../chain_type.js';
import { foundationPayout, reward } from '../consensus/rewards.js';
import { signSingle } from '../crypto/aggsig.js';
import {
  buildProof,
  LegacyProofBuilder,
  type ProofBuild,
  ProofBuilder,
  SWITCH_REGULAR,
} from '../crypto/bulletproof/index.js';
import { commit, commitToPubkey } from '../crypto/commit.js';
import { coinbaseExcess, kernelSigMessage } from '../crypto/kernel.js';
import { deriveKeyId, Identifier } from '../keychain/identifier.js';
import { ExtKeychain } from '../keychain/keychain.js';
import { SwitchCommitmentType } from '../keychain/switch_type.js';
import { headerVersionAt } from '../ser/params.js';
import type { RewardParts } from './block_build.js';

const U64_MAX = (1n << 64n) - 1n;

/** Epic's test-mode signature nonce: 32 bytes of 0x01 (makes coinbase kernels reproducible). */
export const TEST_MODE_NONCE: Uint8Array = new Uint8Array(32).fill(1);

export class CoinbaseError extends Error {
  override readonly name = 'CoinbaseError';
  constructor(readonly detail: string) {
    super(`coinbase: ${detail}`);
  }
}

/** `current` = ProofBuilder (every new output), `legacy` = LegacyProofBuilder (header v6). */
export type CoinbaseBuilder = 'current' | 'legacy';

export interface CoinbaseOptions {
  /** Proof builder; default `current`, what reward::output's callers pass. */
  readonly builder?: CoinbaseBuilder | ProofBuild;
  /** Sign with TEST_MODE_NONCE instead of a random nonce (Epic's `test_mode`). */
  readonly testMode?: boolean;
}

function proofBuilder(keychain: ExtKeychain, b: CoinbaseBuilder | ProofBuild): ProofBuild {
  if (b === 'current') return ProofBuilder.fromMasterSecret(keychain.master.secretKey);
  if (b === 'legacy') return LegacyProofBuilder.fromMasterSecret(keychain.master.secretKey);
  return b;
}

function toIdentifier(keyId: Identifier | Uint8Array): Identifier {
  if (keyId instanceof Identifier) return keyId;
  if (keyId.length !== 17) throw new CoinbaseError(`key id of ${keyId.length} bytes, expected 17`);
  return Identifier.fromBytes(keyId);
}

/**
 * A Coinbase output of `value` at `keyId` with its Coinbase kernel: blind = derive_key(value,
 * id, Regular), C = commit(value, blind), the builder's range proof, excess = C − value·H and
 * the excess signature over the Coinbase message with pubkey-for-e = the excess.
 */
export function coinbaseOutput(
  keychain: ExtKeychain,
  keyId: Identifier | Uint8Array,
  value: bigint,
  opts: CoinbaseOptions = {},
): RewardParts {
  if (value < 0n || value > U64_MAX) throw new CoinbaseError(`value ${value} is not a u64`);
  const id = toIdentifier(keyId);
  const blind = keychain.deriveKey(value, id, SwitchCommitmentType.Regular);
  const commitment = commit(value, blind);
  const proof = buildProof(proofBuilder(keychain, opts.builder ?? 'current'), {
    value,
    blind,
    commitment,
    keyId: id.toBytes(),
    switchType: SWITCH_REGULAR,
  });
  const excess = coinbaseExcess(commitment, value);
  const features = { kind: 'Coinbase' } as const;
  const excessSig = signSingle(kernelSigMessage(features), blind, {
    pubkeyForE: commitToPubkey(excess),
    ...(opts.testMode === true ? { secnonce: TEST_MODE_NONCE } : {}),
  });
  return {
    output: { features: 'Coinbase', commit: commitment, proof },
    kernel: { features, excess, excessSig },
  };
}

/** `reward::output`: the miner's coinbase, value = reward(fees, height) (miner share + fees). */
export function rewardOutput(
  keychain: ExtKeychain,
  keyId: Identifier | Uint8Array,
  type: ChainType,
  fees: bigint,
  height: bigint,
  opts: CoinbaseOptions = {},
): RewardParts {
  return coinbaseOutput(keychain, keyId, reward(type, fees, height), opts);
}

/** The builder `output_foundation_proof` picks: legacy for header version 6, current for 7. */
export function foundationBuilder(type: ChainType, height: bigint): CoinbaseBuilder {
  return headerVersionAt(chainParams(type), height) === 6 ? 'legacy' : 'current';
}

/**
 * `output_foundation_proof`: the foundation's coinbase at a foundation height, value =
 * cumulative levy of the last F blocks; how foundation files are made. `builder` in `opts`
 * is ignored: the header version at `height` decides it.
 */
export function foundationOutput(
  keychain: ExtKeychain,
  keyId: Identifier | Uint8Array,
  type: ChainType,
  height: bigint,
  opts: Pick<CoinbaseOptions, 'testMode'> = {},
): RewardParts {
  const value = foundationPayout(type, height);
  if (value === 0n) throw new CoinbaseError(`height ${height} pays no foundation levy`);
  return coinbaseOutput(keychain, keyId, value, {
    ...opts,
    builder: foundationBuilder(type, height),
  });
}

/** The key `burn_reward` pays to: derive_key_id(1, 1, 0, 0, 0), i.e. m/1. */
export function nodeCoinbaseKeyId(): Identifier {
  return deriveKeyId(1, 1);
}

/**
 * `burn_reward`'s keychain: a fresh random one per block (`from_random_seed`, floonet hasher on
 * floonet only), so nobody can spend what it receives. Use it with nodeCoinbaseKeyId(), the
 * current builder and a random signature nonce.
 */
export function burnKeychain(type: ChainType): ExtKeychain {
  return ExtKeychain.fromRandomSeed(type === 'floonet');
}

/** `burn_reward` in full: the reward of `height` with `fees` paid to a throw-away key. */
export function burnRewardOutput(type: ChainType, fees: bigint, height: bigint): RewardParts {
  return rewardOutput(burnKeychain(type), nodeCoinbaseKeyId(), type, fees, height);
}
