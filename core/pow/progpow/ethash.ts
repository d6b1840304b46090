// Ethash as ProgPoW 0.9.2 reads it, light mode only: the per-epoch sizes and seed, the light
// cache, DAG items computed on demand from that cache, and the cDAG (the first 16 KiB of the DAG
// that ProgPoW keeps in "L1"). A verifier never holds the 1 GiB+ dataset.
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';
import { keccak512Node } from './keccak_f1600.js';
import {
  CACHE_BYTES_GROWTH,
  CACHE_BYTES_INIT,
  CACHE_ROUNDS,
  CACHE_WORDS,
  DATASET_BYTES_GROWTH,
  DATASET_BYTES_INIT,
  DATASET_PARENTS,
  EPOCH_LENGTH,
  FNV_PRIME,
  MIX_BYTES,
  NODE_BYTES,
  NODE_WORDS,
} from './params.js';
import { wordsLE } from './words.js';

/** Epochs whose sizes stay exact in doubles; far beyond any height a real chain reaches. */
export const MAX_EPOCH = 2 ** 20;

/** (done, total) in node hashes; called a few dozen times per build. */
export type BuildProgress = (done: number, total: number) => void;

/** Everything light verification needs for one epoch. */
export interface EpochCache {
  readonly epoch: number;
  /** The ethash light cache: `cacheSize(epoch) / 64` nodes of 16 little-endian words. */
  readonly cache: Uint32Array;
  /** DAG items 0..255 concatenated: 4096 words. */
  readonly cdag: Uint32Array;
  /** How many 256-byte DAG blocks (4 items) the ProgPoW loop addresses: dataset size / 256. */
  readonly dagBlocks: number;
}

/** Epoch of a block number; Epic passes the header height as the block number. */
export function epochOf(height: bigint | number): number {
  const h = BigInt(height);
  if (h < 0n) throw new RangeError(`negative height ${height}`);
  const epoch = h / BigInt(EPOCH_LENGTH);
  if (epoch > BigInt(MAX_EPOCH))
    throw new RangeError(`height ${height} is beyond epoch ${MAX_EPOCH}`);
  return Number(epoch);
}

function checkEpoch(epoch: number): void {
  if (!Number.isInteger(epoch) || epoch < 0 || epoch > MAX_EPOCH)
    throw new RangeError(`bad ethash epoch ${epoch}`);
}

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

/** Largest size below the linear bound whose count of `unit`-byte rows is prime. */
function primeSized(bound: number, unit: number): number {
  let size = bound - unit;
  while (!isPrime(size / unit)) size -= 2 * unit;
  return size;
}

/** Bytes of the light cache for an epoch. */
export function cacheSize(epoch: number): number {
  checkEpoch(epoch);
  return primeSized(CACHE_BYTES_INIT + CACHE_BYTES_GROWTH * epoch, NODE_BYTES);
}

/** Bytes of the full dataset (DAG) for an epoch; light mode only needs it for the modulus. */
export function datasetSize(epoch: number): number {
  checkEpoch(epoch);
  return primeSized(DATASET_BYTES_INIT + DATASET_BYTES_GROWTH * epoch, MIX_BYTES);
}

/** Seed of an epoch: keccak256 applied `epoch` times to 32 zero bytes. */
export function seedHash(epoch: number): Uint8Array {
  checkEpoch(epoch);
  let seed = new Uint8Array(32);
  for (let i = 0; i < epoch; i++) seed = keccak_256(seed);
  return seed;
}

/**
 * Builds the light cache: a keccak512 chain from the seed, then three RandMemoHash rounds where
 * each node is rehashed from its predecessor XOR a node its own first word points at.
 */
export function buildLightCache(epoch: number, onProgress?: BuildProgress): Uint32Array {
  const n = cacheSize(epoch) / NODE_BYTES;
  const cache = new Uint32Array(n * NODE_WORDS);
  const total = n * (1 + CACHE_ROUNDS);
  const step = Math.max(1, Math.floor(n / 16));
  cache.set(wordsLE(keccak_512(seedHash(epoch))), 0);
  for (let i = 1; i < n; i++) {
    keccak512Node(cache, (i - 1) * NODE_WORDS, cache, i * NODE_WORDS);
    if (onProgress !== undefined && i % step === 0) onProgress(i, total);
  }
  const mixed = new Uint32Array(NODE_WORDS);
  for (let round = 0; round < CACHE_ROUNDS; round++) {
    for (let i = 0; i < n; i++) {
      const prev = ((i + n - 1) % n) * NODE_WORDS;
      const other = (cache[i * NODE_WORDS] % n) * NODE_WORDS;
      for (let w = 0; w < NODE_WORDS; w++) mixed[w] = cache[prev + w] ^ cache[other + w];
      keccak512Node(mixed, 0, cache, i * NODE_WORDS);
      if (onProgress !== undefined && i % step === 0) onProgress(n * (round + 1) + i, total);
    }
  }
  onProgress?.(total, total);
  return cache;
}

