// What a planned block of bench/wallet.ts's chain needs from the miner besides the node's
// template: its coinbase (output and kernel) and its one transaction. Building them costs a
// range proof per output (~180 ms in our JavaScript prover), so they are made once in worker
// threads (wallet_cache.ts) and kept as JSON lines: {"height", "coinbase", "tx"}.

import { sortOutputs } from '../../core/chain/aggregate.js';
import type { RewardParts } from '../../core/chain/block_build.js';
import { signSingle } from '../../core/crypto/aggsig.js';
import { buildProof, ProofBuilder, SWITCH_REGULAR } from '../../core/crypto/bulletproof/index.js';
import { blindSum, commit } from '../../core/crypto/commit.js';
import { kernelSigMessage } from '../../core/crypto/kernel.js';
import type { JsonValue } from '../../core/json/value.js';
import { deriveKeyId, type Identifier } from '../../core/keychain/identifier.js';
import { ExtKeychain } from '../../core/keychain/keychain.js';
import { publicKeyFromSecret } from '../../core/keychain/secret.js';
import { SwitchCommitmentType } from '../../core/keychain/switch_type.js';
import {
  kernelFromJson,
  kernelToJson,
  outputFromJson,
  outputToJson,
  transactionFromJson,
  transactionToJson,
} from '../../core/serde/transaction.js';
import type { Output, Transaction } from '../../core/types/transaction.js';
import { autoCoinbase, MINER_KEYCHAIN, makeCoinbase } from '../../test/support/coinbases.js';
import { coinbaseValueAt, type PlannedBlock, type PlannedOutput, TX_FEE } from './wallet_plan.js';

/** The scanned wallet's recovery phrase (bench only; its keys pay nothing real). */
export const WALLET_MNEMONIC =
  'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
  'develop rack beauty prison wear manual harbor theory bachelor exile';

export interface BlockParts {
  readonly height: number;
  readonly coinbase: RewardParts;
  readonly tx: Transaction | null;
}

const REGULAR = SwitchCommitmentType.Regular;

/** The miner's coinbase of block `height` pays m/0/height (test support's precomputed ones). */
function minerCoinbaseId(height: number): Identifier {
  return deriveKeyId(2, 0, height);
}

function outputKey(o: PlannedOutput): { kc: ExtKeychain; id: Identifier } {
  return o.owner === 'wallet'
    ? { kc: walletKeychain(), id: deriveKeyId(3, 0, 0, o.index) }
    : { kc: MINER_KEYCHAIN, id: deriveKeyId(3, 2, 1, o.index) };
}

let wallet: ExtKeychain | null = null;
/** As epic-wallet builds it from a recovery phrase (the entropy is the seed). */
export function walletKeychain(): ExtKeychain {
  wallet ??= ExtKeychain.fromWalletMnemonic(WALLET_MNEMONIC);
  return wallet;
}

const builders = new Map<ExtKeychain, ProofBuilder>();
function builderOf(kc: ExtKeychain): ProofBuilder {
  let b = builders.get(kc);
  if (b === undefined) {
    b = ProofBuilder.fromMasterSecret(kc.master.secretKey);
    builders.set(kc, b);
  }
  return b;
}

function plainOutput(o: PlannedOutput): { output: Output; blind: Uint8Array } {
  const { kc, id } = outputKey(o);
  const blind = kc.deriveKey(o.value, id, REGULAR);
  const commitment = commit(o.value, blind);
  const proof = buildProof(builderOf(kc), {
    value: o.value,
    blind,
    commitment,
    keyId: id.toBytes(),
    switchType: SWITCH_REGULAR,
  });
  return { output: { features: 'Plain', commit: commitment, proof }, blind };
}

/** One input (the spent coinbase), the planned outputs, a Plain kernel, zero offset. */
function transaction(b: PlannedBlock, spends: number): Transaction {
  const inValue = coinbaseValueAt(spends);
  const inBlind = MINER_KEYCHAIN.deriveKey(inValue, minerCoinbaseId(spends), REGULAR);
  const outs = b.outputs.map(plainOutput);
  const excessBlind = blindSum(
    outs.map((o) => o.blind),
    [inBlind],
  );
  const features = { kind: 'Plain', fee: TX_FEE } as const;
  const excessSig = signSingle(kernelSigMessage(features), excessBlind, {
    pubkeyForE: publicKeyFromSecret(excessBlind),
  });
  return {
    offset: new Uint8Array(32),
    body: {
      inputs: [{ features: 'Coinbase', commit: commit(inValue, inBlind) }],
      outputs: sortOutputs(outs.map((o) => o.output)),
      kernels: [{ features, excess: commit(0n, excessBlind), excessSig }],
    },
  };
}

/** Builds block `b`'s coinbase and transaction (the slow part: one proof per output). */
export function buildParts(b: PlannedBlock): BlockParts {
  const coinbase =
    b.spends === null ? autoCoinbase(b.height) : makeCoinbase(b.height, b.coinbaseValue);
  return {
    height: b.height,
    coinbase,
    tx: b.spends === null ? null : transaction(b, b.spends),
  };
}

export function partsToJson(p: BlockParts): JsonValue {
  return {
    height: p.height,
    coinbase: { output: outputToJson(p.coinbase.output), kernel: kernelToJson(p.coinbase.kernel) },
    tx: p.tx === null ? null : transactionToJson(p.tx),
  };
}

export function partsFromJson(v: JsonValue): BlockParts {
  const o = v as {
    height: number;
    coinbase: { output: JsonValue; kernel: JsonValue };
    tx: JsonValue;
  };
  return {
    height: o.height,
    coinbase: {
      output: outputFromJson(o.coinbase.output, 'coinbase.output'),
      kernel: kernelFromJson(o.coinbase.kernel, 'coinbase.kernel'),
    },
    tx: o.tx === null ? null : transactionFromJson(o.tx, 'tx'),
  };
}
