// Strict JSON parsing with serde_json's acceptance rules and error messages, except that integers
// beyond 2^53 - 1 become bigints instead of losing precision. The parser is iterative (an explicit
// stack of open containers), so hostile nesting can only ever produce a JsonError.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  CR,
  DOT,
  LF,
  LOWER_E,
  LOWER_F,
  LOWER_N,
  LOWER_T,
  LOWER_U,
  MINUS,
  NINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  PLUS,
  QUOTE,
  SLASH,
  SPACE,
  TAB,
  UPPER_E,
  ZERO,
} from './chars.js';
import type { JsonArray, JsonObject, JsonValue } from './value.js';

export type JsonErrorKind = 'TooLarge' | 'TooDeep' | 'Syntax';

export class JsonError extends Error {
  readonly kind: JsonErrorKind;
  /** UTF-16 offset into the input where the problem was detected. */
  readonly position: number;
  /** 1-based line and the column in UTF-8 bytes, as serde_json reports them; 0 when unknown. */
  readonly line: number;
  readonly column: number;

  constructor(kind: JsonErrorKind, message: string, position: number, line = 0, column = 0) {
    super(message);
    this.name = 'JsonError';
    this.kind = kind;
    this.position = position;
    this.line = line;
    this.column = column;
  }
}

export interface ParseLimits {
  /** Longest accepted text, in UTF-16 code units. */
  maxLength?: number;
  /** Deepest accepted nesting of arrays and objects. */
  maxDepth?: number;
}

export const DEFAULT_MAX_LENGTH = 16 * 1024 * 1024;
// serde_json's limit is also 128, but it counts so that 127 levels is the most it accepts.
export const DEFAULT_MAX_DEPTH = 128;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

// There is deliberately no JSON.parse fast path. Skipping it needs a string-aware prescan
// (nesting depth, 16+ digit integers, exponents, surrogate escapes) that costs about as much as
// JSON.parse itself; measured on 1 MB, prescan + JSON.parse was no faster than this parser on
// block-shaped (hex-heavy) JSON and ~10% faster on number-heavy JSON. Epic's blocks and headers
// carry u64 nonces, which would send them down this path anyway.
export function parseJson(text: string, limits?: ParseLimits): JsonValue {
  if (typeof text !== 'string') throw new JsonError('Syntax', 'input is not a string', 0);
  const maxLength = limits?.maxLength ?? DEFAULT_MAX_LENGTH;
  if (text.length > maxLength) {
    throw new JsonError(
      'TooLarge',
      `JSON text of ${text.length} characters exceeds the limit of ${maxLength}`,
      maxLength,
    );
  }
  return new Parser(text, limits?.maxDepth ?? DEFAULT_MAX_DEPTH).parseDocument();
}

// Irregexp skips a long hex string several times faster than a charCodeAt loop does.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters end the run.
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;

/** Index of the first quote, backslash or control character at or after `from`. */
function skipStringRun(text: string, from: number): number {
  // Keys and short values are cheaper to step through than a regex call.
  const end = Math.min(from + 16, text.length);
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === BACKSLASH || c < SPACE) return i;
  }
  if (end === text.length) return end;
  STRING_RUN.lastIndex = end;
  STRING_RUN.test(text);
  return STRING_RUN.lastIndex;
}

class Parser {
  private readonly s: string;
  private readonly len: number;
  private readonly maxDepth: number;
  private i = 0;

  constructor(text: string, maxDepth: number) {
    this.s = text;
    this.len = text.length;
    this.maxDepth = maxDepth;
  }

