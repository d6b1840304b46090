// Zip archives as Epic's txhashset snapshots use them: Stored entries only, written so that the
// bytes equal what Epic's `util/src/zip.rs` (`zip` crate 0.5, `FileOptions` Stored + mode 0644)
// produces, and read with every length bounded before it is trusted, since the archive comes
// from a peer.
//
// Layout Epic writes (checked byte by byte against the recorded height-120 archive): per entry a
// 30-byte local header + name + data, no data descriptor, no extra field; then one 46-byte
// central record per entry; then the 22-byte end record without a comment. Fields that are
// constant in every Epic archive:
//   version made by 0x032e (host 3 = Unix, spec 4.6), version needed 20, flags 0, method 0,
//   DOS time 0 and date 0x0021 (1980-01-01 00:00:00: the crate's default `DateTime`),
//   internal attributes 0, external attributes 0o100644 << 16 (regular file, rw-r--r--).
// All integers are little-endian. No zip64: the crate refuses files over 4 GiB without
// `large_file`, which Epic never sets, so an Epic archive never needs it.
import { TxHashSetError } from './errors.js';

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const LOCAL_LEN = 30;
const CENTRAL_LEN = 46;
const END_LEN = 22;
const VERSION_MADE_BY = 0x032e;
const VERSION_NEEDED = 20;
const DOS_DATE_1980_01_01 = 0x0021;
const EXTERNAL_ATTR_0644 = (0o100644 << 16) >>> 0;
const U32_MAX = 0xffff_ffff;

export interface ZipEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

// CRC-32 (IEEE, reflected, polynomial 0xEDB88320), table driven.
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffff_ffff;
  for (let i = 0; i < bytes.length; i++)
    c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffff_ffff) >>> 0;
}

/**
 * The archive bytes for `entries`, in the given order, exactly as Epic's writer lays them out.
 * Names are written as given (UTF-8); Epic's are ASCII paths with `/` separators.
 */
export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  if (entries.length > 0xffff)
    throw new TxHashSetError('ZipUnsupported', `${entries.length} entries need zip64`);
  const enc = new TextEncoder();
  const names = entries.map((e) => enc.encode(e.name));
  const crcs = entries.map((e) => crc32(e.data));
  let total = END_LEN;
  entries.forEach((e, i) => {
    const n = (names[i] as Uint8Array).length;
    if (e.data.length > U32_MAX)
      throw new TxHashSetError('ZipUnsupported', `${e.name}: ${e.data.length} bytes need zip64`);
    total += LOCAL_LEN + CENTRAL_LEN + 2 * n + e.data.length;
  });
  if (total > U32_MAX) throw new TxHashSetError('ZipUnsupported', `archive of ${total} bytes`);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  // Fields shared by local and central records, from "version needed" to the name length.
  const common = (p: number, i: number): number => {
    const e = entries[i] as ZipEntry;
    v.setUint16(p, VERSION_NEEDED, true);
    v.setUint16(p + 2, 0, true); // flags
    v.setUint16(p + 4, 0, true); // method: Stored
    v.setUint16(p + 6, 0, true); // DOS time 00:00:00
    v.setUint16(p + 8, DOS_DATE_1980_01_01, true);
    v.setUint32(p + 10, crcs[i] as number, true);
    v.setUint32(p + 14, e.data.length, true); // compressed size
    v.setUint32(p + 18, e.data.length, true); // uncompressed size
    v.setUint16(p + 22, (names[i] as Uint8Array).length, true);
    v.setUint16(p + 24, 0, true); // extra field length
    return p + 26;
  };
  entries.forEach((e, i) => {
    offsets.push(at);
    v.setUint32(at, LOCAL_SIG, true);
    at = common(at + 4, i);
    out.set(names[i] as Uint8Array, at);
    at += (names[i] as Uint8Array).length;
    out.set(e.data, at);
    at += e.data.length;
  });
  const cdStart = at;
  entries.forEach((_, i) => {
    v.setUint32(at, CENTRAL_SIG, true);
    v.setUint16(at + 4, VERSION_MADE_BY, true);
    at = common(at + 6, i);
    v.setUint16(at, 0, true); // comment length
    v.setUint16(at + 2, 0, true); // disk number start
    v.setUint16(at + 4, 0, true); // internal attributes
    v.setUint32(at + 6, EXTERNAL_ATTR_0644, true);
    v.setUint32(at + 10, offsets[i] as number, true);
    at += 14;
    out.set(names[i] as Uint8Array, at);
    at += (names[i] as Uint8Array).length;
  });
  v.setUint32(at, END_SIG, true);
  v.setUint16(at + 4, 0, true); // this disk
  v.setUint16(at + 6, 0, true); // disk with the central directory
  v.setUint16(at + 8, entries.length, true);
  v.setUint16(at + 10, entries.length, true);
  v.setUint32(at + 12, at - cdStart, true);
  v.setUint32(at + 16, cdStart, true);
  v.setUint16(at + 20, 0, true); // comment length
  return out;
}

