// Socket addresses as Epic's config writes them: `a.b.c.d:port` or `[v6]:port`, IP literals only
// (Rust's `SocketAddr` parser accepts no host names, and neither do we).
import { isIPv4, isIPv6 } from 'node:net';
import type { ListenAddr } from './types.js';

const PORT_RE = /^(0|[1-9][0-9]{0,4})$/;

function parsePort(text: string): number | null {
  if (!PORT_RE.test(text)) return null;
  const port = Number(text);
  return port <= 65_535 ? port : null;
}

/** Parses `ip:port`; IPv6 hosts are returned without their brackets. Null when malformed. */
export function parseSocketAddr(text: string): ListenAddr | null {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return null;
  const port = parsePort(text.slice(colon + 1));
  const rawHost = text.slice(0, colon);
  if (port === null) return null;
  if (rawHost.startsWith('[') && rawHost.endsWith(']')) {
    const host = rawHost.slice(1, -1);
    return isIPv6(host) && !host.includes('%') ? { host, port } : null;
  }
  return isIPv4(rawHost) ? { host: rawHost, port } : null;
}

export function isIpAddress(text: string): boolean {
  return isIPv4(text) || (isIPv6(text) && !text.includes('%'));
}

export function formatSocketAddr(addr: ListenAddr): string {
  return isIPv6(addr.host) ? `[${addr.host}]:${addr.port}` : `${addr.host}:${addr.port}`;
}
