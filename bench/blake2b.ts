// `npm run bench -- blake2b`: BLAKE2b-256 three ways on a 34-byte MMR leaf, a 72-byte MMR
// parent (index ‖ left ‖ right, what root bagging hashes), a 217-byte header preimage and
// 64 KiB: @noble/hashes' blake2b (the baseline), our JavaScript (blake2b256Js) and the
// native backend (jobs/hash_addon.ts, the randomx addon) through blake2b256 as core calls it.
// Inputs are reused buffers, as core/mmr/node_hash.ts hashes.
import { blake2b } from '@noble/hashes/blake2.js';
import { blake2b256, blake2b256Js, setBlake2bBackend } from '../core/hash/blake2b.js';
import { installNativeBlake2b } from '../jobs/hash_addon.js';
import { type Measurement, measure, saveResults } from './lib/harness.js';

const sizes = [34, 72, 217, 65_536];
const native = installNativeBlake2b();
if (!native) process.stdout.write('native backend unavailable: JavaScript figures only\n');
const results: Measurement[] = [];
const ratios: Record<string, number> = {};

function perCall(m: Measurement): string {
  return `${(1e9 / m.opsPerSec).toFixed(0)} ns`;
}

for (const size of sizes) {
  const data = Uint8Array.from({ length: size }, (_, i) => i & 0xff);
  const base = measure(`@noble/hashes blake2b dkLen 32, ${size} B`, () =>
    blake2b(data, { dkLen: 32 }),
  );
  const ours = measure(`core blake2b256, ${size} B`, () => blake2b256Js(data));
  results.push(base, ours);
  ratios[`ours_vs_noble_${size}B`] = ours.opsPerSec / base.opsPerSec;
  let line = `  ${size} B: JS ${perCall(ours)}, ×${ratios[`ours_vs_noble_${size}B`]?.toFixed(2)} noble (${((ours.opsPerSec * size) / 1e6).toFixed(1)} MB/s)`;
  if (native) {
    const nat = measure(`native blake2b256, ${size} B`, () => blake2b256(data));
    results.push(nat);
    ratios[`native_vs_js_${size}B`] = nat.opsPerSec / ours.opsPerSec;
    line += `; native ${perCall(nat)}, ×${ratios[`native_vs_js_${size}B`]?.toFixed(2)} JS (${((nat.opsPerSec * size) / 1e6).toFixed(1)} MB/s)`;
  }
  process.stdout.write(`${line}\n`);
}
setBlake2bBackend(null);
saveResults('blake2b', results, ratios);