  parseDocument(): JsonValue {
    // Containers still open, innermost last; `keys` holds the pending key of each open object.
    const stack: (JsonArray | JsonObject)[] = [];
    const keys: string[] = [];
    let value: JsonValue;
    for (;;) {
      let c = this.skipWhitespace();
      if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        if (stack.length >= this.maxDepth) {
          throw this.error('recursion limit exceeded', this.i, true, 'TooDeep');
        }
        this.i++;
        const d = this.skipWhitespace();
        if (c === OPEN_BRACKET) {
          if (d === CLOSE_BRACKET) {
            this.i++;
            value = [];
          } else if (d < 0) {
            throw this.error('EOF while parsing a list', this.i, true);
          } else {
            stack.push([]);
            continue;
          }
        } else if (d === CLOSE_BRACE) {
          this.i++;
          value = {};
        } else if (d === QUOTE) {
          this.i++;
          keys.push(this.parseString());
          this.expectColon();
          stack.push({});
          continue;
        } else if (d < 0) {
          throw this.error('EOF while parsing an object', this.i, true);
        } else {
          throw this.error('key must be a string', this.i, true);
        }
      } else {
        value = this.parseScalar(c);
      }

      // Attach the finished value to its parent, closing every container that ends here.
      let more = false;
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as JsonArray | JsonObject;
        if (Array.isArray(top)) {
          top.push(value);
          c = this.skipWhitespace();
          if (c === COMMA) {
            this.i++;
            c = this.skipWhitespace();
            if (c === CLOSE_BRACKET) throw this.error('trailing comma', this.i, true);
            if (c < 0) throw this.error('EOF while parsing a value', this.i, true);
            more = true;
            break;
          }
          if (c === CLOSE_BRACKET) {
            this.i++;
            value = stack.pop() as JsonArray;
            continue;
          }
          if (c < 0) throw this.error('EOF while parsing a list', this.i, true);
          throw this.error('expected `,` or `]`', this.i, true);
        }
        setProperty(top, keys.pop() as string, value);
        c = this.skipWhitespace();
        if (c === COMMA) {
          this.i++;
          c = this.skipWhitespace();
          if (c === QUOTE) {
            this.i++;
            keys.push(this.parseString());
            this.expectColon();
            more = true;
            break;
          }
          if (c === CLOSE_BRACE) throw this.error('trailing comma', this.i, true);
          if (c < 0) throw this.error('EOF while parsing a value', this.i, true);
          throw this.error('key must be a string', this.i, true);
        }
        if (c === CLOSE_BRACE) {
          this.i++;
          value = stack.pop() as JsonObject;
          continue;
        }
        if (c < 0) throw this.error('EOF while parsing an object', this.i, true);
        throw this.error('expected `,` or `}`', this.i, true);
      }
      if (!more) break;
    }
    if (this.skipWhitespace() >= 0) throw this.error('trailing characters', this.i, true);
    return value;
  }

  /** Returns the next non-whitespace code unit without consuming it, or -1 at the end. */
  private skipWhitespace(): number {
    const s = this.s;
    let i = this.i;
    while (i < this.len) {
      const c = s.charCodeAt(i);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) {
        this.i = i;
        return c;
      }
      i++;
    }
    this.i = i;
    return -1;
  }

  private expectColon(): void {
    const c = this.skipWhitespace();
    if (c === COLON) {
      this.i++;
      return;
    }
    if (c < 0) throw this.error('EOF while parsing an object', this.i, true);
    throw this.error('expected `:`', this.i, true);
  }

  private parseScalar(c: number): JsonValue {
    if (c === QUOTE) {
      this.i++;
      return this.parseString();
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.parseNumber(c);
    if (c === LOWER_T) return this.parseIdent('true', true);
    if (c === LOWER_F) return this.parseIdent('false', false);
    if (c === LOWER_N) return this.parseIdent('null', null);
    if (c < 0) throw this.error('EOF while parsing a value', this.i, true);
    throw this.error('expected value', this.i, true);
  }

  private parseIdent<T extends JsonValue>(word: string, result: T): T {
    for (let k = 1; k < word.length; k++) {
      const at = this.i + k;
      if (at >= this.len) throw this.error('EOF while parsing a value', this.len, false);
      if (this.s.charCodeAt(at) !== word.charCodeAt(k)) {
        throw this.error('expected ident', at, true);
      }
    }
    this.i += word.length;
    return result;
  }

  private parseNumber(first: number): number | bigint {
    const s = this.s;
    const len = this.len;
    const start = this.i;
    let i = start;
    let c = first;
    const negative = c === MINUS;
    if (negative) {
      i++;
      if (i >= len) throw this.error('EOF while parsing a value', len, false);
      c = s.charCodeAt(i);
      if (c < ZERO || c > NINE) throw this.error('invalid number', i, true);
    }
    const digitsStart = i;
    // Exact while at most 15 digits have been read; longer integers are redone as bigints.
    let n = c - ZERO;
    i++;
    if (c === ZERO) {
      c = i < len ? s.charCodeAt(i) : -1;
      if (c >= ZERO && c <= NINE) throw this.error('invalid number', i, true);
    } else {
      while (i < len) {
        c = s.charCodeAt(i);
        if (c < ZERO || c > NINE) break;
        n = n * 10 + (c - ZERO);
        i++;
      }
    }
    const digitCount = i - digitsStart;
    let integral = true;
    c = i < len ? s.charCodeAt(i) : -1;
    if (c === DOT) {
      integral = false;
      i++;
      const fractionStart = i;
      while (i < len && isDigit(s.charCodeAt(i))) i++;
      if (i === fractionStart) {
        if (i < len) throw this.error('invalid number', i, true);
        throw this.error('EOF while parsing a value', len, false);
      }
      c = i < len ? s.charCodeAt(i) : -1;
    }
    if (c === LOWER_E || c === UPPER_E) {
      integral = false;
      i++;
      c = i < len ? s.charCodeAt(i) : -1;
      if (c === PLUS || c === MINUS) i++;
      if (i >= len) throw this.error('EOF while parsing a value', len, false);
      if (!isDigit(s.charCodeAt(i))) throw this.error('invalid number', i, true);
      while (i < len && isDigit(s.charCodeAt(i))) i++;
    }
    this.i = i;
    if (integral && digitCount <= 15) return negative ? -n : n;
    const literal = s.slice(start, i);
    const approx = Number(literal);
    // serde_json rejects what would overflow an f64 rather than yielding infinity.
    if (!Number.isFinite(approx)) throw this.error('number out of range', i, false);
    if (!integral) return approx;
    const big = BigInt(literal);
    return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big;
  }

  /** Parses the rest of a string whose opening quote has been consumed. */
  private parseString(): string {
    const s = this.s;
    const len = this.len;
    let i = this.i;
    let start = i;
    let out = '';
    for (;;) {
      i = skipStringRun(s, i);
      if (i >= len) throw this.error('EOF while parsing a string', len, false);
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return out + s.slice(start, i);
      }
      if (c < SPACE) {
        throw this.error(
          'control character (\\u0000-\\u001F) found while parsing a string',
          i,
          true,
        );
      }
      out += s.slice(start, i);
      this.i = i + 1;
      out += this.parseEscape();
      i = this.i;
      start = i;
    }
  }

  /** Decodes one escape whose backslash has been consumed. */
  private parseEscape(): string {
    const i = this.i;
    if (i >= this.len) throw this.error('EOF while parsing a string', this.len, false);
    const c = this.s.charCodeAt(i);
    this.i = i + 1;
    switch (c) {
      case QUOTE:
        return '"';
      case BACKSLASH:
        return '\\';
      case SLASH:
        return '/';
      case 98:
        return '\b';
      case LOWER_F:
        return '\f';
      case LOWER_N:
        return '\n';
      case 114:
        return '\r';
      case LOWER_T:
        return '\t';
      case LOWER_U:
        return this.parseUnicodeEscape();
      default:
        throw this.error('invalid escape', i, true);
    }
  }

  // serde_json accepts only well-formed UTF-16 in escapes: a high surrogate must be followed by
  // `\u` and a low surrogate, and a low surrogate may not stand alone (its message says "leading"
  // for that case too).
  private parseUnicodeEscape(): string {
    const n = this.hex4();
    if (n >= 0xdc00 && n <= 0xdfff) {
      throw this.error('lone leading surrogate in hex escape', this.i, false);
    }
    if (n < 0xd800 || n > 0xdbff) return String.fromCharCode(n);
    for (const expected of [BACKSLASH, LOWER_U]) {
      if (this.i >= this.len) throw this.error('EOF while parsing a string', this.len, false);
      if (this.s.charCodeAt(this.i) !== expected) {
        throw this.error('unexpected end of hex escape', this.i, true);
      }
      this.i++;
    }
    const low = this.hex4();
    if (low < 0xdc00 || low > 0xdfff) {
      throw this.error('lone leading surrogate in hex escape', this.i, false);
    }
    return String.fromCharCode(n, low);
  }

  private hex4(): number {
    const i = this.i;
    if (i + 4 > this.len) throw this.error('EOF while parsing a string', this.len, false);
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const d = hexValue(this.s.charCodeAt(i + k));
      if (d < 0) throw this.error('invalid escape', i + 4, false);
      n = (n << 4) | d;
    }
    this.i = i + 4;
    return n;
  }

  /**
   * Builds the error serde_json would report. `pos` is the UTF-16 offset; with `throughChar`
   * the position is just past the first UTF-8 byte of the character at `pos` (serde_json's
   * peek_error, or an error after reading one byte), otherwise it is right before `pos`.
   */
  private error(
    message: string,
    pos: number,
    throughChar: boolean,
    kind: JsonErrorKind = 'Syntax',
  ): JsonError {
    const s = this.s;
    const end = Math.min(pos, this.len);
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < end; k++) {
      if (s.charCodeAt(k) === LF) {
        line++;
        lineStart = k + 1;
      }
    }
    let column = utf8Length(s, lineStart, end);
    if (throughChar && end < this.len) {
      if (s.charCodeAt(end) === LF) {
        line++;
        column = 0;
      } else {
        column++;
      }
    }
    return new JsonError(kind, `${message} at line ${line} column ${column}`, end, line, column);
  }
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function hexValue(c: number): number {
  if (c >= ZERO && c <= NINE) return c - ZERO;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= LOWER_F) return lower - 0x57;
  return -1;
}

// Lone surrogates count 3 bytes, as their WTF-8 form would; valid Rust input never has them.
function utf8Length(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      k + 1 < to &&
      (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00
    ) {
      n += 4;
      k++;
    } else n += 3;
  }
  return n;
}

// "__proto__" would otherwise hit Object.prototype's setter and replace the prototype.
function setProperty(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}
