// JSON output identical to serde_json's `to_string` / `to_string_pretty` for the values Epic's
// API produces: strings, bools, null, integers (bigint for u64) and nested arrays/objects.
// Floats never occur in Epic's API types; non-integral numbers are printed as JavaScript prints
// them, which can differ from serde_json's ryu output (e.g. "1e+300" vs "1e300", "1" vs "1.0").
import { isSealed, printedText, rememberText } from './sealed.js';
import type { JsonValue } from './value.js';

export interface StringifyOptions {
  /** serde_json::to_string_pretty layout: 2-space indent, `": "`, empty containers as [] / {}. */
  pretty?: boolean;
  /** Sort keys at every depth in UTF-8 byte order, like serde_json's default BTreeMap. */
  sortKeys?: boolean;
}

/** How serde_json prints a `Value` with `to_string_pretty`: Epic's JSON-RPC replies. */
export const SERDE_VALUE_PRETTY: StringifyOptions = Object.freeze({ pretty: true, sortKeys: true });

/**
 * `value` as SERDE_VALUE_PRETTY prints it inside a container whose elements' lines start with
 * `indent`: every line after the first moves right by it (only layout puts newlines in the text:
 * strings escape theirs). Replies assembled from such pieces match the whole printed at once.
 */
export function indentedJson(value: JsonValue, indent: string): string {
  return stringifyJson(value, SERDE_VALUE_PRETTY).replaceAll('\n', `\n${indent}`);
}

export function stringifyJson(value: unknown, options?: StringifyOptions): string {
  const writer = new Writer(options?.pretty === true, options?.sortKeys === true);
  try {
    if (value === undefined) throw new PathError('undefined is not a JSON value');
    writer.write(value, 0);
  } catch (e) {
    if (e instanceof PathError) {
      throw new TypeError(`stringifyJson: ${e.reason} at ${formatPath(e.path.reverse())}`);
    }
    throw e;
  }
  return writer.out;
}

/**
 * Compares strings by the UTF-8 byte order of their contents (equivalently code point order),
 * which is how Rust orders `String`s. It differs from JavaScript's default code-unit order only
 * between surrogates (astral characters) and U+E000..U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // Move surrogates above U+E000..U+FFFF, keeping the order within each group.
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

// Thrown inside the writer; each enclosing container appends its key on the way out, so the
// success path never builds paths.
class PathError {
  readonly reason: string;
  readonly path: (string | number)[] = [];
  constructor(reason: string) {
    this.reason = reason;
  }
}

function formatPath(path: (string | number)[]): string {
  let s = '$';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) s += `.${p}`;
    else s += `[${quote(p)}]`;
  }
  return s;
}

function describe(v: unknown): string {
  if (typeof v !== 'object' || v === null) return typeof v;
  const ctor = (v as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'object';
}

/** The punctuation around the elements of a container, with the newlines and indentation. */
interface Layout {
  openArray: string;
  openObject: string;
  separator: string;
  closeArray: string;
  closeObject: string;
  colon: ':' | ': ';
}

const COMPACT: Layout = {
  openArray: '[',
  openObject: '{',
  separator: ',',
  closeArray: ']',
  closeObject: '}',
  colon: ':',
};

function prettyLayout(depth: number): Layout {
  const outer = `\n${'  '.repeat(depth)}`;
  const inner = `${outer}  `;
  return {
    openArray: `[${inner}`,
    openObject: `{${inner}`,
    separator: `,${inner}`,
    closeArray: `${outer}]`,
    closeObject: `${outer}}`,
    colon: ': ',
  };
}

/** Pretty layouts by depth, shared by every writer (small documents are printed constantly). */
const PRETTY_LAYOUTS: Layout[] = [];

function layoutAt(depth: number): Layout {
  let l = PRETTY_LAYOUTS[depth];
  if (l === undefined) {
    l = prettyLayout(depth);
    PRETTY_LAYOUTS[depth] = l;
  }
  return l;
}

/** Quoted key plus colon, per colon style; field names repeat across documents and elements. */
const KEY_TEXT = { ':': new Map<string, string>(), ': ': new Map<string, string>() };
// Bounded so that maps keyed by data (hashes, ids) cannot grow it without limit.
const KEY_TEXT_LIMIT = 4096;

function keyText(key: string, colon: ':' | ': '): string {
  const cache = KEY_TEXT[colon];
  let text = cache.get(key);
  if (text === undefined) {
    text = quote(key) + colon;
    if (cache.size < KEY_TEXT_LIMIT) cache.set(key, text);
  }
  return text;
}

// Output is built by appending to one string. Every piece appended is either a cached constant
// (layouts, quoted keys) or a leaf, because each extra temporary string is garbage that the
// collector must copy while the (large, long-lived) result is being built.
class Writer {
  out = '';
  private readonly pretty: boolean;
  private readonly sortKeys: boolean;
  /** Containers being written, outermost first, to detect cycles. */
  private readonly ancestors: object[] = [];

