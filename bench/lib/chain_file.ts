// A generated chain on disk, in the shape the scripted sync peers serve it from: every header's
// hash, its wire bytes (protocol version 2) back to back with their offsets, and optionally each
// block's `Block` message body. A FastHeaders reply is then a frame header, a count and one
// slice of the header bytes: no encoding while the node syncs, so the peers cost little CPU.
//
// Generating costs minutes (a Cuckatoo proof for each of 200,000 headers, or a range proof for
// each coinbase), so the files are cached under bench/cache/ (gitignored), named by a version
// string that changes whenever the generator would make a different chain.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { decode } from '../../core/ser/codec.js';
import { readHeader } from '../../core/ser/header.js';
import type { BlockHeader } from '../../core/types/block.js';

/** bench/cache of the repository (this file runs from dist/bench/lib/). */
export const CACHE_DIR =
  process.env.BENCH_SYNC_CACHE ?? fileURLToPath(new URL('../../../bench/cache/', import.meta.url));

export interface ChainFile {
  /** Height of the last header (genesis is height 0 and is included). */
  readonly tip: number;
  /** 32 bytes per height, 0…tip. */
  readonly hashes: Uint8Array;
  /** Header at height h: headers[headerAt[h] … headerAt[h + 1]). */
  readonly headerAt: Uint32Array;
  readonly headers: Uint8Array;
  /** Block message bodies, same layout (height 0 empty); null for a header-only chain. */
  readonly blockAt: Uint32Array | null;
  readonly blocks: Uint8Array | null;
}

interface Meta {
  readonly tip: number;
  readonly headersLength: number;
  readonly blocksLength: number | null;
}

export function cachePath(name: string): string {
  return join(CACHE_DIR, name);
}

function packed(parts: readonly Uint8Array[]): { at: Uint32Array; bytes: Uint8Array } {
  const at = new Uint32Array(parts.length + 1);
  let total = 0;
  for (const [i, p] of parts.entries()) {
    at[i] = total;
    total += p.length;
  }
  at[parts.length] = total;
  const bytes = new Uint8Array(total);
  for (const [i, p] of parts.entries()) bytes.set(p, at[i] as number);
  return { at, bytes };
}

/**
 * Writes a chain: `hashes` and `headers` by height from genesis, `blocks` likewise (genesis'
 * entry empty) or null. Written to a temporary name and renamed: a run killed while writing
 * leaves no half file behind a valid name.
 */
export function writeChainFile(
  file: string,
  hashes: readonly Uint8Array[],
  headers: readonly Uint8Array[],
  blocks: readonly Uint8Array[] | null,
): void {
  const h = packed(headers);
  const b = blocks === null ? null : packed(blocks);
  const meta: Meta = {
    tip: headers.length - 1,
    headersLength: h.bytes.length,
    blocksLength: b === null ? null : b.bytes.length,
  };
  const metaBytes = Buffer.from(JSON.stringify(meta));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(metaBytes.length);
  const u32 = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const sections = [len, metaBytes, Buffer.concat(hashes), u32(h.at), h.bytes];
  if (b !== null) sections.push(u32(b.at), b.bytes);
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(`${file}.tmp`, Buffer.concat(sections));
  renameSync(`${file}.tmp`, file);
}

export function chainFileExists(file: string): boolean {
  return existsSync(file);
}

/** The lengths of the cached `<prefix><length>.bin` files, shortest first. */
export function cachedLengths(prefix: string): number[] {
  if (!existsSync(CACHE_DIR)) return [];
  return readdirSync(CACHE_DIR)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.bin'))
    .map((f) => Number(f.slice(prefix.length, -'.bin'.length)))
    .filter((n) => Number.isSafeInteger(n))
    .sort((a, b) => a - b);
}

/** Records what generating `file` cost, beside it (a cached run still reports it). */
export function writeCost(file: string, cost: object): void {
  writeFileSync(`${file}.cost.json`, `${JSON.stringify(cost)}\n`);
}

export function readCost<T>(file: string): T | null {
  const f = `${file}.cost.json`;
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : null;
}

/** Reads a chain file written by writeChainFile (sections are copied out, so they are aligned). */
export function readChainFile(file: string): ChainFile {
  const all = readFileSync(file);
  let at = 0;
  const take = (n: number): Uint8Array => {
    const part = new Uint8Array(n);
    part.set(all.subarray(at, at + n));
    at += n;
    return part;
  };
  const metaLength = all.readUInt32BE(0);
  at = 4;
  const meta = JSON.parse(Buffer.from(take(metaLength)).toString('utf8')) as Meta;
  const offsets = () => new Uint32Array(take(4 * (meta.tip + 2)).buffer);
  const hashes = take(32 * (meta.tip + 1));
  const headerAt = offsets();
  const headers = take(meta.headersLength);
  const blockAt = meta.blocksLength === null ? null : offsets();
  const blocks = meta.blocksLength === null ? null : take(meta.blocksLength);
  return { tip: meta.tip, hashes, headerAt, headers, blockAt, blocks };
}

export function hashAt(chain: ChainFile, height: number): Uint8Array {
  return chain.hashes.subarray(32 * height, 32 * height + 32);
}

export function headerBytes(chain: ChainFile, from: number, to: number): Uint8Array {
  return chain.headers.subarray(chain.headerAt[from] as number, chain.headerAt[to + 1] as number);
}

export function headerOf(chain: ChainFile, height: number): BlockHeader {
  const bytes = headerBytes(chain, height, height);
  return decode(readHeader, bytes, 2, CHAIN_PARAMS.automated, `header ${height}`);
}
