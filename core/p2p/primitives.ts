// Small payload types of P2P messages: hashes, peer addresses, locators, UTF-8 strings and
// capability bits (p2p note §2).
import { SerError } from '../ser/errors.js';
import type { Reader } from '../ser/reader.js';
import type { Writer } from '../ser/writer.js';

export const HASH_SIZE = 32;

/** IPv4 (`ip` of 4 bytes) or IPv6 (16 bytes: the eight u16 segments, big-endian). */
export interface WireAddr {
  readonly ip: Uint8Array;
  readonly port: number;
}

export const CAPABILITIES = {
  UNKNOWN: 0x00,
  HEADER_HIST: 0x01,
  TXHASHSET_HIST: 0x02,
  PEER_LIST: 0x04,
  TX_KERNEL_HASH: 0x08,
  HEADER_FASTSYNC: 0x10,
  ONIONSTEM: 0x20,
  FULL_NODE: 0x1f,
} as const;

/**
 * Epic drops undefined capability bits when it reads them. Messages keep the raw u32 so that
 * they re-encode to their bytes; whoever acts on capabilities applies this first.
 */
export function truncateCapabilities(bits: number): number {
  return bits & 0x3f;
}

export function readHash(r: Reader, what: string): Uint8Array {
  return r.fixed(HASH_SIZE, what);
}

export function writeHash(w: Writer, h: Uint8Array, what: string): void {
  if (h.length !== HASH_SIZE) {
    throw new SerError('CorruptedData', `${what}: ${h.length} bytes, expected ${HASH_SIZE}`);
  }
  w.fixed(h);
}

/** Tag 0 = IPv4, 1 = IPv6. Epic reads every other tag as IPv6; we refuse it (decisions.md). */
export function readPeerAddr(r: Reader): WireAddr {
  const tag = r.u8('peer address family');
  if (tag > 1) throw new SerError('CorruptedData', `peer address family ${tag}`);
  const ip = r.fixed(tag === 0 ? 4 : 16, 'peer ip');
  return { ip, port: r.u16('peer port') };
}

export function writePeerAddr(w: Writer, a: WireAddr): void {
  if (a.ip.length !== 4 && a.ip.length !== 16) {
    throw new SerError('CorruptedData', `peer ip of ${a.ip.length} bytes`);
  }
  w.u8(a.ip.length === 4 ? 0 : 1);
  w.fixed(a.ip);
  w.u16(a.port);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** u64 length + UTF-8 bytes; invalid UTF-8 is corrupted data, as in Epic. */
export function readString(r: Reader, what: string): string {
  const raw = r.lenPrefixed(what);
  try {
    return utf8.decode(raw);
  } catch {
    throw new SerError('CorruptedData', `${what} is not UTF-8`);
  }
}

export function writeString(w: Writer, s: string): void {
  w.lenPrefixed(utf8Encoder.encode(s));
}

/** u8 count (at most `max`) and that many hashes: GetHeaders' and GetHeadersFastSync's locator. */
export function readLocator(r: Reader, max: number): Uint8Array[] {
  const count = r.u8('locator count');
  if (count > max) throw new SerError('TooLargeReadErr', `locator of ${count} hashes, max ${max}`);
  return r.multi(BigInt(count), 'locator', (rr) => readHash(rr, 'locator hash'));
}

export function writeLocator(w: Writer, hashes: readonly Uint8Array[], max: number): void {
  if (hashes.length > max) {
    throw new SerError('TooLargeReadErr', `locator of ${hashes.length} hashes, max ${max}`);
  }
  w.u8(hashes.length);
  for (const h of hashes) writeHash(w, h, 'locator hash');
}
