// Roaring bitmaps of u32 in the "portable" serialization (the format of the Roaring spec, as
// CRoaring's `roaring_bitmap_portable_serialize` writes it; Epic's leaf sets and prune lists
// go through the `croaring` crate's `serialize::<Portable>`).
//
// A value's high 16 bits pick a container, its low 16 bits live in it. Layout, little-endian:
//   with run containers: u32 cookie 12347 | (containers − 1) << 16, then one bit per container
//     (set = run container), then per container u16 key and u16 cardinality − 1, then — only
//     when there are at least 4 containers — a u32 byte offset per container;
//   without: u32 cookie 12346, u32 container count, the key/cardinality pairs, and always the
//     offsets.
//   Then the containers: array = cardinality u16 values ascending; bitmap = 1024 u64 words (bit
//     i of word w is value 64w + i); run = u16 run count, then (u16 start, u16 length − 1) pairs.
//
// Which kind a container takes is not fixed by the set alone. CRoaring keeps arrays up to 4096
// values and bitmaps above, and Epic calls `run_optimize` before every write
// (`store/src/leaf_set.rs` `snapshot`/`flush`, `store/src/prune_list.rs` `flush`), which turns
// an array into runs when 2 + 4·runs < 2·cardinality, a bitmap when 2 + 4·runs < 8192, and keeps
// a container that already was a run container as runs when 2 + 4·runs ≤ min(2·card, 8192).
// Only that last case depends on history (a tie, cardinality = 2·runs, of a container that was
// a run container before); `encodeRoaring` writes the tie as an array, which is what a container
// built by adding values gets.
import { TxHashSetError } from './errors.js';

const COOKIE_RUNS = 12347;
const COOKIE_NO_RUNS = 12346;
/** Fewer containers than this and a bitmap with runs carries no offsets. */
const NO_OFFSET_THRESHOLD = 4;
const ARRAY_MAX = 4096;
const BITMAP_BYTES = 8192;

type Kind = 'array' | 'bitmap' | 'run';

interface Container {
  readonly key: number;
  readonly values: Uint16Array; // ascending low halves
  readonly kind: Kind;
  readonly runs: number;
}

export interface RoaringEncodeOptions {
  /** Apply CRoaring's `run_optimize` choice before writing, as Epic does (default true). */
  readonly runOptimize?: boolean;
}

function countRuns(values: Uint16Array): number {
  let runs = 0;
  for (let i = 0; i < values.length; i++)
    if (i === 0 || (values[i] as number) !== (values[i - 1] as number) + 1) runs++;
  return runs;
}

function containerBytes(c: Container): number {
  return c.kind === 'array'
    ? 2 * c.values.length
    : c.kind === 'bitmap'
      ? BITMAP_BYTES
      : 2 + 4 * c.runs;
}

/**
 * The portable serialization of the set `values` (ascending, unique u32), with the container
 * kinds CRoaring would pick.
 */
