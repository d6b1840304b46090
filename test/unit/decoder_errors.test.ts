// Specific malformed inputs and the exact typed error each decoder gives: kind, and a detail
// naming the field. The fuzz test (test/fuzz/decoders.test.ts) covers random inputs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { concatBytes, toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS, type ChainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { readBlock, readCompactBlock } from '../../core/ser/block.js';
import { decode } from '../../core/ser/codec.js';
import { SerError, type SerErrorKind } from '../../core/ser/errors.js';
import { readHeader, writeHeader } from '../../core/ser/header.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import { readProof } from '../../core/ser/pow.js';
import {
  readBody,
  readInput,
  readKernel,
  readOutput,
  readTransaction,
  writeInput,
  writeOutput,
} from '../../core/ser/transaction.js';
import type { Writer } from '../../core/ser/writer.js';
import type { Input } from '../../core/types/transaction.js';
import { arbInput, arbKernel, arbOutput, inputHash, U64_MAX } from '../support/arbitraries.js';
import { encodeWide } from '../support/decoders.js';

const FUZZ_PARAMS: readonly ChainParams[] = [CHAIN_PARAMS.automated, CHAIN_PARAMS.mainnet];

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

function expectSerError(
  f: () => unknown,
  kind: SerErrorKind,
  detail: RegExp,
  message?: RegExp,
): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof SerError, `expected a SerError, got ${describeError(e)}`);
    assert.equal(e.kind, kind, `kind of "${e.message}"`);
    assert.match(e.detail, detail);
    if (message !== undefined) assert.match(e.message, message);
    return true;
  });
}

function u64be(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v);
  return b;
}

const counts = (a: bigint, b: bigint, c: bigint): Uint8Array =>
  concatBytes(u64be(a), u64be(b), u64be(c));

/** Two distinct inputs in hash order. */
function twoSortedInputs(params: ChainParams): [Input, Input] {
  const [a, b] = fc.sample(arbInput(params), { numRuns: 2, seed: 7 }) as [Input, Input];
  const [ha, hb] = [inputHash(a, params), inputHash(b, params)];
  return toHex(ha) < toHex(hb) ? [a, b] : [b, a];
}

