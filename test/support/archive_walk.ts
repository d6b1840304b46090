// An independent reading of a txhashset archive, written from Epic's layouts alone (zip local
// headers, 32-byte hash files, portable Roaring leaf sets, MMR peaks bagged right to left) and
// sharing nothing with core/txhashset but the hash function, so a test can hold what the node
// wrote against what its API says of its own state.
import { blake2b256 } from '../../core/hash/blake2b.js';

/** Stored entries by name, from the local file headers in file order. */
export function walkStored(zip: Uint8Array): Map<string, Uint8Array> {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out = new Map<string, Uint8Array>();
  for (let p = 0; p + 30 <= zip.length && v.getUint32(p, true) === 0x04034b50; ) {
    if (v.getUint16(p + 8, true) !== 0) throw new Error(`entry at ${p} is not Stored`);
    const size = v.getUint32(p + 18, true);
    const nameLen = v.getUint16(p + 26, true);
    const start = p + 30 + nameLen + v.getUint16(p + 28, true);
    const name = Buffer.from(zip.subarray(p + 30, p + 30 + nameLen)).toString('utf8');
    out.set(name, zip.subarray(start, start + size));
    p = start + size;
  }
  return out;
}

/** The file's 32-byte hashes, one per MMR position (nothing pruned). */
export function hashFile(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length % 32 !== 0) throw new Error(`hash file of ${bytes.length} bytes`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 32) out.push(bytes.subarray(i, i + 32));
  return out;
}

/** 1-based peak positions of an MMR of `size` positions. */
export function peakPositions(size: number): number[] {
  const peaks: number[] = [];
  let tree = 1;
  while (tree * 2 + 1 <= size) tree = tree * 2 + 1;
  let before = 0;
  let left = size;
  for (; tree > 0; tree = (tree - 1) / 2) {
    if (left < tree) continue;
    peaks.push(before + tree);
    before += tree;
    left -= tree;
  }
  if (left !== 0) throw new Error(`${size} is not an MMR size`);
  return peaks;
}

/** Epic's root: peaks bagged from the right, each pair hashed with the MMR size in front. */
export function bagPeaks(hashes: readonly Uint8Array[], size: number): Uint8Array {
  const peaks = peakPositions(size).map((p) => hashes[p - 1] as Uint8Array);
  let acc = peaks.at(-1) as Uint8Array;
  for (let i = peaks.length - 2; i >= 0; i--) {
    const pre = new Uint8Array(8 + 64);
    new DataView(pre.buffer).setBigUint64(0, BigInt(size), false);
    pre.set(peaks[i] as Uint8Array, 8);
    pre.set(acc, 40);
    acc = blake2b256(pre);
  }
  return acc;
}

/** A portable Roaring bitmap's values (array, bitmap and run containers), ascending. */
export function roaringValues(b: Uint8Array): number[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const cookie = v.getUint32(0, true);
  let p = 4;
  let n: number;
  let runs: Uint8Array | null = null;
  if (cookie === 12346) {
    n = v.getUint32(4, true);
    p = 8;
  } else if ((cookie & 0xffff) === 12347) {
    n = (cookie >>> 16) + 1;
    runs = b.subarray(p, p + Math.ceil(n / 8));
    p += runs.length;
  } else throw new Error(`roaring cookie ${cookie}`);
  const keys: Array<{ key: number; card: number }> = [];
  for (let i = 0; i < n; i++, p += 4)
    keys.push({ key: v.getUint16(p, true), card: v.getUint16(p + 2, true) + 1 });
  if (runs === null || n >= 4) p += 4 * n; // offsets, not needed when read in order
  const out: number[] = [];
  keys.forEach(({ key, card }, i) => {
    const high = key * 65536;
    if (runs !== null && ((runs[i >> 3] as number) >> (i & 7)) & 1) {
      const count = v.getUint16(p, true);
      p += 2;
      for (let r = 0; r < count; r++, p += 4) {
        const start = v.getUint16(p, true);
        for (let x = 0; x <= v.getUint16(p + 2, true); x++) out.push(high + start + x);
      }
    } else if (card <= 4096) {
      for (let x = 0; x < card; x++, p += 2) out.push(high + v.getUint16(p, true));
    } else {
      for (let w = 0; w < 1024; w++, p += 8) {
        const word = v.getBigUint64(p, true);
        for (let bit = 0; bit < 64; bit++)
          if ((word >> BigInt(bit)) & 1n) out.push(high + w * 64 + bit);
      }
    }
  });
  return out;
}
