// The header MMR: one leaf per header, height h at leaf position insertion_to_pmmr_index(h + 1).
// A leaf hashes the header's hash-mode bytes (not its hash); its root after headers 0..h−1 is
// the `prev_root` of header h. The store keeps the header hash as each leaf's data, which is
// what lookups by height need (Epic keeps an 89-byte HeaderEntry; the header MMR is never
// shipped to peers, so the choice is ours).
import { blake2b256 } from '../hash/blake2b.js';
import { writeHeader } from '../ser/header.js';
import type { WireParams } from '../ser/params.js';
import { Writer } from '../ser/writer.js';
import type { BlockHeader } from '../types/block.js';
import type { Mmr } from './mmr.js';
import { insertionToPmmrIndex } from './pos.js';

/** The leaf element: the header in hash mode. */
export function headerMmrElement(header: BlockHeader, params: WireParams): Uint8Array {
  const w = new Writer('hash', 1, params, 256);
  writeHeader(w, header);
  return w.bytes().slice();
}

/**
 * Appends `header`; returns its leaf position. `hash`, when the caller has it, is the header's
 * hash (the BLAKE2b of this same element), so it is not computed twice.
 */
export function pushHeader(
  mmr: Mmr,
  header: BlockHeader,
  params: WireParams,
  hash?: Uint8Array,
): bigint {
  const element = headerMmrElement(header, params);
  return mmr.push(element, hash ?? blake2b256(element));
}

/** Leaf position of the header at `height`. */
export function headerLeafPos(height: bigint): bigint {
  return insertionToPmmrIndex(height + 1n);
}
