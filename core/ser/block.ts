// Wire format of blocks, compact blocks and block sums.

import { blake2b256 } from '../hash/blake2b.js';
import type { Block, BlockSums, CompactBlock, CompactBlockBody } from '../types/block.js';
import { COMMITMENT_SIZE, SHORT_ID_SIZE } from '../types/transaction.js';
import { hashOf, verifySortedAndUnique } from './codec.js';
import { readHeader, writeHeader } from './header.js';
import type { Reader } from './reader.js';
import {
  readBody,
  readKernel,
  readOutput,
  writeBody,
  writeKernel,
  writeOutput,
} from './transaction.js';
import type { Writer } from './writer.js';

export function readBlock(r: Reader): Block {
  const header = readHeader(r);
  return { header, body: readBody(r) };
}

/** Hash mode writes only the header, so a block hashes to its header's hash. */
export function writeBlock(w: Writer, b: Block): void {
  writeHeader(w, b.header);
  if (w.mode !== 'hash') writeBody(w, b.body);
}

export function readCompactBody(r: Reader): CompactBlockBody {
  const nOut = r.u64('compact output count');
  const nKern = r.u64('compact kernel count');
  const nIds = r.u64('compact kernel id count');
  const outFull = r.multi(nOut, 'out_full', readOutput);
  const kernFull = r.multi(nKern, 'kern_full', readKernel);
  const kernIds = r.multi(nIds, 'kern_ids', (rr) => rr.fixed(SHORT_ID_SIZE, 'short id'));
  verifySortedAndUnique(
    outFull.map((x) => hashOf(writeOutput, x, r.params)),
    'out_full',
  );
  verifySortedAndUnique(
    kernFull.map((x) => hashOf(writeKernel, x, r.params)),
    'kern_full',
  );
  verifySortedAndUnique(
    kernIds.map((x) => blake2b256(x)),
    'kern_ids',
  );
  return { outFull, kernFull, kernIds };
}

export function writeCompactBody(w: Writer, b: CompactBlockBody): void {
  w.u64n(b.outFull.length);
  w.u64n(b.kernFull.length);
  w.u64n(b.kernIds.length);
  for (const x of b.outFull) writeOutput(w, x);
  for (const x of b.kernFull) writeKernel(w, x);
  for (const x of b.kernIds) w.fixed(x);
}

export function readCompactBlock(r: Reader): CompactBlock {
  const header = readHeader(r);
  const nonce = r.u64('compact block nonce');
  return { header, nonce, body: readCompactBody(r) };
}

export function writeCompactBlock(w: Writer, b: CompactBlock): void {
  writeHeader(w, b.header);
  if (w.mode === 'hash') return;
  w.u64(b.nonce);
  writeCompactBody(w, b.body);
}

export function readBlockSums(r: Reader): BlockSums {
  const utxoSum = r.fixed(COMMITMENT_SIZE, 'utxo sum');
  return { utxoSum, kernelSum: r.fixed(COMMITMENT_SIZE, 'kernel sum') };
}

export function writeBlockSums(w: Writer, s: BlockSums): void {
  w.fixed(s.utxoSum);
  w.fixed(s.kernelSum);
}
