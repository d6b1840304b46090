// `[server.p2p_config] capabilities` in the form Epic 4.0 reads and writes: the text of
// bitflags 2's serde support (`EpicCash/epic p2p/Cargo.toml`: bitflags 2.9 with `serde`), e.g.
// "HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC". Epic ≤ 3.x
// (bitflags 1) wrote a `[server.p2p_config.capabilities]` table with `bits = 31`; Epic 4.0
// refuses that table, and so do we. The grammar and the writer below follow bitflags 2.9.4's
// `parser::from_str` and `parser::to_writer`, so a file means the same bits to both nodes.
import { CAPABILITIES } from '../core/p2p/primitives.js';

/** Epic's `Capabilities` flags in declaration order (bitflags' `FLAGS`, composites included). */
const FLAGS: readonly (readonly [string, number])[] = [
  ['UNKNOWN', CAPABILITIES.UNKNOWN],
  ['HEADER_HIST', CAPABILITIES.HEADER_HIST],
  ['TXHASHSET_HIST', CAPABILITIES.TXHASHSET_HIST],
  ['PEER_LIST', CAPABILITIES.PEER_LIST],
  ['TX_KERNEL_HASH', CAPABILITIES.TX_KERNEL_HASH],
  ['HEADER_FASTSYNC', CAPABILITIES.HEADER_FASTSYNC],
  ['ONIONSTEM', CAPABILITIES.ONIONSTEM],
  ['FULL_NODE', CAPABILITIES.FULL_NODE],
];

export const CAPABILITY_FLAG_NAMES: readonly string[] = FLAGS.map(([name]) => name);

// Rust's `str::trim` strips Unicode White_Space; JavaScript's `trim` differs on U+0085 (Rust
// only) and U+FEFF (JavaScript only), so the set is spelled out.
const RUST_WS = '[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const RUST_TRIM = new RegExp(`^${RUST_WS}+|${RUST_WS}+$`, 'g');
const rustTrim = (text: string): string => text.replace(RUST_TRIM, '');

// `u32::from_str_radix(s, 16)`: an optional `+`, then at least one hex digit; no `-` for u32.
const HEX_U32 = /^\+?[0-9a-fA-F]+$/;
const U32_MAX = 0xffff_ffff;

export type CapabilitiesParse =
  | { readonly bits: number }
  | { readonly kind: 'empty' | 'name' | 'hex'; readonly flag: string };

/**
 * bitflags 2's `from_str`: blank text is no flags; otherwise flags separated by `|`, each
 * trimmed, each a defined name (case-sensitive, composites such as FULL_NODE allowed) or `0x`
 * and a hex u32. Hex bits are kept even when no flag names them (`from_bits_retain`).
 */
export function parseCapabilities(text: string): CapabilitiesParse {
  if (rustTrim(text) === '') return { bits: 0 };
  let bits = 0;
  for (const part of text.split('|')) {
    const flag = rustTrim(part);
    if (flag === '') return { kind: 'empty', flag };
    if (flag.startsWith('0x')) {
      const digits = flag.slice(2);
      const value = HEX_U32.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
      if (!(value <= U32_MAX)) return { kind: 'hex', flag };
      bits = (bits | value) >>> 0;
      continue;
    }
    const named = FLAGS.find(([name]) => name === flag);
    if (named === undefined) return { kind: 'name', flag };
    bits = (bits | named[1]) >>> 0;
  }
  return { bits };
}

/**
 * bitflags 2's `to_writer` (what Epic's generated file holds): the single-bit names in
 * declaration order joined by " | " (UNKNOWN and FULL_NODE never appear: they add no bit),
 * then any bits no flag names as one lower-case `0x` number; "" for none.
 */
export function formatCapabilities(bits: number): string {
  const parts: string[] = [];
  let remaining = bits >>> 0;
  for (const [name, value] of FLAGS) {
    if ((bits & value) !== value || (remaining & value) === 0) continue;
    parts.push(name);
    remaining = (remaining & ~value) >>> 0;
  }
  if (remaining !== 0) parts.push(`0x${remaining.toString(16)}`);
  return parts.join(' | ');
}
