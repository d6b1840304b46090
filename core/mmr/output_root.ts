// The output root a header commits to: the output MMR's root alone before header version 7,
// from version 7 on merged with the bitmap accumulator's root as
// H(u64 output_mmr_size ‖ output MMR root ‖ bitmap root) (Epic's `OutputRoots`).
import { hashPairU64 } from './node_hash.js';

export function mergedOutputRoot(
  outputMmrSize: bigint,
  outputMmrRoot: Uint8Array,
  bitmapRoot: Uint8Array,
): Uint8Array {
  return hashPairU64(outputMmrSize, outputMmrRoot, bitmapRoot);
}

export function headerOutputRoot(
  headerVersion: number,
  outputMmrSize: bigint,
  outputMmrRoot: Uint8Array,
  bitmapRoot: Uint8Array,
): Uint8Array {
  return headerVersion < 7
    ? outputMmrRoot.slice()
    : mergedOutputRoot(outputMmrSize, outputMmrRoot, bitmapRoot);
}
