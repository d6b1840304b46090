// Wire format of inputs, outputs, kernels, bodies and transactions (Epic 4.0, protocol v1/v2).
import { toHex } from '../bytes.js';
import type {
  Input,
  KernelFeatures,
  Output,
  OutputFeatures,
  Transaction,
  TransactionBody,
  TxKernel,
} from '../types/transaction.js';
import {
  BLINDING_SIZE,
  COMMITMENT_SIZE,
  RANGE_PROOF_SIZE,
  SIGNATURE_SIZE,
} from '../types/transaction.js';
import { hashOf, verifySortedAndUnique } from './codec.js';
import { SerError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

export const INPUT_WEIGHT = 1;
export const OUTPUT_WEIGHT = 21;
export const KERNEL_WEIGHT = 3;
/** A coinbase output plus kernel: room a transaction must leave in a block. */
export const COINBASE_WEIGHT = OUTPUT_WEIGHT + KERNEL_WEIGHT;

export function readOutputFeatures(r: Reader, what: string): OutputFeatures {
  const tag = r.u8(what);
  if (tag === 0) return 'Plain';
  if (tag === 1) return 'Coinbase';
  throw new SerError('CorruptedData', `${what}: unknown output features ${tag}`);
}

export function writeOutputFeatures(w: Writer, f: OutputFeatures): void {
  w.u8(f === 'Coinbase' ? 1 : 0);
}

export function readInput(r: Reader): Input {
  const features = readOutputFeatures(r, 'input features');
  return { features, commit: r.fixed(COMMITMENT_SIZE, 'input commitment') };
}

export function writeInput(w: Writer, x: Input): void {
  writeOutputFeatures(w, x.features);
  w.fixed(x.commit);
}

/** Epic's reader pads a short proof and misreads a long one; every real proof is 675 bytes. */
export function readRangeProof(r: Reader): Uint8Array {
  const len = r.u64('range proof length');
  if (len !== BigInt(RANGE_PROOF_SIZE)) {
    throw new SerError('CorruptedData', `range proof length ${len}, expected ${RANGE_PROOF_SIZE}`);
  }
  return r.fixed(RANGE_PROOF_SIZE, 'range proof');
}

export function readOutput(r: Reader): Output {
  const features = readOutputFeatures(r, 'output features');
  const commit = r.fixed(COMMITMENT_SIZE, 'output commitment');
  return { features, commit, proof: readRangeProof(r) };
}

export function writeOutput(w: Writer, x: Output): void {
  writeOutputFeatures(w, x.features);
  w.fixed(x.commit);
  if (w.mode !== 'hash') w.lenPrefixed(x.proof);
}

function featureTag(f: KernelFeatures): number {
  return f.kind === 'Plain' ? 0 : f.kind === 'Coinbase' ? 1 : 2;
}

function readKernelFeaturesV1(r: Reader): KernelFeatures {
  const tag = r.u8('kernel features');
  const fee = r.u64('kernel fee');
  const lockHeight = r.u64('kernel lock height');
  switch (tag) {
    case 0:
      if (lockHeight !== 0n)
        throw new SerError('CorruptedData', `plain kernel with lock height ${lockHeight}`);
      return { kind: 'Plain', fee };
    case 1:
      if (fee !== 0n || lockHeight !== 0n)
        throw new SerError('CorruptedData', 'coinbase kernel with a fee or lock height');
      return { kind: 'Coinbase' };
    case 2:
      return { kind: 'HeightLocked', fee, lockHeight };
    default:
      throw new SerError('CorruptedData', `unknown kernel features ${tag}`);
  }
}

function readKernelFeaturesV2(r: Reader): KernelFeatures {
  const tag = r.u8('kernel features');
  switch (tag) {
    case 0:
      return { kind: 'Plain', fee: r.u64('kernel fee') };
    case 1:
      return { kind: 'Coinbase' };
    case 2:
      return {
        kind: 'HeightLocked',
        fee: r.u64('kernel fee'),
        lockHeight: r.u64('kernel lock height'),
      };
    default:
      throw new SerError('CorruptedData', `unknown kernel features ${tag}`);
  }
}

export function readKernelFeatures(r: Reader): KernelFeatures {
  return r.version >= 2 ? readKernelFeaturesV2(r) : readKernelFeaturesV1(r);
}

/** v1 (tag, fee, lock height: 17 bytes) for protocol 1 and whenever hashing; v2 otherwise. */
export function writeKernelFeatures(w: Writer, f: KernelFeatures): void {
  w.u8(featureTag(f));
  const fee = f.kind === 'Coinbase' ? 0n : f.fee;
  const lockHeight = f.kind === 'HeightLocked' ? f.lockHeight : 0n;
  if (w.mode === 'hash' || w.version < 2) {
    w.u64(fee);
    w.u64(lockHeight);
    return;
  }
  if (f.kind !== 'Coinbase') w.u64(fee);
  if (f.kind === 'HeightLocked') w.u64(lockHeight);
}

export function readKernel(r: Reader): TxKernel {
  const features = readKernelFeatures(r);
  const excess = r.fixed(COMMITMENT_SIZE, 'kernel excess');
  return { features, excess, excessSig: r.fixed(SIGNATURE_SIZE, 'kernel signature') };
}

export function writeKernel(w: Writer, k: TxKernel): void {
  writeKernelFeatures(w, k.features);
  w.fixed(k.excess);
  w.fixed(k.excessSig);
}

export function bodyWeight(
  nInputs: number | bigint,
  nOutputs: number | bigint,
  nKernels: number | bigint,
): bigint {
  return (
    BigInt(nInputs) * BigInt(INPUT_WEIGHT) +
    BigInt(nOutputs) * BigInt(OUTPUT_WEIGHT) +
    BigInt(nKernels) * BigInt(KERNEL_WEIGHT)
  );
}

export function readBody(r: Reader): TransactionBody {
  const nIn = r.u64('input count');
  const nOut = r.u64('output count');
  const nKern = r.u64('kernel count');
  const weight = bodyWeight(nIn, nOut, nKern);
  if (weight > BigInt(r.params.maxBlockWeight)) {
    throw new SerError(
      'TooLargeReadErr',
      `body weight ${weight} (${nIn} in, ${nOut} out, ${nKern} kernels) is over ${r.params.maxBlockWeight}`,
    );
  }
  const inputs = r.multi(nIn, 'inputs', readInput);
  const outputs = r.multi(nOut, 'outputs', readOutput);
  const kernels = r.multi(nKern, 'kernels', readKernel);
  const body = { inputs, outputs, kernels };
  verifyBodySorted(body, r.params);
  return body;
}

export function writeBody(w: Writer, b: TransactionBody): void {
  w.u64n(b.inputs.length);
  w.u64n(b.outputs.length);
  w.u64n(b.kernels.length);
  for (const x of b.inputs) writeInput(w, x);
  for (const x of b.outputs) writeOutput(w, x);
  for (const x of b.kernels) writeKernel(w, x);
}

export function verifyBodySorted(b: TransactionBody, params: Reader['params']): void {
  verifySortedAndUnique(
    b.inputs.map((x) => hashOf(writeInput, x, params)),
    'inputs',
  );
  verifySortedAndUnique(
    b.outputs.map((x) => hashOf(writeOutput, x, params)),
    'outputs',
  );
  verifySortedAndUnique(
    b.kernels.map((x) => hashOf(writeKernel, x, params)),
    'kernels',
  );
}

/** No input spends an output of the same body (an input hashes like the output it spends). */
export function verifyNoCutThrough(b: TransactionBody, params: Reader['params']): void {
  const outs = new Set(b.outputs.map((x) => toHex(hashOf(writeOutput, x, params))));
  for (const x of b.inputs) {
    if (outs.has(toHex(hashOf(writeInput, x, params)))) {
      throw new SerError(
        'CorruptedData',
        'an input spends an output of the same body (cut-through)',
      );
    }
  }
}

export function readTransaction(r: Reader): Transaction {
  const offset = r.fixed(BLINDING_SIZE, 'transaction offset');
  const body = readBody(r);
  const weight = bodyWeight(body.inputs.length, body.outputs.length, body.kernels.length);
  const cap = r.params.maxBlockWeight - COINBASE_WEIGHT;
  if (weight > BigInt(cap))
    throw new SerError('CorruptedData', `transaction weight ${weight} is over ${cap}`);
  verifyNoCutThrough(body, r.params);
  if (body.outputs.some((o) => o.features === 'Coinbase'))
    throw new SerError('CorruptedData', 'transaction with a coinbase output');
  if (body.kernels.some((k) => k.features.kind === 'Coinbase'))
    throw new SerError('CorruptedData', 'transaction with a coinbase kernel');
  return { offset, body };
}

export function writeTransaction(w: Writer, tx: Transaction): void {
  w.fixed(tx.offset);
  writeBody(w, tx.body);
}
