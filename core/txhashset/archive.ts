// A whole txhashset archive: Epic's entry list (`chain/src/txhashset/txhashset.rs` `file_list`)
// and the three MMRs it carries, both ways between zip bytes and plain MMR descriptions.
//
// Epic builds the zip by copying its live `txhashset` directory (files at the server's tip, not
// at the archive header) and adding only the listed files that exist, in list order. Only the
// leaf sets are at the archive header: `pmmr_leaf.bin.<12 hex>` snapshots rewound to it. The
// receiver rewinds the MMRs to the header's sizes itself (`validateArchiveMmrs`).
import { toHex } from '../bytes.js';
import { headerHash } from '../ser/header.js';
import type { WireParams } from '../ser/params.js';
import type { BlockHeader } from '../types/block.js';
import { TxHashSetError } from './errors.js';
import {
  type DecodeMmrOptions,
  decodeMmrFiles,
  encodeMmrFiles,
  type MmrFileBytes,
  type MmrKind,
} from './mmr_files.js';
import type { ArchiveMmrs } from './validate.js';
import { readZip, writeZip, type ZipEntry } from './zip.js';

/** Epic prints a hash as its first 12 hex digits; leaf snapshots are named with that. */
export function shortHash(hash: Uint8Array): string {
  return toHex(hash.subarray(0, 6));
}

/** Every name an archive for this header may contain, in Epic's order. */
export function archiveFileList(headerHashBytes: Uint8Array): string[] {
  const h = shortHash(headerHashBytes);
  return [
    'kernel/pmmr_data.bin',
    'kernel/pmmr_hash.bin',
    'output/pmmr_data.bin',
    'output/pmmr_hash.bin',
    'output/pmmr_prun.bin',
    'rangeproof/pmmr_data.bin',
    'rangeproof/pmmr_hash.bin',
    'rangeproof/pmmr_prun.bin',
    `output/pmmr_leaf.bin.${h}`,
    `rangeproof/pmmr_leaf.bin.${h}`,
  ];
}

/** File name of the archive as Epic keeps it in its data directory. */
export function archiveFileName(headerHashBytes: Uint8Array): string {
  return `txhashset_snapshot_${shortHash(headerHashBytes)}.zip`;
}

function entryName(kind: MmrKind, file: keyof MmrFileBytes, h: string): string {
  switch (file) {
    case 'hash':
      return `${kind}/pmmr_hash.bin`;
    case 'data':
      return `${kind}/pmmr_data.bin`;
    case 'prune':
      return `${kind}/pmmr_prun.bin`;
    case 'leaf':
      return `${kind}/pmmr_leaf.bin.${h}`;
  }
}

/**
 * The archive's entries for `mmrs` at `header`, in Epic's order; files an MMR does not have
 * (prune lists when never compacted, kernel leaf sets) are left out, as Epic skips missing files.
 */
export function archiveEntries(
  mmrs: ArchiveMmrs,
  header: BlockHeader,
  params: WireParams,
): ZipEntry[] {
  const list = archiveFileList(headerHash(header, params));
  const h = shortHash(headerHash(header, params));
  const byName = new Map<string, Uint8Array>();
  for (const kind of ['output', 'rangeproof', 'kernel'] as const) {
    const files = encodeMmrFiles(mmrs[kind]);
    for (const file of ['hash', 'data', 'leaf', 'prune'] as const) {
      const bytes = files[file];
      if (bytes !== null) byName.set(entryName(kind, file, h), bytes);
    }
  }
  const out: ZipEntry[] = [];
  for (const name of list) {
    const data = byName.get(name);
    if (data !== undefined) out.push({ name, data });
    byName.delete(name);
  }
  if (byName.size > 0)
    throw new TxHashSetError('ZipNameNotAllowed', `not in Epic's list: ${[...byName.keys()]}`);
  return out;
}

/** The archive Epic would serve for these MMRs at `header` (same entries, same bytes). */
export function writeArchive(
  mmrs: ArchiveMmrs,
  header: BlockHeader,
  params: WireParams,
): Uint8Array {
  return writeZip(archiveEntries(mmrs, header, params));
}

export interface ArchiveLimits {
  /** Largest hash or data file (default 2^32 − 1: what a non-zip64 archive can hold). */
  readonly maxFileSize?: number;
  /** Largest leaf or prune file (default 2^29: a roaring bitmap of every u32 is 512 MiB). */
  readonly maxBitmapSize?: number;
  /** Largest sum of entry sizes (default: the archive's own length). */
  readonly maxTotalSize?: number;
  /** Passed to `decodeMmrFiles` for the kernel MMR. */
  readonly kernelVersion?: DecodeMmrOptions['kernelVersion'];
}

/**
 * The zip's entries, bounded: at most Epic's ten names (for this header), each capped, Stored,
 * CRCs checked. Returned by name.
 */
export function readArchiveEntries(
  zip: Uint8Array,
  headerHashBytes: Uint8Array,
  limits: ArchiveLimits = {},
): Map<string, Uint8Array> {
  const list = archiveFileList(headerHashBytes);
  const allowed = new Set(list);
  const maxFile = limits.maxFileSize ?? 0xffff_ffff;
  const maxBitmap = limits.maxBitmapSize ?? 2 ** 29;
  const entries = readZip(zip, {
    maxEntries: list.length,
    allowName: (name) => allowed.has(name),
    maxEntrySize: (name) => (/pmmr_(leaf|prun)/.test(name) ? maxBitmap : maxFile),
    maxTotalSize: limits.maxTotalSize ?? zip.length,
  });
  return new Map(entries.map((e) => [e.name, e.data]));
}

/**
 * The three MMRs of an archive for `header` (the header Epic named in TxHashSetArchive), as
 * stored: sizes follow the files, which run past the header to the server's tip. Hash, data
 * and leaf files are required for output and range proofs, hash and data for kernels; each MMR
 * must reach the header's size. Pass the result to `validateArchiveMmrs`.
 */
export function readArchive(
  zip: Uint8Array,
  header: BlockHeader,
  params: WireParams,
  limits: ArchiveLimits = {},
): ArchiveMmrs {
  const hh = headerHash(header, params);
  const entries = readArchiveEntries(zip, hh, limits);
  const h = shortHash(hh);
  const files = (kind: MmrKind): MmrFileBytes => {
    const get = (file: keyof MmrFileBytes, required: boolean): Uint8Array | null => {
      const bytes = entries.get(entryName(kind, file, h)) ?? null;
      if (bytes === null && required)
        throw new TxHashSetError('MissingEntry', entryName(kind, file, h));
      return bytes;
    };
    const prunable = kind !== 'kernel';
    return {
      hash: get('hash', true) as Uint8Array,
      data: get('data', true) as Uint8Array,
      leaf: prunable ? get('leaf', true) : null,
      prune: prunable ? get('prune', false) : null,
    };
  };
  const decode = (kind: MmrKind, need: bigint) => {
    const f = files(kind);
    // Decoding costs time in proportion to the bytes, not to the size a prune list may claim;
    // the per-position checks run after truncation to the header's size.
    const mmr = decodeMmrFiles(kind, f, params, { kernelVersion: limits.kernelVersion ?? 2 });
    if (BigInt(mmr.size) < need)
      throw new TxHashSetError(
        'SizeMismatch',
        `${kind}: ${mmr.size} positions, header needs ${need}`,
      );
    return mmr;
  };
  return {
    output: decode('output', header.outputMmrSize),
    rangeproof: decode('rangeproof', header.outputMmrSize),
    kernel: decode('kernel', header.kernelMmrSize),
  };
}