export interface ZipReadLimits {
  /** Refuse archives announcing more entries than this. */
  readonly maxEntries: number;
  /** Whether a (safe) name may appear; anything else is refused. */
  readonly allowName: (name: string) => boolean;
  /** Largest size of one entry, by name (so a leaf file can be capped tighter than a data file). */
  readonly maxEntrySize: (name: string) => number;
  /** Largest sum of entry sizes. */
  readonly maxTotalSize: number;
  /** Check each entry's CRC-32 (default true; a caller that hashes the data anyway may skip it). */
  readonly checkCrc?: boolean;
}

/** A name that could escape the extraction directory or alias another path. */
export function isUnsafeZipName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || name.includes('\0'))
    return true;
  return name.split('/').some((part) => part === '' || part === '.' || part === '..');
}

function fail(code: 'ZipTruncated' | 'ZipMalformed', detail: string): never {
  throw new TxHashSetError(code, detail);
}

/**
 * The entries of a Stored-only archive in central-directory order, their data as views into
 * `bytes` (no copy). Everything is checked before it is used: the end record must close the
 * input (no comment, nothing after it), the entry count is capped before the directory is
 * walked, each name is safe, allowed and unique, each size capped, local and central records
 * agree, entries lie inside the data area without overlapping, and CRCs match.
 */
