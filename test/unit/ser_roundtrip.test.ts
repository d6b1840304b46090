// Property tests of the binary codecs: every value the arbitraries produce decodes back from its
// encoding unchanged, for two chain types (Cuckoo proof sizes 42 and 4) and protocol versions 1
// and 2, and the sizes that are fixed by the wire format come out exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHAIN_PARAMS, type ChainType } from '../../core/chain_type.js';
import { blake2b256 } from '../../core/hash/blake2b.js';
import { writeBlock, writeCompactBlock } from '../../core/ser/block.js';
import { decode, encode, hashOf, type WriteFn } from '../../core/ser/codec.js';
import { headerHash, writeHeader } from '../../core/ser/header.js';
import {
  packedNonceBytes,
  readProof,
  writeDifficulty,
  writePolicy,
  writeProof,
} from '../../core/ser/pow.js';
import {
  writeBody,
  writeInput,
  writeKernel,
  writeOutput,
  writeTransaction,
} from '../../core/ser/transaction.js';
import { Writer } from '../../core/ser/writer.js';
import type { Proof } from '../../core/types/pow.js';
import type { TxKernel } from '../../core/types/transaction.js';
import {
  arbBlock,
  arbBlockBody,
  arbCompactBlock,
  arbCuckooProof,
  arbDifficulty,
  arbHeader,
  arbInput,
  arbKernel,
  arbOutput,
  arbPolicy,
  arbProof,
  arbTransaction,
  arbU8,
} from '../support/arbitraries.js';
import { DECODERS, encodeWide } from '../support/decoders.js';

const CHAINS: readonly ChainType[] = ['mainnet', 'automated'];
const VERSIONS = [1, 2] as const;
const RUNS = 200;

/** Full-mode size of one kernel under a protocol version. */
function kernelSize(k: TxKernel, version: number): number {
  if (version < 2) return 114;
  switch (k.features.kind) {
    case 'Plain':
      return 106;
    case 'Coinbase':
      return 98;
    case 'HeightLocked':
      return 114;
  }
}

/** Full-mode size of a proof (tag byte included). */
function proofSize(p: Proof, proofSizeParam: number): number {
  switch (p.kind) {
    case 'Cuckoo':
      return 2 + packedNonceBytes(p.edgeBits, proofSizeParam);
    case 'MD5':
      return 1 + 1 + 8 + new TextEncoder().encode(p.proof).length;
    case 'RandomX':
    case 'ProgPow':
      return 1 + 32;
  }
}

