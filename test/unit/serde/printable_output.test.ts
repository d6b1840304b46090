// OutputPrintable, OutputListing and LocatedTxKernel: all keys always, Epic's order, the proof
// hash over the length-prefixed proof, and Merkle proofs in their binary hex form.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blake2b256 } from '../../../core/hash/blake2b.js';
import {
  locatedKernel,
  outputListing,
  outputPrintable,
  rangeProofHash,
} from '../../../core/serde/printable_output.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const proof = Uint8Array.from({ length: 675 }, (_, i) => i & 0xff);
const commit = new Uint8Array(33).fill(8);

describe('outputPrintable', () => {
  it('prints an unspent coinbase with proof and Merkle proof', () => {
    const framed = new Uint8Array(8 + 675);
    framed[6] = 0x02;
    framed[7] = 0xa3; // 675, big-endian
    framed.set(proof, 8);
    const mp = { mmrSize: 3n, path: [new Uint8Array(32).fill(0xaa)] };
    const v = outputPrintable({
      features: 'Coinbase',
      commit,
      proof,
      unspentHeight: 4n,
      mmrIndex: 7n,
      includeProof: true,
      merkleProof: mp,
    });
    assert.deepEqual(v, {
      output_type: 'Coinbase',
      commit: '08'.repeat(33),
      spent: false,
      proof: hex(proof),
      proof_hash: hex(blake2b256(framed)),
      block_height: 4n,
      merkle_proof: `${'00'.repeat(7)}03${'00'.repeat(7)}01${'aa'.repeat(32)}`,
      mmr_index: 7n,
    });
  });

  it('prints a spent plain output with nulls and index 0', () => {
    const v = outputPrintable({
      features: 'Plain',
      commit,
      proof,
      unspentHeight: null,
      mmrIndex: 0n,
      includeProof: false,
      merkleProof: null,
    });
    assert.deepEqual(v, {
      output_type: 'Transaction',
      commit: '08'.repeat(33),
      spent: true,
      proof: null,
      proof_hash: hex(rangeProofHash(proof)),
      block_height: null,
      merkle_proof: null,
      mmr_index: 0n,
    });
  });
});

describe('outputListing and locatedKernel', () => {
  it('keeps Epic field names', () => {
    assert.deepEqual(outputListing(9n, 1n, []), {
      highest_index: 9n,
      last_retrieved_index: 1n,
      outputs: [],
    });
    const sig = Uint8Array.from({ length: 64 }, (_, i) => i);
    const k = locatedKernel(
      { features: { kind: 'Plain', fee: 3n }, excess: commit, excessSig: sig },
      5n,
      12n,
    );
    const compact = [...sig.subarray(0, 32)].reverse().concat([...sig.subarray(32)].reverse());
    assert.deepEqual(k, {
      tx_kernel: {
        features: { Plain: { fee: 3n } },
        excess: '08'.repeat(33),
        excess_sig: hex(Uint8Array.from(compact)),
      },
      height: 5n,
      mmr_index: 12n,
    });
  });
});
