// The proof-of-work job of the worker pool. An item crosses the thread boundary as bytes; a
// worker verifies its chunk item by item and answers, per item and in order, the difficulty the
// proof achieves or why it failed. ProgPoW epoch caches are built once per worker and epoch,
// and persisted when PROGPOW_CACHE_DIR_ENV names a directory; RandomX uses the native addon
// (jobs/randomx_addon.ts) when it was built, and is reported unavailable otherwise.
//
// Item layout (all integers big-endian):
//   0      u8    chain type: 0 mainnet, 1 floonet, 2 usernet, 3 automated (proof size, edge bits)
//   1      u8    verifier: 0 cuckaroo, 1 cuckatoo, 2 randomx, 3 progpow, 4 md5
//   2      u64   target: the least difficulty the proof must achieve (0 accepts any)
//   10     32    seed (RandomX key)
//   42     u16   pre-pow length L (at least 22; 282 with a four-entry difficulty map)
//   44     L     pre-pow, nonce included
//   44+L   rest  the proof in its full wire form (type byte first, the chain's proof size)
// A valid item's result value is its achieved difficulty: a number up to 2^53 − 1, above that
// 8 big-endian bytes.
import { CHAIN_PARAMS, CHAIN_TYPES, type ChainParams, type ChainType } from '../core/chain_type.js';
import { VERIFY_ALGOS, type VerifyAlgo, verifierOf } from '../core/pow/algorithm.js';
import { PowError, type PowErrorCode } from '../core/pow/errors.js';
import { MIN_PRE_POW, prePowHeight, prePowSecondaryScaling } from '../core/pow/pre_pow.js';
import type { EpochCache } from '../core/pow/progpow/index.js';
import { type RandomXBackend, UNAVAILABLE_RANDOMX } from '../core/pow/randomx_backend.js';
import { powDifficulty } from '../core/pow/target.js';
import { verifyPow } from '../core/pow/verify.js';
import { decode, encode } from '../core/ser/codec.js';
import { SerError } from '../core/ser/errors.js';
import { prePow } from '../core/ser/header.js';
import { readProof, writeProof } from '../core/ser/pow.js';
import type { BlockHeader } from '../core/types/block.js';
import type { Proof } from '../core/types/pow.js';
import type { JobResult, KindTable } from '../runtime/job.js';
import type { WorkPool } from '../runtime/workpool.js';
import { progpowCacheFor } from './progpow_cache.js';
import { randomXBackend } from './randomx_addon.js';

export const POW_JOB = 'verifyPow';

/** Why an item failed: undecodable, a PoW verification failure, or too little work. */
export type PowFailure = 'CorruptedData' | 'DifficultyTooLow' | PowErrorCode;

export interface PowItem {
  readonly chain: ChainType;
  readonly algorithm: VerifyAlgo;
  readonly target: bigint;
  readonly seed: Uint8Array;
  readonly prePow: Uint8Array;
  readonly proof: Proof;
}

const HEAD = 44;
const SEED_SIZE = 32;

export function encodePowItem(item: PowItem): Uint8Array {
  const params = CHAIN_PARAMS[item.chain];
  const proof = encode(writeProof, item.proof, 1, params);
  if (item.seed.length !== SEED_SIZE) throw new RangeError('a seed is 32 bytes');
  if (item.prePow.length < MIN_PRE_POW || item.prePow.length > 0xffff)
    throw new RangeError(`a pre-pow of ${item.prePow.length} bytes`);
  const out = new Uint8Array(HEAD + item.prePow.length + proof.length);
  const view = new DataView(out.buffer);
  out[0] = CHAIN_TYPES.indexOf(item.chain);
  out[1] = VERIFY_ALGOS.indexOf(item.algorithm);
  view.setBigUint64(2, BigInt.asUintN(64, item.target), false);
  out.set(item.seed, 10);
  view.setUint16(42, item.prePow.length, false);
  out.set(item.prePow, HEAD);
  out.set(proof, HEAD + item.prePow.length);
  return out;
}

/** The item, or null when its bytes do not follow the layout. */
export function decodePowItem(bytes: Uint8Array): PowItem | null {
  if (bytes.length < HEAD) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chain = CHAIN_TYPES[bytes[0] as number];
  const algorithm = VERIFY_ALGOS[bytes[1] as number];
  const length = view.getUint16(42, false);
  if (chain === undefined || algorithm === undefined || length < MIN_PRE_POW) return null;
  if (bytes.length < HEAD + length) return null;
  let proof: Proof;
  try {
    proof = decode(readProof, bytes.subarray(HEAD + length), 1, CHAIN_PARAMS[chain], 'proof');
  } catch (e) {
    if (e instanceof SerError) return null;
    throw e;
  }
  return {
    chain,
    algorithm,
    target: view.getBigUint64(2, false),
    seed: bytes.subarray(10, 10 + SEED_SIZE),
    prePow: bytes.subarray(HEAD, HEAD + length),
    proof,
  };
}