export function encodeRoaring(
  values: ArrayLike<number>,
  options: RoaringEncodeOptions = {},
): Uint8Array {
  const runOptimize = options.runOptimize !== false;
  const containers: Container[] = [];
  let i = 0;
  while (i < values.length) {
    const key = (values[i] as number) >>> 16;
    let j = i;
    while (j < values.length && (values[j] as number) >>> 16 === key) j++;
    const low = new Uint16Array(j - i);
    for (let k = i; k < j; k++) {
      const x = values[k] as number;
      if (!Number.isInteger(x) || x < 0 || x > 0xffff_ffff)
        throw new RangeError(`roaring value ${x} is not a u32`);
      if (k > 0 && x <= (values[k - 1] as number))
        throw new RangeError(`roaring values not ascending at index ${k}`);
      low[k - i] = x & 0xffff;
    }
    const runs = countRuns(low);
    let kind: Kind = low.length <= ARRAY_MAX ? 'array' : 'bitmap';
    if (runOptimize) {
      const asRun = 2 + 4 * runs;
      if (asRun < (kind === 'array' ? 2 * low.length : BITMAP_BYTES)) kind = 'run';
    }
    containers.push({ key, values: low, kind, runs });
    i = j;
  }

  const n = containers.length;
  const hasRun = containers.some((c) => c.kind === 'run');
  const flagBytes = hasRun ? (n + 7) >> 3 : 0;
  const withOffsets = !hasRun || n >= NO_OFFSET_THRESHOLD;
  const head = (hasRun ? 4 + flagBytes : 8) + 4 * n + (withOffsets ? 4 * n : 0);
  let total = head;
  for (const c of containers) total += containerBytes(c);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  let p = 0;
  if (hasRun) {
    v.setUint32(p, (COOKIE_RUNS | ((n - 1) << 16)) >>> 0, true);
    p += 4;
    containers.forEach((c, k) => {
      if (c.kind === 'run') out[p + (k >> 3)] = (out[p + (k >> 3)] as number) | (1 << (k & 7));
    });
    p += flagBytes;
  } else {
    v.setUint32(p, COOKIE_NO_RUNS, true);
    v.setUint32(p + 4, n, true);
    p += 8;
  }
  for (const c of containers) {
    v.setUint16(p, c.key, true);
    v.setUint16(p + 2, c.values.length - 1, true);
    p += 4;
  }
  if (withOffsets) {
    let off = head;
    for (const c of containers) {
      v.setUint32(p, off, true);
      p += 4;
      off += containerBytes(c);
    }
  }
  for (const c of containers) p = writeContainer(v, p, c);
  return out;
}

function writeContainer(v: DataView, start: number, c: Container): number {
  let p = start;
  const vals = c.values;
  if (c.kind === 'array') {
    for (const x of vals) {
      v.setUint16(p, x, true);
      p += 2;
    }
    return p;
  }
  if (c.kind === 'bitmap') {
    // Bytes of a little-endian u64 word are bits 0-7, 8-15, ... so byte b holds values 8b..8b+7.
    for (const x of vals) {
      const at = start + (x >> 3);
      v.setUint8(at, v.getUint8(at) | (1 << (x & 7)));
    }
    return start + BITMAP_BYTES;
  }
  v.setUint16(p, c.runs, true);
  p += 2;
  let runStart = vals[0] as number;
  for (let k = 1; k <= vals.length; k++) {
    if (k === vals.length || (vals[k] as number) !== (vals[k - 1] as number) + 1) {
      v.setUint16(p, runStart, true);
      v.setUint16(p + 2, (vals[k - 1] as number) - runStart, true);
      p += 4;
      if (k < vals.length) runStart = vals[k] as number;
    }
  }
  return p;
}

function bad(detail: string): never {
  throw new TxHashSetError('RoaringMalformed', detail);
}

export interface RoaringDecodeOptions {
  /** Refuse sets with more values than this (a leaf set cannot exceed the MMR's leaf count). */
  readonly maxCardinality?: number;
}

/**
 * The values of a portable-serialized bitmap, ascending. Every count, offset and container is
 * checked: keys strictly ascending, arrays ascending and at most 4096 long, bitmap and run
 * cardinalities equal to the announced ones, runs ordered, non-overlapping and inside 16 bits,
 * offsets (when present) pointing exactly at each container, no trailing bytes.
 */