  constructor(pretty: boolean, sortKeys: boolean) {
    this.pretty = pretty;
    this.sortKeys = sortKeys;
  }

  write(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string':
        this.out += quote(v);
        return;
      case 'number':
        this.out += formatNumber(v);
        return;
      case 'bigint':
        this.out += v.toString();
        return;
      case 'boolean':
        this.out += v ? 'true' : 'false';
        return;
      case 'object':
        if (v === null) {
          this.out += 'null';
          return;
        }
        if (isSealed(v)) {
          this.writeSealed(v, depth);
          return;
        }
        this.writeContainer(v, depth);
        return;
      default:
        throw new PathError(`unsupported ${typeof v}`);
    }
  }

  /** A sealed container prints the same text every time at the same depth and options. */
  private writeSealed(v: object, depth: number): void {
    const layout = `${this.pretty ? depth : -1}${this.sortKeys ? 's' : 'u'}`;
    const known = printedText(v, layout);
    if (known !== undefined) {
      this.out += known;
      return;
    }
    const start = this.out.length;
    this.writeContainer(v, depth);
    rememberText(v, layout, this.out.slice(start));
  }

  private writeContainer(v: object, depth: number): void {
    if (this.ancestors.includes(v)) throw new PathError('cyclic structure');
    if (Array.isArray(v)) {
      this.writeArray(v, depth);
      return;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      this.writeObject(v as Record<string, unknown>, depth);
      return;
    }
    throw new PathError(`unsupported ${describe(v)} (convert bytes to hex or arrays first)`);
  }

  private layout(depth: number): Layout {
    return this.pretty ? layoutAt(depth) : COMPACT;
  }

  private writeArray(v: unknown[], depth: number): void {
    const len = v.length;
    if (len === 0) {
      this.out += '[]';
      return;
    }
    const layout = this.layout(depth);
    this.ancestors.push(v);
    let i = 0;
    try {
      for (; i < len; i++) {
        this.out += i === 0 ? layout.openArray : layout.separator;
        const e = v[i];
        if (e === undefined) this.out += 'null';
        else this.write(e, depth + 1);
      }
    } catch (e) {
      if (e instanceof PathError) e.path.push(i);
      throw e;
    }
    this.out += layout.closeArray;
    this.ancestors.pop();
  }

  private writeObject(v: Record<string, unknown>, depth: number): void {
    const keys = Object.keys(v);
    if (this.sortKeys) sortUtf8(keys);
    const layout = this.layout(depth);
    this.ancestors.push(v);
    let first = true;
    let key = '';
    try {
      for (key of keys) {
        const e = v[key];
        if (e === undefined) continue;
        this.out += first ? layout.openObject : layout.separator;
        first = false;
        this.out += keyText(key, layout.colon);
        this.write(e, depth + 1);
      }
    } catch (e) {
      if (e instanceof PathError) e.path.push(key);
      throw e;
    }
    this.out += first ? '{}' : layout.closeObject;
    this.ancestors.pop();
  }
}

// Insertion sort: most objects are small, and Array#sort with a comparator costs more to set up.
function sortUtf8(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort(compareUtf8);
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && compareUtf8(keys[j] as string, key) > 0) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

function formatNumber(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  // serde_json's Value turns non-finite floats into null as well.
  if (!Number.isFinite(n)) return 'null';
  // Whole numbers past 2^53 print all their digits ("1e+21" is what String() would give).
  if (Number.isInteger(n)) return BigInt(n).toString();
  return String(n);
}

// Anything serde_json escapes, plus surrogates so lone ones can be found (pairs pass unchanged).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters must be escaped.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const HEX = '0123456789abcdef';

/** A JSON string literal escaped exactly as serde_json escapes. */
export function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  const len = s.length;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    let esc: string;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c < 0x20) esc = controlEscape(c);
    else if (c < 0xd800 || c > 0xdfff) continue;
    else if (c <= 0xdbff && i + 1 < len && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i++;
      continue;
    } else {
      // A lone surrogate cannot exist in a Rust String; escaping it (as JSON.stringify does)
      // keeps the output valid UTF-8 and lets parseJson report it instead of corrupting it.
      esc = `\\u${HEX[c >> 12]}${HEX[(c >> 8) & 15]}${HEX[(c >> 4) & 15]}${HEX[c & 15]}`;
    }
    out += s.slice(start, i) + esc;
    start = i + 1;
  }
  return `${out + s.slice(start)}"`;
}

function controlEscape(c: number): string {
  switch (c) {
    case 0x08:
      return '\\b';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    default:
      return `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
  }
}
