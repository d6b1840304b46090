// The conformance rows after a reorg: a second node, fed blocks 1–6, mines a heavier branch 7'–8'
// that replaces the first node's block 7 (which carried the pool's transactions). The canonical
// blocks of chain_reads_chain.ts become 7' and 8'; the orphaned 7 stays readable by hash.
import assert from 'node:assert/strict';
import { toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerHash } from '../../core/ser/header.js';
import { blockPrintable, headerPrintable } from '../../core/serde/printable_block.js';
import { outputPrintable } from '../../core/serde/printable_output.js';
import type { Block } from '../../core/types/block.js';
import { blocks, expectedBlock, hashOf } from '../e2e/chain_reads_chain.js';
import { type Row, rpcRow, v1Pretty, v1Row } from './conformance_rows.js';
import { startKillable } from './killable_node.js';
import { AUTO, mineBlock, submit } from './miner.js';
import { removeHome } from './node_process.js';
import { sortedKeys } from './sorted.js';

/** Mines 7' and 8' on a second node and hands them to the node at `url`. */
export async function reorgPast(url: string): Promise<Block[]> {
  const other = await startKillable();
  try {
    for (const b of blocks.slice(1, 7))
      assert.deepEqual((await submit(other.url, b)).body.result, { Ok: null });
    const fork: Block[] = [];
    for (const keyIndex of [107, 108]) {
      const b = await mineBlock(other.url, { keyIndex });
      assert.deepEqual((await submit(other.url, b)).body.result, { Ok: null });
      fork.push(b);
    }
    for (const b of fork) assert.deepEqual((await submit(url, b)).body.result, { Ok: null });
    return fork;
  } finally {
    await other.stop();
    removeHome(other.home);
  }
}

/** The orphan as get_block prints it: none of its outputs is unspent any more. */
function orphanPrintable(b: Block): JsonValue {
  const outputs = b.body.outputs.map((o) =>
    outputPrintable({
      features: o.features,
      commit: o.commit,
      proof: o.proof,
      unspentHeight: null,
      mmrIndex: 0n,
      includeProof: true,
      merkleProof: null,
    }),
  );
  return blockPrintable(b, headerHash(b.header, AUTO), outputs);
}

/** Rows once `fork` (7', 8') has replaced `orphan` (7); `fork` is pushed onto `blocks` here. */
export function reorgRows(orphan: Block, fork: readonly Block[]): Row[] {
  blocks.push(...fork);
  const ref = 'issue 9 acceptance: a reorg';
  const orphanHash = toHex(headerHash(orphan.header, AUTO));
  const coinbase = orphan.body.outputs.find((o) => o.features === 'Coinbase');
  const txKernel = orphan.body.kernels.find((k) => k.features.kind !== 'Coinbase');
  assert.ok(coinbase !== undefined && txKernel !== undefined);
  const head = (blocks[8] as Block).header;
  const tip = {
    height: 8,
    last_block_pushed: toHex(hashOf(8)),
    prev_block_to_last: toHex(hashOf(7)),
    total_difficulty: (headerPrintable(head, hashOf(8)) as { total_difficulty: JsonValue })
      .total_difficulty,
  };
  const f = (method: string, params: JsonValue[], e: Parameters<typeof rpcRow>[3]) =>
    rpcRow('foreign', method, params, e, ref);
  return [
    f('get_tip', [], { ok: sortedKeys(tip) as JsonValue }),
    f('get_blocks', [7, 8, null, null], { ok: [expectedBlock(7), expectedBlock(8)] }),
    f('get_header', [null, orphanHash, null], {
      ok: headerPrintable(orphan.header, headerHash(orphan.header, AUTO)),
    }),
    f('get_block', [null, orphanHash, null], { ok: orphanPrintable(orphan) }),
    f('get_outputs', [[toHex(coinbase.commit)], null, null, false, false], { ok: [] }),
    f('get_kernel', [toHex(txKernel.excess), null, null], { err: 'NotFound' }),
    v1Row(
      'GET',
      '/v1/headers/7',
      200,
      v1Pretty(headerPrintable((blocks[7] as Block).header, hashOf(7))),
      ref,
    ),
  ];
}
