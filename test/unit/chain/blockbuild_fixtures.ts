// Real, balanced single-party transactions for the block-building tests: outputs with
// ProofBuilder range proofs, a Plain kernel signed with a fixed nonce, a fixed offset, so every
// commitment, hash and sort order is the same on every run.
import { sha256 } from '@noble/hashes/sha2.js';
import { signSingle } from '../../../core/crypto/aggsig.js';
import {
  buildProof,
  ProofBuilder,
  SWITCH_REGULAR,
} from '../../../core/crypto/bulletproof/index.js';
import { blindSum, commit } from '../../../core/crypto/commit.js';
import { CURVE_N, readU256, scalarToBytes } from '../../../core/crypto/curve.js';
import { kernelSigMessage } from '../../../core/crypto/kernel.js';
import { deriveKeyId, type Identifier } from '../../../core/keychain/identifier.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { publicKeyFromSecret } from '../../../core/keychain/secret.js';
import { SwitchCommitmentType } from '../../../core/keychain/switch_type.js';
import type {
  Input,
  Output,
  OutputFeatures,
  Transaction,
} from '../../../core/types/transaction.js';

export const KEYCHAIN = ExtKeychain.fromMnemonic(
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
    'develop rack beauty prison wear manual harbor theory bachelor exile',
  '',
  false,
);
const BUILDER = ProofBuilder.fromMasterSecret(KEYCHAIN.master.secretKey);

/** An amount at a key: what an output holds and an input spends. */
export interface Coin {
  readonly value: bigint;
  readonly id: Identifier;
  readonly features?: OutputFeatures;
}

export const coin = (value: bigint, n: number, features?: OutputFeatures): Coin => ({
  value,
  id: deriveKeyId(3, 0, 0, n),
  ...(features === undefined ? {} : { features }),
});

/** A deterministic non-zero scalar (32 bytes) per tag. */
export function scalar(tag: string): Uint8Array {
  const v = readU256(sha256(new TextEncoder().encode(tag))) % CURVE_N;
  return scalarToBytes(v === 0n ? 1n : v);
}

const blindOf = (c: Coin) => KEYCHAIN.deriveKey(c.value, c.id, SwitchCommitmentType.Regular);

export function commitOf(c: Coin): Uint8Array {
  return commit(c.value, blindOf(c));
}

export function inputOf(c: Coin): Input {
  return { features: c.features ?? 'Plain', commit: commitOf(c) };
}

const outputCache = new Map<string, Output>();

/** A Plain output with its real proof (cached: proving costs ~0.2 s). */
export function outputOf(c: Coin): Output {
  const key = `${c.value}/${c.id.toHex()}/${c.features ?? 'Plain'}`;
  const hit = outputCache.get(key);
  if (hit !== undefined) return hit;
  const blind = blindOf(c);
  const commitment = commit(c.value, blind);
  const proof = buildProof(BUILDER, {
    value: c.value,
    blind,
    commitment,
    keyId: c.id.toBytes(),
    switchType: SWITCH_REGULAR,
  });
  const out: Output = { features: c.features ?? 'Plain', commit: commitment, proof };
  outputCache.set(key, out);
  return out;
}

/**
 * spends → creates paying `fee`, offset = scalar(tag): excess blind = Σ out − Σ in − offset,
 * signed over the Plain kernel message. Values must balance (Σ in = Σ out + fee).
 */
export function buildTx(
  tag: string,
  spends: readonly Coin[],
  creates: readonly Coin[],
  fee: bigint,
): Transaction {
  const sum = (cs: readonly Coin[]) => cs.reduce((a, c) => a + c.value, 0n);
  if (sum(spends) !== sum(creates) + fee) throw new Error(`fixture ${tag} does not balance`);
  const offset = scalar(`offset/${tag}`);
  const excessBlind = blindSum(creates.map(blindOf), [...spends.map(blindOf), offset]);
  const features = { kind: 'Plain', fee } as const;
  const excessSig = signSingle(kernelSigMessage(features), excessBlind, {
    secnonce: scalar(`nonce/${tag}`),
    pubkeyForE: publicKeyFromSecret(excessBlind),
  });
  return {
    offset,
    body: {
      inputs: spends.map(inputOf),
      outputs: creates.map(outputOf),
      kernels: [{ features, excess: commit(0n, excessBlind), excessSig }],
    },
  };
}

/** (Σ scalars) mod n as 32 bytes: the expected aggregate offset. */
export function addScalars(...xs: readonly Uint8Array[]): Uint8Array {
  return scalarToBytes(xs.reduce((a, x) => a + readU256(x), 0n) % CURVE_N);
}

/** (n − x) mod n as 32 bytes. */
export function negateScalar(x: Uint8Array): Uint8Array {
  return scalarToBytes((CURVE_N - readU256(x)) % CURVE_N);
}

// The three transactions most tests use. tx3 spends tx1's first output (cut-through).
export const A = coin(1_000_000n, 1);
export const B = coin(600_000n, 2);
export const C = coin(390_000n, 3);
export const D = coin(500_000n, 4);
export const E = coin(495_000n, 5);
export const F = coin(590_000n, 6);

let cached: { tx1: Transaction; tx2: Transaction; tx3: Transaction } | undefined;

export function threeTxs(): { tx1: Transaction; tx2: Transaction; tx3: Transaction } {
  cached ??= {
    tx1: buildTx('tx1', [A], [B, C], 10_000n),
    tx2: buildTx('tx2', [D], [E], 5_000n),
    tx3: buildTx('tx3', [B], [F], 10_000n),
  };
  return cached;
}
