// One table of every binary decoder in core/ser with its writer and an arbitrary of valid values,
// shared by the round-trip properties and the fuzz tests.
import type { Arbitrary } from 'fast-check';
import type { ChainParams } from '../../core/chain_type.js';
import {
  readBlock,
  readBlockSums,
  readCompactBlock,
  writeBlock,
  writeBlockSums,
  writeCompactBlock,
} from '../../core/ser/block.js';
import type { ReadFn, WriteFn } from '../../core/ser/codec.js';
import { readHeader, writeHeader } from '../../core/ser/header.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import {
  readDifficulty,
  readPolicy,
  readProof,
  readProofOfWork,
  writeDifficulty,
  writePolicy,
  writeProof,
  writeProofOfWork,
} from '../../core/ser/pow.js';
import {
  readBody,
  readInput,
  readKernel,
  readOutput,
  readTransaction,
  writeBody,
  writeInput,
  writeKernel,
  writeOutput,
  writeTransaction,
} from '../../core/ser/transaction.js';
import type { SerMode } from '../../core/ser/writer.js';
import { Writer } from '../../core/ser/writer.js';
import {
  arbBlock,
  arbBlockBody,
  arbBlockSums,
  arbCompactBlock,
  arbDifficulty,
  arbHeader,
  arbInput,
  arbKernel,
  arbOutput,
  arbPolicy,
  arbProof,
  arbProofOfWork,
  arbTransaction,
} from './arbitraries.js';

/** Room for any value the arbitraries produce, so the writer never has to grow. */
export const WIDE_CAPACITY = 1 << 16;

/**
 * `encode()` with a writer that starts large enough never to grow. core/ser/writer.ts loses or
 * refuses writes that make its buffer grow (see the known-bug test in ser_roundtrip.test.ts);
 * the decoder tests must not depend on that.
 */
export function encodeWide<T>(
  write: WriteFn<T>,
  value: T,
  version: ProtocolVersion,
  params: ChainParams,
  mode: SerMode = 'full',
): Uint8Array {
  const w = new Writer(mode, version, params, WIDE_CAPACITY);
  write(w, value);
  return w.bytes().slice();
}

export interface DecoderCase<T> {
  /** Used in test names, failure messages and as `decode()`'s `what`. */
  readonly name: string;
  readonly read: ReadFn<T>;
  readonly write: WriteFn<T>;
  readonly arb: (params: ChainParams) => Arbitrary<T>;
  /** Protocol versions the case is decoded with. */
  readonly versions: readonly ProtocolVersion[];
  /**
   * Whether the encoding is canonical: every byte string that decodes re-encodes to itself.
   * False for anything holding a Difficulty or Policy map (entries may come in any order and
   * repeat on the wire; the writer re-sorts them).
   */
  readonly canonical: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous table; each row is typed above.
type AnyCase = DecoderCase<any>;

function row<T>(c: DecoderCase<T>): AnyCase {
  return c;
}

const BOTH: readonly ProtocolVersion[] = [1, 2];

export const DECODERS: readonly AnyCase[] = [
  row({
    name: 'input',
    read: readInput,
    write: writeInput,
    arb: (p) => arbInput(p),
    versions: BOTH,
    canonical: true,
  }),
  row({
    name: 'output',
    read: readOutput,
    write: writeOutput,
    arb: (p) => arbOutput(p),
    versions: BOTH,
    canonical: true,
  }),
  row({
    name: 'kernel v1',
    read: readKernel,
    write: writeKernel,
    arb: (p) => arbKernel(p),
    versions: [1],
    canonical: true,
  }),
  row({
    name: 'kernel v2',
    read: readKernel,
    write: writeKernel,
    arb: (p) => arbKernel(p),
    versions: [2],
    canonical: true,
  }),
  row({
    name: 'body',
    read: readBody,
    write: writeBody,
    arb: arbBlockBody,
    versions: BOTH,
    canonical: true,
  }),
  row({
    name: 'transaction',
    read: readTransaction,
    write: writeTransaction,
    arb: arbTransaction,
    versions: BOTH,
    canonical: true,
  }),
  row({
    name: 'difficulty',
    read: readDifficulty,
    write: writeDifficulty,
    arb: arbDifficulty,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'policy',
    read: readPolicy,
    write: writePolicy,
    arb: arbPolicy,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'proof',
    read: readProof,
    write: writeProof,
    arb: arbProof,
    versions: BOTH,
    canonical: true,
  }),
  row({
    name: 'proof of work',
    read: readProofOfWork,
    write: writeProofOfWork,
    arb: arbProofOfWork,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'header',
    read: readHeader,
    write: writeHeader,
    arb: arbHeader,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'block',
    read: readBlock,
    write: writeBlock,
    arb: arbBlock,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'compact block',
    read: readCompactBlock,
    write: writeCompactBlock,
    arb: arbCompactBlock,
    versions: BOTH,
    canonical: false,
  }),
  row({
    name: 'block sums',
    read: readBlockSums,
    write: writeBlockSums,
    arb: arbBlockSums,
    versions: BOTH,
    canonical: true,
  }),
];
