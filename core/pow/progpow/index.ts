// ProgPoW 0.9.2 light verification as Epic Cash runs it (progpow-rust `pp_light`, called from
// epic `core/src/pow/progpow.rs`). Pure: callers bring the epoch cache (see jobs/progpow_cache.ts).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type EpochCache, epochOf } from './ethash.js';
import { progpowWords } from './hash.js';
import { PERIOD_LENGTH } from './params.js';
import { bytesLE, wordsLE } from './words.js';

export {
  type BuildProgress,
  buildCdag,
  buildEpochCache,
  buildLightCache,
  cacheSize,
  dagItem,
  datasetSize,
  type EpochCache,
  epochCacheFrom,
  epochOf,
  MAX_EPOCH,
  seedHash,
} from './ethash.js';

export interface ProgpowResult {
  /** The 32-byte mix digest: what a ProgPowProof carries (8 words as LE bytes). */
  readonly mix: Uint8Array;
  /**
   * The 32-byte final hash; its big-endian value sets the difficulty: pass it as
   * `progpowDigest` to `achievedDifficulty` (core/consensus/difficulty.ts).
   */
  readonly final: Uint8Array;
}

export interface ProgpowVerdict extends ProgpowResult {
  /** True when the recomputed mix equals the proof's mix byte for byte. */
  readonly ok: boolean;
}

const U32 = 0xffffffffn;

/**
 * The header hash ProgPoW starts from: legacy keccak256 (Ethereum padding, not SHA3) of the
 * pre-pow without its trailing 8 nonce bytes, i.e. Epic's `pre_pow_hash()` / `transform_header`.
 */
export function progpowHeaderHash(prePow: Uint8Array): Uint8Array {
  if (prePow.length < 8) throw new RangeError('pre-pow shorter than its nonce');
  return keccak_256(prePow.subarray(0, prePow.length - 8));
}

/**
 * ProgPoW 0.9.2 in light mode.
 * - `headerHash`: 32 bytes, `progpowHeaderHash(prePow)` — never the block hash.
 * - `height`: the header height, used directly as the ethash block number (epoch = height /
 *   30000 selects the cache, period = height / 50 selects the program).
 * - `nonce`: the header's `pow.nonce` as a u64 (the big-endian last 8 bytes of the pre-pow);
 *   it enters Keccak-f[800] as (low word, high word).
 * `cache` must be the epoch cache of `epochOf(height)`; anything else is a RangeError.
 */
export function progpowHash(
  cache: EpochCache,
  headerHash: Uint8Array,
  height: bigint | number,
  nonce: bigint,
): ProgpowResult {
  if (headerHash.length !== 32) throw new RangeError('header hash must be 32 bytes');
  if (nonce < 0n || nonce > 0xffffffffffffffffn) throw new RangeError('nonce is not a u64');
  const epoch = epochOf(height);
  if (cache.epoch !== epoch)
    throw new RangeError(`height ${height} is in epoch ${epoch}, cache is epoch ${cache.epoch}`);
  const period = BigInt(height) / BigInt(PERIOD_LENGTH);
  const words = progpowWords(
    cache,
    wordsLE(headerHash),
    Number(nonce & U32),
    Number(nonce >> 32n),
    Number(period & U32),
    Number((period >> 32n) & U32),
  );
  return { mix: bytesLE(words.mix), final: bytesLE(words.final) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * Recomputes the hash and compares its mix with the proof's 32-byte `mix` (Epic: mismatch →
 * "Hash progpow invalid!"). Returns the final hash too, so the caller can take the difficulty
 * without hashing twice (Epic hashes twice; once is enough).
 */
export function progpowLightVerify(
  cache: EpochCache,
  headerHash: Uint8Array,
  height: bigint | number,
  nonce: bigint,
  mix: Uint8Array,
): ProgpowVerdict {
  const result = progpowHash(cache, headerHash, height, nonce);
  return { ...result, ok: sameBytes(result.mix, mix) };
}

/**
 * Same as progpowLightVerify from the 282-byte pre-pow (header bytes 0..282 with the nonce as
 * its big-endian last 8 bytes), as PoW jobs carry it across threads.
 */
export function progpowVerifyPrePow(
  cache: EpochCache,
  prePow: Uint8Array,
  height: bigint | number,
  mix: Uint8Array,
): ProgpowVerdict {
  const view = new DataView(prePow.buffer, prePow.byteOffset, prePow.byteLength);
  const nonce = view.getBigUint64(prePow.length - 8, false);
  return progpowLightVerify(cache, progpowHeaderHash(prePow), height, nonce, mix);
}