describe('typed decoder errors', () => {
  for (const params of FUZZ_PARAMS) {
    const p = params;
    const v: ProtocolVersion = 2;
    const header = encodeWide(writeHeader, genesisHeader(p.type), v, p);

    describe(params.type, () => {
      it('truncated header: IOErr naming the field being read, at every cut', () => {
        for (let cut = 0; cut < header.length; cut++) {
          expectSerError(
            () => decode(readHeader, header.subarray(0, cut), v, p, 'header'),
            'IOErr',
            /while reading /,
          );
        }
        const proof = genesisHeader(p.type).pow.proof;
        assert.ok(proof.kind === 'Cuckoo');
        const afterNonces = 284 + Math.ceil((proof.edgeBits * p.proofSize) / 8);
        const fields: [number, string][] = [
          [0, 'header version'],
          [1, 'header version'],
          [2, 'height'],
          [12, 'timestamp'],
          [18, 'prev_hash'],
          [60, 'prev_root'],
          [82, 'output_root'],
          [114, 'range_proof_root'],
          [146, 'kernel_root'],
          [178, 'total_kernel_offset'],
          [210, 'output_mmr_size'],
          [218, 'kernel_mmr_size'],
          [226, 'difficulty entry count'],
          [234, 'difficulty algorithm'],
          [235, 'cuckaroo difficulty'],
          [270, 'secondary scaling'],
          [274, 'pow nonce'],
          [282, 'proof type'],
          [283, 'cuckoo edge bits'],
          [284, 'cuckoo nonces'],
          [afterNonces, 'randomx seed'],
          [afterNonces + 32, 'policy'],
          [afterNonces + 33, 'bottles entry count'],
          [afterNonces + 41, 'bottles algorithm'],
          [afterNonces + 42, 'cuckaroo bottles'],
          [header.length - 1, 'progpow bottles'],
        ];
        for (const [cut, field] of fields) {
          expectSerError(
            () => decode(readHeader, header.subarray(0, cut), v, p, 'header'),
            'IOErr',
            new RegExp(`while reading ${field} `),
          );
        }
      });

      it('trailing byte after a valid input: UnexpectedData', () => {
        const [input] = twoSortedInputs(p);
        const bytes = concatBytes(encodeWide(writeInput, input, v, p), new Uint8Array([0]));
        expectSerError(
          () => decode(readInput, bytes, v, p, 'input'),
          'UnexpectedData',
          /^1 trailing byte\(s\) after input$/,
        );
      });

      it('output features byte 2: CorruptedData', () => {
        const [out] = fc.sample(arbOutput(p), { numRuns: 1, seed: 3 });
        const bytes = encodeWide(writeOutput, out, v, p);
        bytes[0] = 2;
        expectSerError(
          () => decode(readOutput, bytes, v, p, 'output'),
          'CorruptedData',
          /output features: unknown output features 2/,
        );
      });

      it('range proof length 674: CorruptedData', () => {
        const [out] = fc.sample(arbOutput(p), { numRuns: 1, seed: 4 });
        const full = encodeWide(writeOutput, out, v, p);
        const bytes = full.slice(0, full.length - 1);
        new DataView(bytes.buffer).setBigUint64(34, 674n);
        expectSerError(
          () => decode(readOutput, bytes, v, p, 'output'),
          'CorruptedData',
          /range proof length 674/,
        );
        // Even with a full 675 bytes following, the announced length decides.
        const padded = full.slice();
        new DataView(padded.buffer).setBigUint64(34, 674n);
        expectSerError(
          () => decode(readOutput, padded, v, p, 'output'),
          'CorruptedData',
          /range proof length 674/,
        );
      });

      it('kernel count 1,000,001 after a valid header: TooLargeReadErr (weight pre-check)', () => {
        const block = concatBytes(header, counts(0n, 0n, 1_000_001n));
        expectSerError(
          () => decode(readBlock, block, v, p, 'block'),
          'TooLargeReadErr',
          /body weight 3000003 \(0 in, 0 out, 1000001 kernels\)/,
        );
        expectSerError(
          () => decode(readBody, counts(0n, 0n, 1_000_001n), v, p, 'body'),
          'TooLargeReadErr',
          /body weight .*1000001 kernels/,
        );
        const tx = concatBytes(new Uint8Array(32), counts(0n, 0n, 1_000_001n));
        expectSerError(
          () => decode(readTransaction, tx, v, p, 'transaction'),
          'TooLargeReadErr',
          /body weight .*1000001 kernels/,
        );
        // Counts near 2^64 must not wrap around the weight sum.
        expectSerError(
          () => decode(readBody, counts(U64_MAX, U64_MAX, U64_MAX), v, p, 'body'),
          'TooLargeReadErr',
          /body weight/,
        );
        // No weight check on a compact body: the read_multi cap answers instead.
        const compact = concatBytes(header, u64be(0n), counts(0n, 0n, 1_000_001n));
        expectSerError(
          () => decode(readCompactBlock, compact, v, p, 'compact block'),
          'TooLargeReadErr',
          /kern_ids: count 1000001 is over 1000000/,
        );
      });

      it('two identical inputs in a body: DuplicateError; reversed order: SortError', () => {
        const [a, b] = twoSortedInputs(p);
        const body = (xs: Input[]): Uint8Array =>
          concatBytes(
            counts(BigInt(xs.length), 0n, 0n),
            ...xs.map((x) => encodeWide(writeInput, x, v, p)),
          );
        assert.equal(decode(readBody, body([a, b]), v, p, 'body').inputs.length, 2);
        expectSerError(
          () => decode(readBody, body([a, a]), v, p, 'body'),
          'DuplicateError',
          /inputs\[1\] duplicates inputs\[0\]/,
        );
        expectSerError(
          () => decode(readBody, body([b, a]), v, p, 'body'),
          'SortError',
          /inputs\[1\] sorts before inputs\[0\]/,
        );
      });

      it('proof tag 4: CorruptedData', () => {
        expectSerError(
          () => decode(readProof, new Uint8Array([4]), v, p, 'proof'),
          'CorruptedData',
          /unknown proof type 4/,
        );
        const bad = header.slice();
        bad[282] = 4;
        expectSerError(
          () => decode(readHeader, bad, v, p, 'header'),
          'CorruptedData',
          /unknown proof type 4/,
        );
      });

      it('cuckoo edge bits 0 or 65: CorruptedData', () => {
        for (const eb of [0, 65]) {
          const bad = header.slice();
          bad[283] = eb;
          expectSerError(
            () => decode(readHeader, bad, v, p, 'header'),
            'CorruptedData',
            new RegExp(`cuckoo edge bits ${eb} outside 1\\.\\.64`),
          );
        }
      });

      it('header version 7 at height 0: InvalidBlockVersion', () => {
        const bad = header.slice();
        new DataView(bad.buffer).setUint16(0, 7);
        expectSerError(
          () => decode(readHeader, bad, v, p, 'header'),
          'InvalidBlockVersion',
          /version 7 at height 0, expected 6/,
          /YOU NEED UPDATE YOUR NODE/,
        );
        // And version 6 from the fork height on.
        const late = header.slice();
        new DataView(late.buffer).setBigUint64(2, p.headerV7Height);
        expectSerError(
          () => decode(readHeader, late, v, p, 'header'),
          'InvalidBlockVersion',
          new RegExp(`version 6 at height ${p.headerV7Height}, expected 7`),
        );
      });

      it('kernel v1 Plain with a lock height, and tag 3 in v2: CorruptedData', () => {
        const [k] = fc.sample(arbKernel(p, ['Plain']), { numRuns: 1, seed: 5 });
        const bytes = encodeWide(
          (w: Writer, x: typeof k) => {
            w.u8(0);
            w.u64(0n);
            w.u64(1n);
            w.fixed(x.excess);
            w.fixed(x.excessSig);
          },
          k,
          1,
          p,
        );
        expectSerError(
          () => decode(readKernel, bytes, 1, p, 'kernel'),
          'CorruptedData',
          /plain kernel with lock height 1/,
        );
        const v2 = new Uint8Array(98);
        v2[0] = 3;
        expectSerError(
          () => decode(readKernel, v2, 2, p, 'kernel'),
          'CorruptedData',
          /unknown kernel features 3/,
        );
      });
    });
  }
});
