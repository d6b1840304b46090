// ProgPoW 0.9.2 and ethash parameters exactly as Epic's verifier (progpow-rust `pp_light`) uses
// them. 0.9.3 changed PERIOD, CNT_CACHE and CNT_MATH; Epic never moved to it.

/** Blocks per ethash epoch; Epic feeds the header height in as the block number. */
export const EPOCH_LENGTH = 30_000;
/** Blocks per ProgPoW program: the random program changes every 50 heights. */
export const PERIOD_LENGTH = 50;

export const LANES = 16;
export const REGS = 32;
export const DAG_LOADS = 4;
/** Words of the cached DAG prefix ("L1" / cDAG): 16 KiB. */
export const CACHE_WORDS = 4096;
export const CNT_DAG = 64;
export const CNT_CACHE = 12;
export const CNT_MATH = 20;
export const F800_ROUNDS = 22;

export const FNV_PRIME = 0x01000193;
export const FNV_OFFSET = 0x811c9dc5;

export const CACHE_BYTES_INIT = 2 ** 24;
export const CACHE_BYTES_GROWTH = 2 ** 17;
export const DATASET_BYTES_INIT = 2 ** 30;
export const DATASET_BYTES_GROWTH = 2 ** 23;
export const CACHE_ROUNDS = 3;
export const DATASET_PARENTS = 256;
/** An ethash node (cache entry, DAG item) is 64 bytes = 16 little-endian words. */
export const NODE_WORDS = 16;
export const NODE_BYTES = 64;
export const MIX_BYTES = 128;