for (const chain of CHAINS) {
  const params = CHAIN_PARAMS[chain];
  for (const version of VERSIONS) {
    describe(`round trip, ${chain} (proof size ${params.proofSize}), protocol v${version}`, () => {
      for (const c of DECODERS) {
        if (!c.versions.includes(version)) continue;
        it(`${c.name}: decode(encode(x)) deep-equals x`, () => {
          fc.assert(
            fc.property(c.arb(params), (x) => {
              const bytes = encode(c.write, x, version, params);
              assert.deepStrictEqual(decode(c.read, bytes, version, params, c.name), x);
            }),
            { numRuns: RUNS },
          );
        });
      }

      it('input: 34 bytes in full and hash mode', () => {
        fc.assert(
          fc.property(arbInput(params), (x) => {
            assert.equal(encode(writeInput, x, version, params).length, 34);
            assert.equal(encode(writeInput, x, version, params, 'hash').length, 34);
          }),
          { numRuns: RUNS },
        );
      });

      it('output: 717 bytes, 34 in hash mode (no proof), hash equals its input form', () => {
        fc.assert(
          fc.property(arbOutput(params), (x) => {
            assert.equal(encode(writeOutput, x, version, params).length, 717);
            const hashed = encode(writeOutput, x, version, params, 'hash');
            assert.equal(hashed.length, 34);
            const asInput = { features: x.features, commit: x.commit };
            assert.deepStrictEqual(hashed, encode(writeInput, asInput, version, params, 'hash'));
          }),
          { numRuns: RUNS },
        );
      });

      it('kernel: v1 always 114, v2 Plain 106 / Coinbase 98 / HeightLocked 114, hash 114', () => {
        fc.assert(
          fc.property(arbKernel(params), (k) => {
            assert.equal(encode(writeKernel, k, version, params).length, kernelSize(k, version));
            const hashed = encode(writeKernel, k, version, params, 'hash');
            assert.equal(hashed.length, 114);
            assert.deepStrictEqual(hashed, encode(writeKernel, k, 1, params));
          }),
          { numRuns: RUNS },
        );
      });

      it('body and transaction: counts plus the items, nothing else', () => {
        fc.assert(
          fc.property(arbBlockBody(params), arbTransaction(params), (b, tx) => {
            const itemBytes = (body: typeof b): number =>
              24 +
              34 * body.inputs.length +
              717 * body.outputs.length +
              body.kernels.reduce((n, k) => n + kernelSize(k, version), 0);
            assert.equal(encode(writeBody, b, version, params).length, itemBytes(b));
            assert.equal(
              encode(writeTransaction, tx, version, params).length,
              32 + itemBytes(tx.body),
            );
          }),
          { numRuns: RUNS },
        );
      });

      it('difficulty 8+9n bytes, policy 8+5n bytes', () => {
        fc.assert(
          fc.property(arbDifficulty(params), arbPolicy(params), (d, p) => {
            assert.equal(
              encode(writeDifficulty, d, version, params).length,
              8 + 9 * Object.keys(d).length,
            );
            assert.equal(
              encode(writePolicy, p, version, params).length,
              8 + 5 * Object.keys(p).length,
            );
          }),
          { numRuns: RUNS },
        );
      });

      it('cuckoo proof: 2 + ceil(edgeBits*proofSize/8) bytes, 1 + that in hash mode', () => {
        fc.assert(
          fc.property(arbCuckooProof(params), (p) => {
            assert.ok(p.kind === 'Cuckoo');
            const packed = Math.ceil((p.edgeBits * params.proofSize) / 8);
            assert.equal(encode(writeProof, p, version, params).length, 2 + packed);
            assert.equal(encode(writeProof, p, version, params, 'hash').length, 1 + packed);
          }),
          { numRuns: RUNS },
        );
      });

      it('header: 226 + difficulty + 12 + proof + 33 + bottles bytes', () => {
        fc.assert(
          fc.property(arbHeader(params), (h) => {
            const pow = h.pow;
            const want =
              226 +
              (8 + 9 * Object.keys(pow.totalDifficulty).length) +
              4 +
              8 +
              proofSize(pow.proof, params.proofSize) +
              32 +
              1 +
              (8 + 5 * Object.keys(h.bottles).length);
            assert.equal(encode(writeHeader, h, version, params).length, want);
          }),
          { numRuns: RUNS },
        );
      });

      it('block and compact block: hash mode is exactly the header hash mode', () => {
        fc.assert(
          fc.property(arbBlock(params), arbCompactBlock(params), (b, cb) => {
            const hashMode = <T>(write: WriteFn<T>, x: T): Uint8Array =>
              encode(write, x, version, params, 'hash');
            assert.deepStrictEqual(hashMode(writeBlock, b), hashMode(writeHeader, b.header));
            assert.deepStrictEqual(
              hashMode(writeCompactBlock, cb),
              hashMode(writeHeader, cb.header),
            );
          }),
          { numRuns: RUNS },
        );
      });

      it('proofs of every kind decode from their encoding', () => {
        fc.assert(
          fc.property(arbProof(params), (p) => {
            const bytes = encode(writeProof, p, version, params);
            assert.equal(bytes.length, proofSize(p, params.proofSize));
            assert.deepStrictEqual(decode(readProof, bytes, version, params, 'proof'), p);
          }),
          { numRuns: RUNS },
        );
      });
    });
  }
}

// Regressions of bugs these tests found in core/ser (both fixed).
describe('core/ser regressions', () => {
  it('Writer: a write that makes the buffer grow is kept', () => {
    const params = CHAIN_PARAMS.mainnet;
    // Byte 512 of a default (512-byte) writer: the u8 lands in the discarded buffer.
    const w = new Writer('full', 1, params);
    w.fixed(new Uint8Array(512));
    w.u8(7);
    assert.equal(w.bytes().length, 513);
    assert.equal(w.bytes()[512], 7);
    // A fixed write across the old end: RangeError "offset is out of bounds".
    const w2 = new Writer('full', 1, params);
    w2.u8(1);
    w2.fixed(new Uint8Array(600).fill(9));
    assert.equal(w2.bytes().length, 601);
  });

  it('encode() equals a writer that never grows, for every type', () => {
    for (const chain of CHAINS) {
      const params = CHAIN_PARAMS[chain];
      for (const c of DECODERS) {
        for (const version of c.versions) {
          fc.assert(
            fc.property(c.arb(params), (x) => {
              assert.deepStrictEqual(
                encode(c.write, x, version, params),
                encodeWide(c.write, x, version, params),
              );
            }),
            { numRuns: 50 },
          );
        }
      }
    }
  });

  it('headerHash and hashOf(writeBlock) are H(hash-mode bytes)', () => {
    const params = CHAIN_PARAMS.mainnet;
    fc.assert(
      fc.property(arbBlock(params), (b) => {
        const want = blake2b256(encodeWide(writeHeader, b.header, 1, params, 'hash'));
        assert.deepStrictEqual(headerHash(b.header, params), want);
        assert.deepStrictEqual(hashOf(writeBlock, b, params), want);
      }),
      { numRuns: 300 },
    );
  });

  it('md5 proof string starting with U+FEFF round-trips', () => {
    const params = CHAIN_PARAMS.automated;
    fc.assert(
      fc.property(arbU8(), fc.string({ unit: 'binary', maxLength: 10 }), (edgeBits, rest) => {
        const p: Proof = { kind: 'MD5', edgeBits, proof: `\ufeff${rest}` };
        const bytes = encodeWide(writeProof, p, 2, params);
        assert.deepStrictEqual(decode(readProof, bytes, 2, params, 'proof'), p);
      }),
      { numRuns: 20 },
    );
  });
});
