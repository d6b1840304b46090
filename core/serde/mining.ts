// JSON of the HTTP mining flow (api/src/handlers/mining_api.rs): `BlockTemplate` (step 1),
// `CoinbaseData` (step 2's parameter), `FinalizedBlockTemplate` (step 2's result). Headers are
// the raw serde form (serde/block.ts); submit_block's parameter is a raw block (blockFromJson).
// Keys are produced in Epic's declaration order; the /v2 printer sorts them anyway.
import { toHex } from '../bytes.js';
import type { ChainParams } from '../chain_type.js';
import type { JsonValue } from '../json/value.js';
import type { BlockHeader } from '../types/block.js';
import type { Difficulty } from '../types/pow.js';
import type { Output, Transaction, TxKernel } from '../types/transaction.js';
import { headerFromJson, headerToJson } from './block.js';
import {
  asArray,
  asByteArray,
  asHexSized,
  asObject,
  asString,
  asU64,
  byteArray,
  field,
  JsonFormError,
  sub,
} from './fields.js';
import { difficultyFromJson, difficultyToJson } from './pow.js';
import {
  kernelFromJson,
  kernelToJson,
  outputFromJson,
  outputToJson,
  transactionFromJson,
  transactionToJson,
} from './transaction.js';

/** `PoWType::to_str`: both Cuckoo variants are `"cuckoo"` (core/chain/mining_algo.ts maps). */
export type MiningAlgorithm = 'cuckoo' | 'randomx' | 'progpow';
const MINING_ALGORITHMS: readonly string[] = ['cuckoo', 'randomx', 'progpow'];

/** One `(start, end, seed)` element of `epochs`; the seed is the header hash at the seed height. */
export interface TemplateEpoch {
  readonly start: bigint;
  readonly end: bigint;
  readonly seedHash: Uint8Array;
}

export interface BlockTemplate {
  readonly header: BlockHeader;
  readonly transactions: readonly Transaction[];
  readonly height: bigint;
  readonly algorithm: MiningAlgorithm;
  readonly blockDifficulty: Difficulty;
  readonly epochs: readonly TemplateEpoch[];
}

/** finalize_block_template's parameter; other keys (the wallet's `key_id`) are ignored. */
export interface CoinbaseData {
  readonly output: Output;
  readonly kernel: TxKernel;
}

export interface FinalizedBlockTemplate {
  readonly header: BlockHeader;
  /** The 224 bytes of `templatePrePow`; JSON carries them as hex. */
  readonly prePow: Uint8Array;
  readonly height: bigint;
  readonly transactions: readonly Transaction[];
  readonly coinbaseOutput: Output;
  readonly coinbaseKernel: TxKernel;
}

/** height ‖ timestamp ‖ five 32-byte hashes ‖ offset ‖ two MMR sizes. */
export const PRE_POW_SIZE = 8 + 8 + 5 * 32 + 32 + 8 + 8;

function epochToJson(e: TemplateEpoch): JsonValue {
  return [e.start, e.end, byteArray(e.seedHash)];
}

function epochFromJson(v: unknown, path: string): TemplateEpoch {
  const a = asArray(v, path);
  if (a.length !== 3) throw new JsonFormError(path, `expected a 3-tuple, got ${a.length} items`);
  return {
    start: asU64(a[0], sub(path, 0)),
    end: asU64(a[1], sub(path, 1)),
    seedHash: asByteArray(a[2], sub(path, 2), 32),
  };
}

function algorithmFromJson(v: unknown, path: string): MiningAlgorithm {
  const s = asString(v, path);
  if (!MINING_ALGORITHMS.includes(s)) throw new JsonFormError(path, `unknown algorithm \`${s}\``);
  return s as MiningAlgorithm;
}

function transactionsFromJson(v: unknown, path: string): Transaction[] {
  return asArray(v, path).map((x, i) => transactionFromJson(x, sub(path, i)));
}

export function blockTemplateToJson(t: BlockTemplate): JsonValue {
  return {
    header: headerToJson(t.header),
    transactions: t.transactions.map(transactionToJson),
    height: t.height,
    algorithm: t.algorithm,
    block_difficulty: difficultyToJson(t.blockDifficulty),
    epochs: t.epochs.map(epochToJson),
  };
}

/**
 * For clients of step 1 (the test miner, tests). Epic's field is a free string; only the three
 * values it emits are accepted.
 */
export function blockTemplateFromJson(
  v: unknown,
  path: string,
  params: ChainParams,
): BlockTemplate {
  const o = asObject(v, path);
  return {
    header: headerFromJson(field(o, 'header', path), sub(path, 'header'), params),
    transactions: transactionsFromJson(field(o, 'transactions', path), sub(path, 'transactions')),
    height: asU64(field(o, 'height', path), sub(path, 'height')),
    algorithm: algorithmFromJson(field(o, 'algorithm', path), sub(path, 'algorithm')),
    blockDifficulty: difficultyFromJson(
      field(o, 'block_difficulty', path),
      sub(path, 'block_difficulty'),
    ),
    epochs: asArray(field(o, 'epochs', path), sub(path, 'epochs')).map((x, i) =>
      epochFromJson(x, sub(sub(path, 'epochs'), i)),
    ),
  };
}

export function coinbaseDataToJson(c: CoinbaseData): JsonValue {
  return { output: outputToJson(c.output), kernel: kernelToJson(c.kernel) };
}

export function coinbaseDataFromJson(v: unknown, path: string): CoinbaseData {
  const o = asObject(v, path);
  return {
    output: outputFromJson(field(o, 'output', path), sub(path, 'output')),
    kernel: kernelFromJson(field(o, 'kernel', path), sub(path, 'kernel')),
  };
}

export function finalizedTemplateToJson(t: FinalizedBlockTemplate): JsonValue {
  return {
    header: headerToJson(t.header),
    pre_pow: toHex(t.prePow),
    height: t.height,
    transactions: t.transactions.map(transactionToJson),
    coinbase_output: outputToJson(t.coinbaseOutput),
    coinbase_kernel: kernelToJson(t.coinbaseKernel),
  };
}

/** For clients of step 2; `pre_pow` must be the 224 bytes our node (and Epic) produce. */
export function finalizedTemplateFromJson(
  v: unknown,
  path: string,
  params: ChainParams,
): FinalizedBlockTemplate {
  const o = asObject(v, path);
  return {
    header: headerFromJson(field(o, 'header', path), sub(path, 'header'), params),
    prePow: asHexSized(field(o, 'pre_pow', path), sub(path, 'pre_pow'), PRE_POW_SIZE),
    height: asU64(field(o, 'height', path), sub(path, 'height')),
    transactions: transactionsFromJson(field(o, 'transactions', path), sub(path, 'transactions')),
    coinbaseOutput: outputFromJson(field(o, 'coinbase_output', path), sub(path, 'coinbase_output')),
    coinbaseKernel: kernelFromJson(field(o, 'coinbase_kernel', path), sub(path, 'coinbase_kernel')),
  };
}