const item = new Uint32Array(NODE_WORDS);

/**
 * DAG item `index` (64 bytes) from the light cache into out[off..off+16): hash a cache node
 * tagged with the index, fold in 256 pseudo-randomly chosen parents with FNV, hash again.
 */
export function dagItem(cache: Uint32Array, index: number, out: Uint32Array, off: number): void {
  const n = cache.length / NODE_WORDS;
  const base = (index % n) * NODE_WORDS;
  for (let w = 0; w < NODE_WORDS; w++) item[w] = cache[base + w];
  item[0] ^= index;
  keccak512Node(item, 0, item, 0);
  for (let p = 0; p < DATASET_PARENTS; p++) {
    const parent = ((Math.imul(index ^ p, FNV_PRIME) ^ item[p & 15]) >>> 0) % n;
    const pb = parent * NODE_WORDS;
    // Unrolled: this fold is most of a verification's CPU time (65 536 parents per hash).
    item[0] = Math.imul(item[0], FNV_PRIME) ^ cache[pb];
    item[1] = Math.imul(item[1], FNV_PRIME) ^ cache[pb + 1];
    item[2] = Math.imul(item[2], FNV_PRIME) ^ cache[pb + 2];
    item[3] = Math.imul(item[3], FNV_PRIME) ^ cache[pb + 3];
    item[4] = Math.imul(item[4], FNV_PRIME) ^ cache[pb + 4];
    item[5] = Math.imul(item[5], FNV_PRIME) ^ cache[pb + 5];
    item[6] = Math.imul(item[6], FNV_PRIME) ^ cache[pb + 6];
    item[7] = Math.imul(item[7], FNV_PRIME) ^ cache[pb + 7];
    item[8] = Math.imul(item[8], FNV_PRIME) ^ cache[pb + 8];
    item[9] = Math.imul(item[9], FNV_PRIME) ^ cache[pb + 9];
    item[10] = Math.imul(item[10], FNV_PRIME) ^ cache[pb + 10];
    item[11] = Math.imul(item[11], FNV_PRIME) ^ cache[pb + 11];
    item[12] = Math.imul(item[12], FNV_PRIME) ^ cache[pb + 12];
    item[13] = Math.imul(item[13], FNV_PRIME) ^ cache[pb + 13];
    item[14] = Math.imul(item[14], FNV_PRIME) ^ cache[pb + 14];
    item[15] = Math.imul(item[15], FNV_PRIME) ^ cache[pb + 15];
  }
  keccak512Node(item, 0, out, off);
}

/** The cDAG: the first CACHE_WORDS words of the DAG, i.e. items 0..255. */
export function buildCdag(cache: Uint32Array): Uint32Array {
  const cdag = new Uint32Array(CACHE_WORDS);
  for (let i = 0; i < CACHE_WORDS / NODE_WORDS; i++) dagItem(cache, i, cdag, i * NODE_WORDS);
  return cdag;
}

/** Wraps a light cache (built or loaded) for verification; checks its length for the epoch. */
export function epochCacheFrom(epoch: number, cache: Uint32Array): EpochCache {
  const words = (cacheSize(epoch) / NODE_BYTES) * NODE_WORDS;
  if (cache.length !== words)
    throw new RangeError(`light cache of ${cache.length} words, epoch ${epoch} needs ${words}`);
  return { epoch, cache, cdag: buildCdag(cache), dagBlocks: Math.floor(datasetSize(epoch) / 256) };
}

/** Builds everything one epoch needs (seconds: about a million keccak512 for epoch 0). */
export function buildEpochCache(epoch: number, onProgress?: BuildProgress): EpochCache {
  return epochCacheFrom(epoch, buildLightCache(epoch, onProgress));
}
