// Epic's `impl From<Block> for CompactBlock` (core/src/core/compact_block.rs): what a node sends
// for GetCompactBlock and broadcasts for a block it mined. The nonce is Epic's per-message
// random u64 (`rng().random()`); it is a parameter here so a given block and nonce always give
// the same bytes, which is what makes the result checkable against Epic's recorded messages.
import { compareBytes } from '../bytes.js';
import { blake2b256 } from '../hash/blake2b.js';
import { shortId } from '../hash/ids.js';
import { hashOf } from '../ser/codec.js';
import type { WireParams } from '../ser/params.js';
import { writeKernel } from '../ser/transaction.js';
import type { Block, CompactBlock } from '../types/block.js';
import { sortKernels, sortOutputs } from './aggregate.js';

/**
 * The compact block of `block` (whose header hash is `blockHash`) under `nonce`: coinbase
 * outputs and kernels in full, every other kernel as its short id keyed by the block hash and
 * the nonce. Each list is then sorted as `CompactBlockBody::init(.., verify_sorted = false)`
 * does: `sort_unstable` under `hashable_ord!`, i.e. by each item's hash — for short ids the
 * blake2b of the 6 id bytes, not the id bytes themselves. Outputs and kernels of a valid block
 * are already in hash order, so sorting them only matters for a block that is not.
 */
export function compactBlockOf(
  block: Block,
  blockHash: Uint8Array,
  nonce: bigint,
  params: WireParams,
): CompactBlock {
  const outFull = sortOutputs(block.body.outputs.filter((o) => o.features === 'Coinbase'));
  const kernFull = sortKernels(block.body.kernels.filter((k) => k.features.kind === 'Coinbase'));
  const kernIds = block.body.kernels
    .filter((k) => k.features.kind !== 'Coinbase')
    .map((k) => shortId(hashOf(writeKernel, k, params), blockHash, nonce))
    .map((id) => ({ id, hash: blake2b256(id) }))
    .sort((a, b) => compareBytes(a.hash, b.hash))
    .map((x) => x.id);
  return { header: block.header, nonce, body: { outFull, kernFull, kernIds } };
}
