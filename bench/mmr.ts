// `npm run bench -- mmr`: appends/s building a 1,000,000-leaf output-style MMR in memory, and
// merkle proofs/s (generate + verify) on it, against baselines measured in the same run: BLAKE2b
// alone over a leaf's hashed bytes (an append costs one leaf hash plus, on average, one parent
// hash) and over a parent's. Also the position arithmetic the MMR runs on, bigint vs number.
import { blake2b256 } from '../core/hash/blake2b.js';
import { MemBackend } from '../core/mmr/mem_backend.js';
import { verifyMerkleProof } from '../core/mmr/merkle_proof.js';
import { Mmr } from '../core/mmr/mmr.js';
import { height as heightU64 } from '../core/mmr/pos.js';
import { height, leafPos } from '../core/mmr/safe_pos.js';
import { type Measurement, measure, saveResults } from './lib/harness.js';
import { element } from './lib/mmr_elements.js';

const LEAVES = 1_000_000;

const leafInput = new Uint8Array(8 + 34);
leafInput.set(element(12_345), 8);
const parentInput = new Uint8Array(8 + 64).fill(0x5a);

const results: Measurement[] = [
  measure('baseline: blake2b of a leaf input (42 B)', () => blake2b256(leafInput)),
  measure('baseline: blake2b of a parent input (72 B)', () => blake2b256(parentInput)),
];

// Appends: one timed build of the whole MMR (prunable, data kept, as the output MMR).
const mmr = new Mmr(new MemBackend({ prunable: true }));
const start = performance.now();
for (let i = 0; i < LEAVES; i++) mmr.push(element(i));
const seconds = (performance.now() - start) / 1000;
const appends: Measurement = {
  name: 'append, 1M-leaf MMR in memory',
  opsPerSec: LEAVES / seconds,
  iterations: LEAVES,
};
process.stdout.write(
  `${appends.name.padEnd(48)} ${appends.opsPerSec.toFixed(0).padStart(10)} ops/s (size ${mmr.size})\n`,
);
results.push(appends);

// Proofs of leaves spread over the whole MMR, in a fixed pseudo-random order.
const root = mmr.root();
let k = 0;
const nextLeaf = (): number => {
  k = (k + 387_199) % LEAVES;
  return k;
};
results.push(
  measure(
    'merkle proof generate + verify, 1M leaves',
    () => {
      const i = nextLeaf();
      const pos = BigInt(leafPos(i));
      if (!verifyMerkleProof(mmr.merkleProof(pos), root, element(i), pos))
        throw new Error(`proof of leaf ${i} does not verify`);
    },
    3,
  ),
  measure('merkle proof generate only, 1M leaves', () => {
    mmr.merkleProof(BigInt(leafPos(nextLeaf())));
  }),
);

// Why positions are numbers inside the MMR: the same height computation both ways.
let p = 1;
let pb = 1n;
results.push(
  measure('position height, number', () => {
    p = p === 2_000_000 ? 1 : p + 1;
    height(p);
  }),
  measure('position height, bigint (u64 reference)', () => {
    pb = pb === 2_000_000n ? 1n : pb + 1n;
    heightU64(pb);
  }),
);

const rate = (name: string): number =>
  results.find((r) => r.name === name)?.opsPerSec ?? Number.NaN;
const leafHash = rate('baseline: blake2b of a leaf input (42 B)');
const parentHash = rate('baseline: blake2b of a parent input (72 B)');
const proofs = rate('merkle proof generate + verify, 1M leaves');
// Hash work per append: one leaf plus (1 − 2^-20 ≈ 1) parents on average.
const appendHashCost = 1 / leafHash + 1 / parentHash;
const ratios = {
  append_vs_its_hashing_alone: appends.opsPerSec * appendHashCost,
  proof_roundtrip_in_parent_hashes: parentHash / proofs,
  height_number_vs_bigint:
    rate('position height, number') / rate('position height, bigint (u64 reference)'),
};
process.stdout.write(
  `append runs at ×${ratios.append_vs_its_hashing_alone.toFixed(2)} of the speed of its hashing alone\n`,
);
process.stdout.write(
  `a proof generate + verify costs ${ratios.proof_roundtrip_in_parent_hashes.toFixed(1)} parent hashes\n`,
);
process.stdout.write(
  `position height: number ×${ratios.height_number_vs_bigint.toFixed(1)} faster than bigint\n`,
);
saveResults('mmr', results, ratios);