export function decodeRoaring(bytes: Uint8Array, options: RoaringDecodeOptions = {}): Uint32Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (p: number, n: number, what: string): void => {
    if (p + n > bytes.length) bad(`${what}: needs ${n} bytes at ${p}, input has ${bytes.length}`);
  };
  need(0, 4, 'cookie');
  const cookie = v.getUint32(0, true);
  let p: number;
  let n: number;
  let runFlags: Uint8Array | null = null;
  if ((cookie & 0xffff) === COOKIE_RUNS) {
    n = (cookie >>> 16) + 1;
    const flagBytes = (n + 7) >> 3;
    need(4, flagBytes, 'run flags');
    runFlags = bytes.subarray(4, 4 + flagBytes);
    p = 4 + flagBytes;
  } else if (cookie === COOKIE_NO_RUNS) {
    need(4, 4, 'container count');
    n = v.getUint32(4, true);
    if (n > 0x10000) bad(`${n} containers`);
    p = 8;
  } else {
    bad(`unknown cookie 0x${cookie.toString(16)}`);
  }
  need(p, 4 * n, 'keys and cardinalities');
  const keys: number[] = [];
  const cards: number[] = [];
  let total = 0;
  for (let k = 0; k < n; k++) {
    const key = v.getUint16(p + 4 * k, true);
    if (k > 0 && key <= (keys[k - 1] as number)) bad(`container keys not ascending at ${k}`);
    keys.push(key);
    cards.push(v.getUint16(p + 4 * k + 2, true) + 1);
    total += cards[k] as number;
  }
  p += 4 * n;
  const max = options.maxCardinality ?? Number.POSITIVE_INFINITY;
  if (total > max) bad(`${total} values, at most ${max}`);
  const isRun = (k: number) =>
    runFlags !== null && ((runFlags[k >> 3] as number) & (1 << (k & 7))) !== 0;
  let offsets: number[] | null = null;
  if (runFlags === null || n >= NO_OFFSET_THRESHOLD) {
    need(p, 4 * n, 'offsets');
    offsets = [];
    for (let k = 0; k < n; k++) offsets.push(v.getUint32(p + 4 * k, true));
    p += 4 * n;
  }

  const out = new Uint32Array(total);
  let o = 0;
  for (let k = 0; k < n; k++) {
    if (offsets !== null && offsets[k] !== p) bad(`container ${k} offset ${offsets[k]}, at ${p}`);
    const base = (keys[k] as number) * 0x10000;
    const card = cards[k] as number;
    if (isRun(k)) {
      need(p, 2, `run count of container ${k}`);
      const runs = v.getUint16(p, true);
      p += 2;
      need(p, 4 * runs, `runs of container ${k}`);
      let seen = 0;
      let next = 0; // lowest value the next run may start at
      for (let r = 0; r < runs; r++) {
        const start = v.getUint16(p, true);
        const len = v.getUint16(p + 2, true) + 1;
        p += 4;
        if (start < next) bad(`container ${k}: run ${r} overlaps or is out of order`);
        if (start + len > 0x10000) bad(`container ${k}: run ${r} passes 65535`);
        seen += len;
        if (seen > card) bad(`container ${k}: runs hold more than ${card} values`);
        for (let x = start; x < start + len; x++) out[o++] = base + x;
        next = start + len;
      }
      if (seen !== card) bad(`container ${k}: runs hold ${seen} values, ${card} announced`);
    } else if (card <= ARRAY_MAX) {
      need(p, 2 * card, `array container ${k}`);
      let prev = -1;
      for (let m = 0; m < card; m++) {
        const x = v.getUint16(p + 2 * m, true);
        if (x <= prev) bad(`container ${k}: array not ascending at ${m}`);
        out[o++] = base + x;
        prev = x;
      }
      p += 2 * card;
    } else {
      need(p, BITMAP_BYTES, `bitmap container ${k}`);
      let seen = 0;
      for (let b = 0; b < BITMAP_BYTES; b++) {
        let byte = bytes[p + b] as number;
        while (byte !== 0) {
          const bit = 31 - Math.clz32(byte & -byte);
          if (++seen > card) bad(`container ${k}: bitmap holds more than ${card} values`);
          out[o++] = base + 8 * b + bit;
          byte &= byte - 1;
        }
      }
      if (seen !== card) bad(`container ${k}: bitmap holds ${seen} values, ${card} announced`);
      p += BITMAP_BYTES;
    }
  }
  if (p !== bytes.length) bad(`${bytes.length - p} trailing bytes`);
  return out;
}
