// `npm run bench -- blake2b`: our BLAKE2b-256 against @noble/hashes' blake2b (the baseline,
// measured in the same run) on a 217-byte header preimage, a 34-byte MMR leaf and 64 KiB.
import { blake2b } from '@noble/hashes/blake2.js';
import { blake2b256 } from '../core/hash/blake2b.js';
import { measure, saveResults } from './lib/harness.js';

const sizes = [34, 217, 65_536];
const results = [];
const ratios: Record<string, number> = {};
for (const size of sizes) {
  const data = Uint8Array.from({ length: size }, (_, i) => i & 0xff);
  const base = measure(`@noble/hashes blake2b dkLen 32, ${size} B`, () =>
    blake2b(data, { dkLen: 32 }),
  );
  const ours = measure(`core blake2b256, ${size} B`, () => blake2b256(data));
  results.push(base, ours);
  ratios[`ours_vs_noble_${size}B`] = ours.opsPerSec / base.opsPerSec;
  process.stdout.write(
    `  ${size} B: ×${ratios[`ours_vs_noble_${size}B`]?.toFixed(2)} (${((ours.opsPerSec * size) / 1e6).toFixed(1)} MB/s)\n`,
  );
}
saveResults('blake2b', results, ratios);
