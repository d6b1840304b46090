// Peer addresses as Epic's `PeerAddr` sees them (p2p reference §2.2): a socket address parsed
// the way Rust's `SocketAddr`/`IpAddr` parsers read text, printed the way Rust prints it, and
// keyed by IP alone unless the IP is loopback (then IP and port: local test networks).
import { isIPv6 } from 'node:net';
import type { WireAddr } from '../../core/p2p/primitives.js';

/** A parsed socket address; `ip` is already in Rust's display form (lower-case, compressed). */
export interface PeerAddr {
  readonly ip: string;
  readonly port: number;
}

const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const DIGITS = /^[0-9]+$/;

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    // Rust refuses leading zeros (they would read as octal elsewhere).
    if (!DECIMAL_OCTET.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

/** Eight 16-bit segments of an IPv6 literal (zone ids are not accepted). */
function parseIpv6(text: string): number[] | null {
  if (text.includes('%') || !isIPv6(text)) return null;
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const v4 = parseIpv4(body.slice(lastColon + 1));
  if (v4 !== null) {
    tail.push(
      ((v4[0] as number) << 8) | (v4[1] as number),
      ((v4[2] as number) << 8) | (v4[3] as number),
    );
    body = `${body.slice(0, lastColon + 1)}0`;
  }
  const halves = body.split('::');
  const toSegs = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const head = toSegs(halves[0] as string);
  const rest = halves.length === 2 ? toSegs(halves[1] as string) : [];
  if (v4 !== null) (halves.length === 2 ? rest : head).pop();
  const fill = 8 - head.length - rest.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
}

/** Rust's `Ipv6Addr` display: IPv4-mapped as `::ffff:a.b.c.d`, else the longest zero run as `::`. */
function formatIpv6(segs: readonly number[]): string {
  const isMapped = segs.slice(0, 5).every((s) => s === 0) && segs[5] === 0xffff;
  if (isMapped) {
    const a = segs[6] as number;
    const b = segs[7] as number;
    return `::ffff:${a >> 8}.${a & 0xff}.${b >> 8}.${b & 0xff}`;
  }
  let best = { start: 0, len: 0 };
  for (let i = 0; i < 8; ) {
    if (segs[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && segs[j] === 0) j++;
    if (j - i > best.len) best = { start: i, len: j - i };
    i = j;
  }
  const hex = (from: number, to: number) =>
    segs
      .slice(from, to)
      .map((s) => s.toString(16))
      .join(':');
  // A single zero segment is written out, as RFC 5952 asks.
  if (best.len < 2) return hex(0, 8);
  return `${hex(0, best.start)}::${hex(best.start + best.len, 8)}`;
}

/** An IP literal (`1.2.3.4`, `::1`) in Rust's display form, or null. */
export function parseIp(text: string): string | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return v4.join('.');
  const v6 = parseIpv6(text);
  return v6 === null ? null : formatIpv6(v6);
}

function parsePort(text: string): number | null {
  // Rust reads the port as a u16 with any number of leading zeros.
  if (!DIGITS.test(text)) return null;
  const n = Number(text);
  return n <= 65_535 ? n : null;
}

/** `a.b.c.d:port` or `[v6]:port` as Rust's `SocketAddr::from_str` accepts it; null otherwise. */
export function parseSocketAddr(text: string): PeerAddr | null {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return null;
  const port = parsePort(text.slice(colon + 1));
  if (port === null) return null;
  const host = text.slice(0, colon);
  if (host.startsWith('[') && host.endsWith(']')) {
    const v6 = parseIpv6(host.slice(1, -1));
    return v6 === null ? null : { ip: formatIpv6(v6), port };
  }
  const v4 = parseIpv4(host);
  return v4 === null ? null : { ip: v4.join('.'), port };
}

export function isV6(addr: PeerAddr): boolean {
  return addr.ip.includes(':');
}

export function isLoopback(addr: PeerAddr): boolean {
  return isV6(addr) ? addr.ip === '::1' : addr.ip.startsWith('127.');
}

/** Rust's `SocketAddr` display. */
export function formatPeerAddr(addr: PeerAddr): string {
  return isV6(addr) ? `[${addr.ip}]:${addr.port}` : `${addr.ip}:${addr.port}`;
}

/** The store key: the IP, plus the port for loopback addresses (Epic's `PeerAddr::as_key`). */
export function peerKey(addr: PeerAddr): string {
  return isLoopback(addr) ? `${addr.ip}:${addr.port}` : addr.ip;
}

/** Epic's `PeerAddr::from_ip`: a bare IP gets 13414 on floonet, 3414 on every other chain. */
export function fromIp(ip: string, floonet: boolean): PeerAddr {
  return { ip, port: floonet ? 13_414 : 3414 };
}

/** A wire address (4 or 16 IP bytes) as a PeerAddr in display form. */
export function fromWire(w: WireAddr): PeerAddr {
  if (w.ip.length === 4) return { ip: [...w.ip].join('.'), port: w.port };
  const segs: number[] = [];
  for (let i = 0; i < 16; i += 2) segs.push(((w.ip[i] as number) << 8) | (w.ip[i + 1] as number));
  return { ip: formatIpv6(segs), port: w.port };
}

/** The wire form of a PeerAddr (IPv4 as 4 bytes, IPv6 as 16). */
export function toWire(a: PeerAddr): WireAddr {
  if (!isV6(a)) return { ip: Uint8Array.from(a.ip.split('.').map(Number)), port: a.port };
  const segs = parseIpv6(a.ip) ?? [];
  const ip = new Uint8Array(16);
  segs.forEach((s, i) => {
    ip[2 * i] = s >> 8;
    ip[2 * i + 1] = s & 0xff;
  });
  return { ip, port: a.port };
}

/**
 * Epic's test before handing an address out (`find_peer_addrs`): not loopback, not unspecified,
 * not IPv4 10/8, 172.16/12 or 192.168/16, not IPv6 unique-local (fc00::/7).
 */
export function isPublic(a: PeerAddr): boolean {
  if (isLoopback(a)) return false;
  if (isV6(a)) {
    const first = (parseIpv6(a.ip) ?? [0])[0] as number;
    return a.ip !== '::' && (first & 0xfe00) !== 0xfc00;
  }
  const [o0, o1] = a.ip.split('.').map(Number) as [number, number];
  if (a.ip === '0.0.0.0' || o0 === 10) return false;
  return !(o0 === 172 && o1 >= 16 && o1 <= 31) && !(o0 === 192 && o1 === 168);
}