export function readZip(bytes: Uint8Array, limits: ZipReadLimits): ZipEntry[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < END_LEN) fail('ZipTruncated', `${bytes.length} bytes, no end record`);
  const end = bytes.length - END_LEN;
  if (v.getUint32(end, true) !== END_SIG) {
    // Epic writes no comment; an end record further up means a comment or a cut-off archive.
    const found = lastIndexOfSig(bytes, END_SIG);
    if (found < 0) fail('ZipTruncated', 'no end-of-central-directory record');
    fail('ZipMalformed', `end record at ${found}, ${bytes.length - found - END_LEN} bytes after`);
  }
  if (v.getUint16(end + 20, true) !== 0) fail('ZipMalformed', 'archive comment present');
  if (v.getUint16(end + 4, true) !== 0 || v.getUint16(end + 6, true) !== 0)
    throw new TxHashSetError('ZipUnsupported', 'multi-disk archive');
  const count = v.getUint16(end + 10, true);
  if (v.getUint16(end + 8, true) !== count) fail('ZipMalformed', 'entry counts disagree');
  if (count > limits.maxEntries)
    throw new TxHashSetError('ZipTooManyEntries', `${count} entries, at most ${limits.maxEntries}`);
  const cdSize = v.getUint32(end + 12, true);
  const cdStart = v.getUint32(end + 16, true);
  if (cdStart === U32_MAX || cdSize === U32_MAX || count === 0xffff)
    throw new TxHashSetError('ZipUnsupported', 'zip64 archive');
  if (cdStart + cdSize > end)
    fail('ZipTruncated', `central directory ${cdStart}+${cdSize} runs past ${end}`);
  if (cdStart + cdSize !== end)
    fail('ZipMalformed', `${end - cdStart - cdSize} bytes between central directory and end`);

  const dec = new TextDecoder('utf-8', { fatal: true });
  const seen = new Set<string>();
  const out: ZipEntry[] = [];
  const spans: Array<[start: number, stop: number, name: string]> = [];
  let total = 0;
  let p = cdStart;
  for (let i = 0; i < count; i++) {
    if (p + CENTRAL_LEN > end) fail('ZipTruncated', `central record ${i} at ${p}`);
    if (v.getUint32(p, true) !== CENTRAL_SIG) fail('ZipMalformed', `central record ${i} at ${p}`);
    const flags = v.getUint16(p + 8, true);
    const method = v.getUint16(p + 10, true);
    const crc = v.getUint32(p + 16, true);
    const csize = v.getUint32(p + 20, true);
    const usize = v.getUint32(p + 24, true);
    const nameLen = v.getUint16(p + 28, true);
    const extraLen = v.getUint16(p + 30, true);
    const commentLen = v.getUint16(p + 32, true);
    const localAt = v.getUint32(p + 42, true);
    const next = p + CENTRAL_LEN + nameLen + extraLen + commentLen;
    if (next > end) fail('ZipTruncated', `central record ${i} runs past the directory`);
    const nameBytes = bytes.subarray(p + CENTRAL_LEN, p + CENTRAL_LEN + nameLen);
    let name: string;
    try {
      name = dec.decode(nameBytes);
    } catch {
      throw new TxHashSetError('ZipUnsafeName', `entry ${i}: name is not UTF-8`);
    }
    if (isUnsafeZipName(name)) throw new TxHashSetError('ZipUnsafeName', JSON.stringify(name));
    if (!limits.allowName(name))
      throw new TxHashSetError('ZipNameNotAllowed', JSON.stringify(name));
    if (seen.has(name)) throw new TxHashSetError('ZipDuplicateName', name);
    seen.add(name);
    if (method !== 0)
      throw new TxHashSetError('ZipCompressed', `${name}: method ${method}, only Stored (0)`);
    if ((flags & 0x41) !== 0) throw new TxHashSetError('ZipUnsupported', `${name}: encrypted`);
    if ((flags & 0x08) !== 0)
      throw new TxHashSetError('ZipUnsupported', `${name}: data descriptor`);
    if (csize === U32_MAX || usize === U32_MAX || localAt === U32_MAX)
      throw new TxHashSetError('ZipUnsupported', `${name}: zip64 sizes`);
    if (csize !== usize) fail('ZipMalformed', `${name}: stored ${csize} bytes of ${usize}`);
    const cap = limits.maxEntrySize(name);
    if (usize > cap) throw new TxHashSetError('ZipTooLarge', `${name}: ${usize} bytes, cap ${cap}`);
    total += usize;
    if (total > limits.maxTotalSize)
      throw new TxHashSetError('ZipTooLarge', `entries total over ${limits.maxTotalSize} bytes`);

    // The local record must sit inside the data area and repeat what the central one says.
    if (localAt + LOCAL_LEN > cdStart)
      throw new TxHashSetError('ZipBadOffset', `${name}: local header at ${localAt}`);
    if (v.getUint32(localAt, true) !== LOCAL_SIG)
      fail('ZipMalformed', `${name}: no local header at ${localAt}`);
    const lMethod = v.getUint16(localAt + 8, true);
    const lFlags = v.getUint16(localAt + 6, true);
    const lNameLen = v.getUint16(localAt + 26, true);
    const lExtraLen = v.getUint16(localAt + 28, true);
    const dataAt = localAt + LOCAL_LEN + lNameLen + lExtraLen;
    const dataEnd = dataAt + usize;
    if (dataEnd > cdStart)
      throw new TxHashSetError('ZipBadOffset', `${name}: data ${dataAt}+${usize} past ${cdStart}`);
    if (
      lMethod !== method ||
      lFlags !== flags ||
      v.getUint32(localAt + 14, true) !== crc ||
      v.getUint32(localAt + 18, true) !== csize ||
      v.getUint32(localAt + 22, true) !== usize ||
      !sameBytes(bytes.subarray(localAt + LOCAL_LEN, localAt + LOCAL_LEN + lNameLen), nameBytes)
    )
      fail('ZipMalformed', `${name}: local header disagrees with the central directory`);
    spans.push([localAt, dataEnd, name]);
    const data = bytes.subarray(dataAt, dataEnd);
    if (limits.checkCrc !== false && crc32(data) !== crc)
      throw new TxHashSetError('ZipBadCrc', `${name}: CRC-32 mismatch`);
    out.push({ name, data });
    p = next;
  }
  if (p !== end) fail('ZipMalformed', `${end - p} bytes after the last central record`);
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    const [start, , name] = spans[i] as [number, number, string];
    const [, prevStop, prevName] = spans[i - 1] as [number, number, string];
    if (start < prevStop) throw new TxHashSetError('ZipBadOffset', `${name} overlaps ${prevName}`);
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function lastIndexOfSig(bytes: Uint8Array, sig: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lowest = Math.max(0, bytes.length - END_LEN - 0xffff);
  for (let i = bytes.length - 4; i >= lowest; i--) if (v.getUint32(i, true) === sig) return i;
  return -1;
}
