// Epic's `Block::hydrate_from`: a full block from a compact block and the pool transactions its
// short ids named. Inputs, outputs and kernels are collected as sets (Epic's items compare by
// their hash), the compact block's coinbase outputs and kernels are added, and the body is
// sorted and cut through. The result is not validated here: the chain does that.

import type { WriteFn } from '../ser/codec.js';
import { writeInput, writeKernel, writeOutput } from '../ser/transaction.js';
import type { Block, CompactBlock } from '../types/block.js';
import type { Input, Output, Transaction, TxKernel } from '../types/transaction.js';
import { cutThroughBody, hashHex } from './aggregate.js';

export function hydrate(cb: CompactBlock, txs: readonly Transaction[]): Block {
  const inputs = new Map<string, Input>();
  const outputs = new Map<string, Output>();
  const kernels = new Map<string, TxKernel>();
  for (const tx of txs) {
    addAll(inputs, tx.body.inputs, writeInput);
    addAll(outputs, tx.body.outputs, writeOutput);
    addAll(kernels, tx.body.kernels, writeKernel);
  }
  addAll(outputs, cb.body.outFull, writeOutput);
  addAll(kernels, cb.body.kernFull, writeKernel);
  const body = cutThroughBody({
    inputs: [...inputs.values()],
    outputs: [...outputs.values()],
    kernels: [...kernels.values()],
  });
  return { header: cb.header, body };
}

function addAll<T>(set: Map<string, T>, items: readonly T[], write: WriteFn<T>): void {
  for (const item of items) set.set(hashHex(item, write), item);
}
