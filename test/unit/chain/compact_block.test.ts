// Epic's CompactBlock of a block (core/src/core/compact_block.rs `From<Block>`), pure: every
// CompactBlock Epic sent in the recorded usernet sessions is rebuilt byte for byte from the
// recorded block and the message's nonce; on a block with two transactions the short ids come
// sorted by their hash (hashable_ord), which is not their byte order for every nonce.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareBytes, toHex } from '../../../core/bytes.js';
import { compactBlockOf } from '../../../core/chain/compact_block.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { blake2b256 } from '../../../core/hash/blake2b.js';
import { shortId } from '../../../core/hash/ids.js';
import { encodeFrame } from '../../../core/p2p/msg.js';
import type { MsgOf } from '../../../core/p2p/types.js';
import { readBlock, readCompactBlock, writeCompactBlock } from '../../../core/ser/block.js';
import { decode, encode, hashOf } from '../../../core/ser/codec.js';
import { headerHash } from '../../../core/ser/header.js';
import { writeKernel } from '../../../core/ser/transaction.js';
import type { Block } from '../../../core/types/block.js';
import { hex } from '../../support/crypto.js';
import { decodeRecordedFrame, recordedLines } from '../../support/p2p_vectors.js';

const USER = CHAIN_PARAMS.usernet;

const lines = recordedLines;

/** Epic's blocks by hash hex (the Block bodies A served, protocol v2). */
function recordedBlocks(): Map<string, Block> {
  const out = new Map<string, Block>();
  for (const b of lines('usernet_chain_blocks.jsonl'))
    out.set(b.hash as string, decode(readBlock, hex(b.hex as string), 2, USER, 'block'));
  return out;
}

const decodeFrame = (frameHex: string): MsgOf<'CompactBlock'> =>
  decodeRecordedFrame(frameHex) as MsgOf<'CompactBlock'>;

describe('compact blocks as Epic builds them (compactBlockOf)', () => {
  const blocks = recordedBlocks();

  it("rebuilds every CompactBlock Epic sent, byte for byte, from the block and the message's nonce", () => {
    const sessions = [
      'usernet_sync_capture',
      'usernet_client_exchange',
      'usernet_relay_header_first',
    ];
    const heights: bigint[] = [];
    for (const s of sessions) {
      for (const m of lines(`${s}.jsonl`)) {
        if (m.name !== 'CompactBlock' || m.from !== 'A') continue;
        const sent = decodeFrame(m.hex as string).block;
        const hash = headerHash(sent.header, USER);
        const block = blocks.get(toHex(hash));
        assert.ok(block, `block ${sent.header.height} is recorded`);
        const ours = compactBlockOf(block, hash, sent.nonce, USER);
        assert.equal(toHex(encodeFrame({ type: 'CompactBlock', block: ours }, 2, USER)), m.hex);
        heights.push(sent.header.height);
      }
    }
    // 141–145 broadcast after mining (sync capture), 145–147 asked by X, 147 relayed to B;
    // 144 and 146 carry one transaction kernel each.
    assert.deepEqual(heights, [141n, 142n, 143n, 144n, 145n, 145n, 146n, 147n, 147n]);
  });

  it('block 24 (two transactions): coinbase in full, the two kernels as ids sorted by their hash', () => {
    const entry = lines('usernet_chain_blocks.jsonl').find((b) => b.height === 24);
    const block = blocks.get(entry?.hash as string) as Block;
    const hash = hex(entry?.hash as string);
    const plain = block.body.kernels.filter((k) => k.features.kind !== 'Coinbase');
    assert.equal(plain.length, 2);
    let byteOrderDiffers = false;
    for (let nonce = 0n; nonce < 16n; nonce++) {
      const cb = compactBlockOf(block, hash, nonce, USER);
      assert.deepEqual(
        cb.body.outFull,
        block.body.outputs.filter((o) => o.features === 'Coinbase'),
      );
      assert.deepEqual(
        cb.body.kernFull,
        block.body.kernels.filter((k) => k.features.kind === 'Coinbase'),
      );
      const ids = plain.map((k) => shortId(hashOf(writeKernel, k, USER), hash, nonce));
      const byHash = [...ids].sort((a, b) => compareBytes(blake2b256(a), blake2b256(b)));
      assert.deepEqual(cb.body.kernIds.map(toHex), byHash.map(toHex), `nonce ${nonce}`);
      const byBytes = [...ids].sort(compareBytes);
      if (toHex(byBytes[0] as Uint8Array) !== toHex(byHash[0] as Uint8Array))
        byteOrderDiffers = true;
      // Epic's reader verifies that order: the bytes read back to the same compact block.
      const bytes = encode(writeCompactBlock, cb, 2, USER);
      assert.deepEqual(decode(readCompactBlock, bytes, 2, USER, 'compact block'), cb);
    }
    assert.ok(byteOrderDiffers, 'some nonce orders the two ids differently by bytes and by hash');
  });
});
