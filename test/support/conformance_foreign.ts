// Conformance rows of the foreign surface's chain reads (node-api reference §4.1–§4.8) over the
// chain of test/e2e/chain_reads_chain.ts (blocks 1–6, block 5 spending block 1's coinbase).
import { toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import { locatedKernel, outputListing } from '../../core/serde/printable_output.js';
import { kernelToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Output } from '../../core/types/transaction.js';
import {
  blocks,
  commitOf,
  expectedBlock,
  expectedOutput,
  hashOf,
  isSpent,
  outputPositions,
  spentTx,
} from '../e2e/chain_reads_chain.js';
import { type Row, type RpcExpect, rpcRow } from './conformance_rows.js';

const block = (h: number) => blocks[h] as Block;
const coinbase = (h: number) => block(h).body.outputs[0] as Output;
const f = (method: string, params: JsonValue[], e: RpcExpect, ref: string, unreachable?: string) =>
  rpcRow('foreign', method, params, e, ref, unreachable);
const arg = (message: string): RpcExpect => ({ err: { Argument: message } });
const badParam = (name: string, at = 0): RpcExpect => ({
  code: -32602,
  message: `InvalidArgStructure "${name}" at position ${at}.`,
});

/** MMR position (1-based) of the leaf inserted `n`-th (0-based). */
function leafPos(n: number): bigint {
  let ones = 0;
  for (let x = n; x > 0; x >>= 1) ones += x & 1;
  return BigInt(2 * n - ones + 1);
}

export function headerOf(h: number): JsonValue {
  return headerPrintable(block(h).header, hashOf(h));
}

/** §4.1 get_header and get_block. */
function blockRows(): Row[] {
  const spent = commitOf(coinbase(1));
  const rows: Row[] = [];
  for (const m of ['get_header', 'get_block'] as const) {
    const ref = '§4.1';
    rows.push(
      f(m, [9, null, null], { err: 'NotFound' }, ref),
      f(m, [null, '00'.repeat(32), null], { err: 'NotFound' }, ref),
      f(m, [null, null, spent], { err: 'NotFound' }, ref),
      f(m, [null, null, null], arg('not a valid hash, height or output commit'), ref),
      f(m, [1, 'xyz', null], arg('invalid block hash: invalid digit found in string'), ref),
      // Epic crashes on an empty hash; we refuse it like any other bad hex (README).
      f(m, [null, '', null], arg('invalid block hash: invalid digit found in string'), ref),
      f(m, [null, null, 'zz'], arg('Not a valid commitment, id: zz'), ref),
      f(m, ['1', null, null], badParam('height'), ref),
      f(m, [1], { code: -32602, message: 'WrongNumberOfArgs. Expected 1. Actual 3' }, ref),
    );
  }
  rows.push(
    f('get_header', [2, null, null], { ok: headerOf(2) }, '§4.1'),
    f('get_header', [null, null, commitOf(coinbase(4))], { ok: headerOf(4) }, '§4.1'),
    f('get_block', [null, null, commitOf(coinbase(4))], { ok: expectedBlock(4) }, '§4.1'),
    f(
      'get_block',
      [1, null, null],
      { err: 'NotFound' },
      '§4.1',
      'the body is pruned only past the cut-through horizon (70 blocks) on a non-archive node',
    ),
    f(
      'get_block',
      [1, null, null],
      { err: { Internal: 'chain error' } },
      '§4.1',
      'converting a stored block to BlockPrintable does not fail',
    ),
  );
  return rows;
}

/** §4.2 get_blocks (our cap of 1,000 blocks per call: README). */
function blocksRows(): Row[] {
  const order = 'Start_height must be lower or equal than end_height';
  return [
    f('get_blocks', [5, 9, null, null], { ok: [expectedBlock(5), expectedBlock(6)] }, '§4.2'),
    f('get_blocks', [3, 2, null, null], arg(order), '§4.2'),
    f('get_blocks', [3, null, null, null], arg(order), '§4.2'),
    f('get_blocks', [null, 3, null, null], arg('Start_height or end_height is not valid'), '§4.2'),
    f(
      'get_blocks',
      [1, 2, 'q', null],
      arg('invalid block hash: invalid digit found in string'),
      '§4.2',
    ),
    f(
      'get_blocks',
      [0, 1000, null, null],
      arg('at most 1000 blocks per call: asked for 1001'),
      '§4.2 (our cap)',
    ),
  ];
}

/** §4.4 get_kernel, §4.5 get_last_n_kernels. */
function kernelRows(): Row[] {
  const k = spentTx.body.kernels[0];
  if (k === undefined) throw new Error('the test transaction has a kernel');
  const excess = toHex(k.excess);
  // Kernel MMR leaves: every block's kernels in order; the transaction's within block 5.
  const index = blocks.slice(0, 5).reduce((n, b) => n + b.body.kernels.length, 0);
  const within = block(5).body.kernels.findIndex((x) => toHex(x.excess) === excess);
  const located = locatedKernel(k, 5n, leafPos(index + within));
  const allKernels = blocks.flatMap((b) => b.body.kernels);
  const last = allKernels[allKernels.length - 1];
  if (last === undefined) throw new Error('the chain has kernels');
  return [
    f('get_kernel', [excess, 1, null], { ok: located }, '§4.4'),
    f('get_kernel', [excess, 6, null], { err: 'NotFound' }, '§4.4'),
    f('get_kernel', [excess, null, 4], { err: 'NotFound' }, '§4.4'),
    f('get_kernel', ['08'.repeat(33), null, null], { err: 'NotFound' }, '§4.4'),
    f(
      'get_kernel',
      [excess, null, 99],
      { err: { Internal: 'Other Error: get header hash by height' } },
      '§4.4',
    ),
    f('get_kernel', ['0g', null, null], { err: { RequestError: 'invalid excess hex' } }, '§4.4'),
    f('get_kernel', ['08', null, null], { err: { RequestError: 'invalid excess length' } }, '§4.4'),
    f('get_kernel', [1, null, null], badParam('excess'), '§4.4'),
    f('get_last_n_kernels', [1], { ok: [kernelToJson(last)] }, '§4.5'),
    f('get_last_n_kernels', [null], badParam('distance'), '§4.5'),
    f(
      'get_last_n_kernels',
      [1],
      arg('Could not get kernels'),
      '§4.5',
      'reading the last leaves of a healthy kernel MMR does not fail',
    ),
  ];
}

/** §4.6 get_outputs, §4.7 get_unspent_outputs, §4.8 get_pmmr_indices. */
function outputRows(): Row[] {
  const cb4 = coinbase(4);
  const leaves = outputPositions();
  const unspent = leaves.filter((l) => !isSpent(l.output) && l.pos >= 3n).slice(0, 2);
  const lastPos = unspent[1]?.pos ?? 0n;
  const size = block(6).header.outputMmrSize;
  const sizeAt = (h: number) => block(h).header.outputMmrSize;
  const cap = arg('at most 1000 blocks per call: asked for 1001');
  return [
    f(
      'get_outputs',
      [[commitOf(cb4)], null, null, true, false],
      { ok: [expectedOutput(cb4, true, false)] },
      '§4.6',
    ),
    f(
      'get_outputs',
      [null, 3, 3, null, null],
      { ok: block(3).body.outputs.map((o) => expectedOutput(o, false, false)) },
      '§4.6',
    ),
    f('get_outputs', [null, null, null, null, null], { ok: [] }, '§4.6'),
    f(
      'get_outputs',
      [['08'], null, null, null, null],
      { err: { RequestError: 'invalid commit length for 08' } },
      '§4.6',
    ),
    f('get_outputs', [null, 0, 1000, null, null], cap, '§4.6 (our cap)'),
    f('get_outputs', [[1], null, null, null, null], badParam('commits'), '§4.6'),
    f(
      'get_unspent_outputs',
      [3, null, 2, false],
      {
        ok: outputListing(
          size,
          lastPos,
          unspent.map((l) => expectedOutput(l.output, false, false)),
        ),
      },
      '§4.7',
    ),
    f('get_unspent_outputs', [null, null, 2, null], badParam('start_index'), '§4.7'),
    f(
      'get_unspent_outputs',
      [1, null, 2, null],
      { err: 'NotFound' },
      '§4.7',
      'reading the output MMR of a healthy chain does not fail',
    ),
    f(
      'get_unspent_outputs',
      [1, null, 2, null],
      { err: { Internal: 'chain error' } },
      '§4.7',
      'stored outputs always convert',
    ),
    f('get_pmmr_indices', [1, 3], { ok: outputListing(sizeAt(3), sizeAt(0) + 1n, []) }, '§4.8'),
    f('get_pmmr_indices', [1, 99], { err: 'NotFound' }, '§4.8'),
    f('get_pmmr_indices', [-1, null], badParam('start_block_height'), '§4.8'),
  ];
}

export function chainReadRows(): Row[] {
  return [...blockRows(), ...blocksRows(), ...kernelRows(), ...outputRows()];
}
