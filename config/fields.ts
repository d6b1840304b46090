// Typed, validated reads from one parsed TOML table. Every getter names the full key in its
// error, takes the default for a missing key, and leaves keys it is not asked about alone, so
// unknown keys are ignored as Epic's serde structs ignore them; each reader remembers what it
// was asked, so that what nobody asked for can be reported (key_audit.ts).
import { isAbsolute, resolve } from 'node:path';
import type { TomlTable, TomlValue } from 'smol-toml';
import { isIpAddress, parseSocketAddr } from './addr.js';
import { ConfigError } from './errors.js';
import type { ListenAddr } from './types.js';

const U64_MAX = (1n << 64n) - 1n;
const QUOTE_LIMIT = 80;

function describe(value: TomlValue): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'bigint') return 'an integer';
  if (typeof value === 'number') return 'a float';
  if (typeof value === 'boolean') return 'a boolean';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return typeof value === 'object' ? 'a table' : typeof value;
}

/** A config value quoted for an error message, cut short so a huge value cannot flood logs. */
export function quoteValue(text: string): string {
  const cut = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return JSON.stringify(cut);
}

function isTable(value: TomlValue): value is TomlTable {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

export class TableReader {
  readonly file: string;
  /** Dotted path of this table, e.g. `server.p2p_config`. */
  readonly prefix: string;
  /** Relative paths in the file are resolved against this directory. */
  readonly baseDir: string;
  private readonly values: TomlTable;
  /** Keys asked for, present or not: the keys the code reading this table knows. */
  readonly asked = new Set<string>();
  /** Readers of the sub-tables asked for. */
  readonly children: TableReader[] = [];

  constructor(file: string, prefix: string, values: TomlTable, baseDir: string) {
    this.file = file;
    this.prefix = prefix;
    this.values = values;
    this.baseDir = baseDir;
  }

  fail(key: string, problem: string): never {
    throw new ConfigError(this.file, this.keyPath(key), problem);
  }

  private keyPath(key: string): string {
    return this.prefix === '' ? key : `${this.prefix}.${key}`;
  }

  /** Keys present in this table that nothing asked for. */
  unasked(): string[] {
    return Object.keys(this.values).filter((k) => !this.asked.has(k));
  }

  private get(key: string): TomlValue | undefined {
    this.asked.add(key);
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }

  private typed<T>(
    key: string,
    what: string,
    ok: (v: TomlValue) => v is T & TomlValue,
  ): T | undefined {
    const value = this.get(key);
    if (value === undefined || ok(value)) return value;
    return this.fail(key, `expected ${what}, got ${describe(value)}`);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** What the key holds, as the errors name it ("a string", "a table", …); null when absent. */
  kindOf(key: string): string | null {
    const value = this.get(key);
    return value === undefined ? null : describe(value);
  }

  /** A sub-table; a missing one reads as empty, so all its keys take their defaults. */
  table(key: string): TableReader {
    const value = this.typed(key, 'a table', isTable) ?? {};
    const child = new TableReader(this.file, this.keyPath(key), value, this.baseDir);
    this.children.push(child);
    return child;
  }

  optionalString(key: string): string | null {
    return this.typed(key, 'a string', (v): v is string => typeof v === 'string') ?? null;
  }

  boolean(key: string, fallback: boolean): boolean {
    return this.typed(key, 'a boolean', (v): v is boolean => typeof v === 'boolean') ?? fallback;
  }

  /** An integer in [min, max]; a bigint so u64 values stay exact. */
  bigint(key: string, fallback: bigint, min = 0n, max = U64_MAX): bigint {
    const value = this.typed(key, 'an integer', (v): v is bigint => typeof v === 'bigint');
    if (value === undefined) return fallback;
    if (value < min || value > max) {
      this.fail(key, `expected an integer from ${min} to ${max}, got ${value}`);
    }
    return value;
  }

  /** An integer in [min, max] that fits a JS number (max must be ≤ 2^53 - 1). */
  integer(key: string, fallback: number, min: number, max: number): number {
    return Number(this.bigint(key, BigInt(fallback), BigInt(min), BigInt(max)));
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.optionalString(key);
    if (value === null) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(key, `unknown value ${quoteValue(value)} (expected ${listWords(allowed)})`);
  }

  /** A path; relative ones are taken from the config file's directory. Null when absent. */
  optionalPath(key: string): string | null {
    const value = this.optionalString(key);
    if (value === null) return null;
    if (value === '') this.fail(key, 'the path is empty');
    if (value.includes('\0')) this.fail(key, 'the path contains a NUL character');
    return isAbsolute(value) ? value : resolve(this.baseDir, value);
  }

  path(key: string, fallback: string): string {
    return this.optionalPath(key) ?? fallback;
  }

  socketAddr(key: string, fallback: ListenAddr): ListenAddr {
    const value = this.optionalString(key);
    return value === null ? fallback : this.parseAddr(key, value);
  }

  ipAddress(key: string, fallback: string): string {
    const value = this.optionalString(key);
    if (value === null) return fallback;
    if (!isIpAddress(value)) this.fail(key, `expected an IP address, got ${quoteValue(value)}`);
    return value;
  }

  /** A list of `ip:port` strings; null when the key is absent. */
  optionalAddrList(key: string): ListenAddr[] | null {
    return this.stringList(key, (item, itemKey) => this.parseAddr(itemKey, item));
  }

  /** An array of strings, each passed through `check` (its own key, e.g. `k[2]`, for errors). */
  stringList<T>(key: string, check: (item: string, itemKey: string) => T): T[] | null {
    const value = this.typed(key, 'an array', (v): v is TomlValue[] => Array.isArray(v));
    if (value === undefined) return null;
    return value.map((item, i) => {
      if (typeof item !== 'string') {
        this.fail(`${key}[${i}]`, `expected a string, got ${describe(item)}`);
      }
      return check(item, `${key}[${i}]`);
    });
  }

  addrList(key: string): ListenAddr[] {
    return this.optionalAddrList(key) ?? [];
  }

  /** An absolute http(s) URL. */
  httpUrl(key: string, fallback: string): string {
    const value = this.optionalString(key);
    if (value === null) return fallback;
    const ok = URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
    if (!ok) this.fail(key, `expected an http:// or https:// URL, got ${quoteValue(value)}`);
    return value;
  }

  private parseAddr(key: string, value: string): ListenAddr {
    const addr = parseSocketAddr(value);
    if (addr === null) {
      this.fail(
        key,
        `expected an "ip:port" address such as "127.0.0.1:3413", got ${quoteValue(value)}`,
      );
    }
    return addr;
  }
}

export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