/**
 * Where workers persist ProgPoW epoch caches (jobs/progpow_cache.ts), so a restart loads them
 * instead of spending seconds per epoch rebuilding. Set it before the pool starts: workers copy
 * the environment when they are created. Unset, each worker keeps its caches in memory only.
 */
export const PROGPOW_CACHE_DIR_ENV = 'MWNODE_PROGPOW_CACHE_DIR';

/**
 * Set to "none" before the pool starts to verify without the native RandomX addon; RandomX
 * proofs then fail with RandomXUnavailable, as they do wherever the addon was not built.
 */
export const RANDOMX_BACKEND_ENV = 'MWNODE_RANDOMX_BACKEND';

let randomx: RandomXBackend | undefined;

function workerRandomX(): RandomXBackend {
  randomx ??= process.env[RANDOMX_BACKEND_ENV] === 'none' ? UNAVAILABLE_RANDOMX : randomXBackend();
  return randomx;
}

function progpowCache(epoch: number): EpochCache {
  return progpowCacheFor(process.env[PROGPOW_CACHE_DIR_ENV] || null).get(epoch);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A number while exact (cheap to clone across threads), else 8 big-endian bytes. */
function difficultyValue(value: bigint): number | Uint8Array {
  if (value <= SAFE) return Number(value);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, false);
  return out;
}

function difficultyFrom(value: Uint8Array | number | boolean | undefined): bigint {
  if (typeof value === 'number') return BigInt(value);
  if (value instanceof Uint8Array && value.length === 8)
    return new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0, false);
  throw new TypeError('a PoW job result without a difficulty');
}

function verifyItem(bytes: Uint8Array): JobResult {
  const item = decodePowItem(bytes);
  if (item === null) return { ok: false, code: 'CorruptedData' };
  const params: ChainParams = CHAIN_PARAMS[item.chain];
  try {
    const verified = verifyPow(item.prePow, item, item.algorithm, {
      proofSize: params.proofSize,
      randomx: workerRandomX(),
      progpow: progpowCache,
    });
    const pow = { proof: item.proof, secondaryScaling: prePowSecondaryScaling(item.prePow) };
    const achieved = powDifficulty(params, prePowHeight(item.prePow), pow, verified.progpowFinal);
    if (achieved < item.target) return { ok: false, code: 'DifficultyTooLow' };
    return { ok: true, value: difficultyValue(achieved) };
  } catch (e) {
    if (e instanceof PowError) return { ok: false, code: e.code };
    throw e;
  }
}

/** The kinds pool workers run (registered in runtime/pool_kinds.ts). */
export const powKinds: KindTable = {
  [POW_JOB]: (items) => items.map(verifyItem),
};

export type PowVerdict =
  | { readonly ok: true; readonly difficulty: bigint }
  | { readonly ok: false; readonly code: PowFailure };

// A ProgPoW light verification costs tens of milliseconds and a RandomX one (light mode)
// hundreds, a Cuckoo one a fraction of one: smaller chunks keep every worker busy when such
// items are in the batch.
const SLOW_CHUNK = 4;
const slow = (item: PowItem): boolean =>
  item.proof.kind === 'ProgPow' || item.proof.kind === 'RandomX';

/**
 * The job item for a header's proof as Epic's `verify_size` checks it (every Cuckoo proof as
 * Cuckatoo). `target`: the header's difficulty increase for its proof's algorithm, or 0n to
 * verify only.
 */
export function powItemOfHeader(header: BlockHeader, chain: ChainType, target: bigint): PowItem {
  return {
    chain,
    algorithm: verifierOf(header.pow.proof),
    target,
    seed: header.pow.seed,
    prePow: prePow(header, CHAIN_PARAMS[chain]),
    proof: header.pow.proof,
  };
}

/** Verifies proofs of work in the pool; one verdict per item, in order. */
export async function verifyPows(pool: WorkPool, items: readonly PowItem[]): Promise<PowVerdict[]> {
  const results = await pool.runBatch(
    POW_JOB,
    items.map(encodePowItem),
    items.some(slow) ? { maxItemsPerJob: SLOW_CHUNK } : {},
  );
  return results.map((r) => {
    if (!r.ok) return { ok: false, code: r.code as PowFailure };
    return { ok: true, difficulty: difficultyFrom(r.value) };
  });
}
