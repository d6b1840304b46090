// Real transactions for the pool tests: coins are keychain-derived commitments (the foundation
// test mnemonic of crypto reference §6), outputs carry real bulletproofs, kernels real
// signatures; bodies are sorted by hash as Epic's builder leaves them. A fake chain view holds
// the UTXO set and header output-MMR sizes the pool reads.
import { compareBytes, toHex } from '../../../core/bytes.js';
import { type ChainParams, chainParams } from '../../../core/chain_type.js';
import { signSingle } from '../../../core/crypto/aggsig.js';
import { proveRange } from '../../../core/crypto/bulletproof/index.js';
import { blindSum, commit, commitToPubkey } from '../../../core/crypto/commit.js';
import { kernelSigMessage } from '../../../core/crypto/kernel.js';
import { deriveKeyId, ExtKeychain, SwitchCommitmentType } from '../../../core/keychain/index.js';
import type { PoolChainView } from '../../../core/pool/types.js';
import { hashOf, type WriteFn } from '../../../core/ser/codec.js';
import { writeInput, writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import {
  type Input,
  type KernelFeatures,
  type Output,
  type OutputFeatures,
  RANGE_PROOF_SIZE,
  type Transaction,
  type TxKernel,
} from '../../../core/types/transaction.js';

export const PARAMS: ChainParams = chainParams('automated');

const MNEMONIC =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';
const keychain = ExtKeychain.fromMnemonic(MNEMONIC);
let nextKey = 1;

export interface Coin {
  readonly value: bigint;
  readonly blind: Uint8Array;
  readonly features: OutputFeatures;
  readonly commit: Uint8Array;
}

/** A fresh coin (its own key path m/0/0/n). */
export function coin(value: bigint, features: OutputFeatures = 'Plain'): Coin {
  const id = deriveKeyId(3, 0, 0, nextKey++);
  const blind = keychain.deriveKey(value, id, SwitchCommitmentType.None);
  return { value, blind, features, commit: commit(value, blind) };
}

const proofs = new Map<string, Uint8Array>();

const FAKE_PROOF = new Uint8Array(RANGE_PROOF_SIZE);

export function outputOf(c: Coin, fakeProof = false): Output {
  if (fakeProof) return { features: c.features, commit: c.commit, proof: FAKE_PROOF };
  const key = toHex(c.commit);
  let proof = proofs.get(key);
  if (proof === undefined) {
    proof = proveRange({
      value: c.value,
      blind: c.blind,
      rewindNonce: c.blind,
      privateNonce: c.blind,
    });
    proofs.set(key, proof);
  }
  return { features: c.features, commit: c.commit, proof };
}

export function inputOf(c: Coin): Input {
  return { features: c.features, commit: c.commit };
}

function sortByHash<T>(items: readonly T[], write: WriteFn<T>): T[] {
  const keyed = items.map((x) => ({ x, h: hashOf(write, x, PARAMS) }));
  return keyed.sort((a, b) => compareBytes(a.h, b.h)).map((k) => k.x);
}

export interface TxSpec {
  readonly spend: readonly Coin[];
  readonly create: readonly Coin[];
  readonly fee: bigint;
  /** HeightLocked kernel when set. */
  readonly lockHeight?: bigint;
  /** Zero bytes instead of range proofs, for tests that stop before any crypto. */
  readonly fakeProofs?: boolean;
}

let nextOffset = 1;

/** A balanced transaction: Σin = Σout + fee, excess = Σr_out − Σr_in − offset. */
export function buildTx(spec: TxSpec): Transaction {
  const offset = keychain.deriveKey(
    0n,
    deriveKeyId(3, 1, 0, nextOffset++),
    SwitchCommitmentType.None,
  );
  const excessBlind = blindSum(
    spec.create.map((c) => c.blind),
    [...spec.spend.map((c) => c.blind), offset],
  );
  const features: KernelFeatures =
    spec.lockHeight === undefined
      ? { kind: 'Plain', fee: spec.fee }
      : { kind: 'HeightLocked', fee: spec.fee, lockHeight: spec.lockHeight };
  const excess = commit(0n, excessBlind);
  const excessSig = signSingle(kernelSigMessage(features), excessBlind, {
    pubkeyForE: commitToPubkey(excess),
  });
  const kernel: TxKernel = { features, excess, excessSig };
  return {
    offset,
    body: {
      inputs: sortByHash(spec.spend.map(inputOf), writeInput),
      outputs: sortByHash(
        spec.create.map((c) => outputOf(c, spec.fakeProofs)),
        writeOutput,
      ),
      kernels: sortByHash([kernel], writeKernel),
    },
  };
}

/** Fee of a 1-input 1-output tx at the default accept_fee_base: fee weight 4 × 100,000. */
export const SWEEP_FEE = 400_000n;

/** Spends `from` into one output (weight 25, fee weight 4), paying `fee`. */
export function sweepTx(
  from: Coin,
  fee: bigint = SWEEP_FEE,
  lockHeight?: bigint,
): { tx: Transaction; out: Coin } {
  const out = coin(from.value - fee);
  return { tx: buildTx({ spend: [from], create: [out], fee, lockHeight }), out };
}

/** Spends `from` into two outputs (payment + change) paying `fee`. */
export function payTx(
  from: Coin,
  fee: bigint,
  lockHeight?: bigint,
): { tx: Transaction; pay: Coin; change: Coin } {
  const pay = coin(from.value / 3n);
  const change = coin(from.value - pay.value - fee);
  return { tx: buildTx({ spend: [from], create: [pay, change], fee, lockHeight }), pay, change };
}

interface Utxo {
  readonly features: OutputFeatures;
  readonly pos: bigint;
}

/** The chain facts as a map: UTXOs with their MMR positions, sizes per header height. */
export class FakeChain implements PoolChainView {
  headHeight = 10n;
  private utxos = new Map<string, Utxo>();
  private nextPos = 1n;
  /** output_mmr_size per height; missing heights answer with the current size. */
  readonly sizes = new Map<bigint, bigint>();

  /** Adds coins as unspent outputs; returns their positions. */
  add(...coins: Coin[]): bigint[] {
    return coins.map((c) => {
      const pos = this.nextPos;
      this.utxos.set(toHex(c.commit), { features: c.features, pos });
      this.nextPos += 1n;
      return pos;
    });
  }

  spend(...coins: Coin[]): void {
    for (const c of coins) this.utxos.delete(toHex(c.commit));
  }

  unspentFeatures(c: Uint8Array): OutputFeatures | undefined {
    return this.utxos.get(toHex(c))?.features;
  }

  outputPosition(c: Uint8Array): bigint | undefined {
    return this.utxos.get(toHex(c))?.pos;
  }

  outputMmrSizeAt(height: bigint): bigint {
    return this.sizes.get(height) ?? this.nextPos - 1n;
  }
}
