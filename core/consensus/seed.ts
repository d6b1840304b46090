// RandomX key schedule: which block's hash keys the RandomX proof at a height, and the epoch
// tuples mining templates announce. Every header carries that seed, whatever its algorithm.

export const SEEDHASH_EPOCH_BLOCKS = 1000n;
/** Blocks a new key waits after its seed block, so miners can prepare the next dataset. */
export const SEEDHASH_EPOCH_LAG = 60n;

/** Height of the block whose hash is the RandomX key at `height`. */
export function seedHeight(height: bigint): bigint {
  if (height <= SEEDHASH_EPOCH_BLOCKS + SEEDHASH_EPOCH_LAG) return 0n;
  const offset = height % SEEDHASH_EPOCH_BLOCKS;
  const epochBase = height - offset;
  return offset <= SEEDHASH_EPOCH_LAG ? epochBase - SEEDHASH_EPOCH_BLOCKS : epochBase;
}

/**
 * The key announced ahead of time: during heights k·1000+1 … k·1000+61 (k ≥ 1), block k·1000;
 * otherwise none.
 */
export function nextSeedHeight(height: bigint): bigint | undefined {
  if (height <= SEEDHASH_EPOCH_BLOCKS) return undefined;
  return (height - 1n) % SEEDHASH_EPOCH_BLOCKS <= SEEDHASH_EPOCH_LAG
    ? height - (height % SEEDHASH_EPOCH_BLOCKS)
    : undefined;
}

/** An epoch as miners see it: `(start, end, seed)`, the seed given by its block height. */
export interface RxEpoch {
  readonly start: bigint;
  readonly end: bigint;
  readonly seedHeight: bigint;
}

export function epochStart(seed: bigint): bigint {
  return seed === 0n ? 0n : seed + SEEDHASH_EPOCH_LAG;
}

export function epochEnd(seed: bigint): bigint {
  return seed === 0n
    ? SEEDHASH_EPOCH_BLOCKS + SEEDHASH_EPOCH_LAG
    : seed + SEEDHASH_EPOCH_LAG + SEEDHASH_EPOCH_BLOCKS;
}

export function rxEpoch(seed: bigint): RxEpoch {
  return { start: epochStart(seed), end: epochEnd(seed), seedHeight: seed };
}

/** The current epoch only: what the HTTP block template sends. */
export function currentEpochs(height: bigint): RxEpoch[] {
  return [rxEpoch(seedHeight(height))];
}

/** The current epoch and, while it is announced, the next one: what stratum jobs send. */
export function announcedEpochs(height: bigint): RxEpoch[] {
  const next = nextSeedHeight(height);
  const epochs = currentEpochs(height);
  return next === undefined ? epochs : [...epochs, rxEpoch(next)];
}
