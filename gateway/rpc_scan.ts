// A cheap scan of a JSON-RPC call's envelope for the gateway's fast paths (fast_rpc.ts,
// fast_outputs.ts): `{"jsonrpc":"2.0","method":"m","params":…,"id":N}` in any key order,
// whitespace anywhere JSON allows it, each key at most once and written without escapes. What a
// method's params may look like is the caller's scanner. Anything unusual declines (undefined),
// and the full JSON-RPC path, which stays the definition of every answer, takes the request.
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  CR,
  LF,
  NINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  SPACE,
  TAB,
  ZERO,
} from '../core/json/chars.js';

export interface Envelope {
  readonly method: string;
  /** The request carried `"jsonrpc": "2.0"`, so the reply carries it too. */
  readonly version: boolean;
  /** The id exactly as the full path prints it in the reply. */
  readonly id: string;
}

const U64_MAX_TEXT = '18446744073709551615';

// Which keys were seen, as bits; any key seen twice is declined (the full parser keeps the last).
const JSONRPC = 1;
const METHOD = 2;
const PARAMS = 4;
const ID = 8;

/** One pass over the text; `at` moves forward, -1 means "decline". */
export class Scanner {
  at = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  /** The next code unit after whitespace (not consumed), or -1 at the end. */
  peek(): number {
    const s = this.s;
    let i = this.at;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break;
      i++;
    }
    this.at = i;
    return i < s.length ? s.charCodeAt(i) : -1;
  }

  /** Consumes `c` after whitespace. */
  eat(c: number): boolean {
    if (this.peek() !== c) return false;
    this.at++;
    return true;
  }

  /** Consumes `word` exactly, after whitespace. */
  word(word: string): boolean {
    this.peek();
    if (!same(this.s, this.at, word)) return false;
    this.at += word.length;
    return true;
  }

  /**
   * A string of printable ASCII without escapes, after whitespace; returns the index of its
   * opening quote, or -1. The caller slices it (quotes included, or not).
   */
  plainString(): number {
    if (this.peek() !== QUOTE) return -1;
    const s = this.s;
    const start = this.at;
    for (let i = start + 1; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.at = i + 1;
        return start;
      }
      // Escapes, control characters and anything beyond ASCII go the full way.
      if (c === BACKSLASH || c < SPACE || c > 0x7e) return -1;
    }
    return -1;
  }

  /** A non-negative integer that fits u64, printed as sent (the parser allows no leading 0s). */
  u64(): string | undefined {
    const s = this.s;
    const start = this.at;
    let i = start;
    while (i < s.length && s.charCodeAt(i) >= ZERO && s.charCodeAt(i) <= NINE) i++;
    const digits = s.slice(start, i);
    // A fraction or exponent ("1.0", "1e3") may still be an integer id: the full path decides.
    if (digits.length === 0 || this.peekRaw(i) === 46 || (this.peekRaw(i) | 0x20) === 101)
      return undefined;
    if (digits.length > 1 && digits.charCodeAt(0) === ZERO) return undefined;
    if (digits.length > 20 || (digits.length === 20 && digits > U64_MAX_TEXT)) return undefined;
    this.at = i;
    return digits;
  }

  private peekRaw(i: number): number {
    return i < this.s.length ? this.s.charCodeAt(i) : -1;
  }
}

/** Whether `word` is at `at` in `s` (a loop: far cheaper than startsWith for a few chars). */
export function same(s: string, at: number, word: string): boolean {
  if (at + word.length > s.length) return false;
  for (let k = 0; k < word.length; k++)
    if (s.charCodeAt(at + k) !== word.charCodeAt(k)) return false;
  return true;
}

/** The four keys of a call, written without escapes; anything else is 0. */
function keyBit(s: string, start: number, end: number): number {
  switch (end - start) {
    case 2:
      return same(s, start, 'id') ? ID : 0;
    case 6:
      return same(s, start, 'method') ? METHOD : same(s, start, 'params') ? PARAMS : 0;
    case 7:
      return same(s, start, 'jsonrpc') ? JSONRPC : 0;
    default:
      return 0;
  }
}

/** `null`, `[]` or `{}` (whitespace inside allowed): zero arguments for every method. */
function emptyParams(sc: Scanner): boolean {
  if (sc.eat(OPEN_BRACKET)) return sc.eat(CLOSE_BRACKET);
  if (sc.eat(OPEN_BRACE)) return sc.eat(CLOSE_BRACE);
  return sc.word('null');
}

function scanId(sc: Scanner): string | undefined {
  const c = sc.peek();
  if (c === QUOTE) {
    const start = sc.plainString();
    return start < 0 ? undefined : sc.s.slice(start, sc.at);
  }
  if (c >= ZERO && c <= NINE) return sc.u64();
  return sc.word('null') ? 'null' : undefined;
}

/** A call as scanned: its envelope, and its params as `scanParams` read them (absent: undefined). */
export interface ScannedCall<P> extends Envelope {
  readonly params: P | undefined;
}

/**
 * Recognises `{"jsonrpc":"2.0","method":"m","params":…,"id":N}` in any key order, with or
 * without `jsonrpc` and `params`, whitespace anywhere JSON allows it; `scanParams` reads the
 * params value (undefined: decline). `text` is the body read as Latin-1 (one character per
 * byte), so a byte beyond ASCII is a character above 0x7e: declined.
 */
export function scanCall<P>(
  text: string,
  scanParams: (sc: Scanner) => P | undefined,
): ScannedCall<P> | undefined {
  const sc = new Scanner(text);
  if (!sc.eat(OPEN_BRACE)) return undefined;
  let seen = 0;
  let method = '';
  let id = '';
  let params: P | undefined;
  for (;;) {
    const keyStart = sc.plainString();
    if (keyStart < 0) return undefined;
    const bit = keyBit(text, keyStart + 1, sc.at - 1);
    if (bit === 0 || (seen & bit) !== 0 || !sc.eat(COLON)) return undefined;
    seen |= bit;
    if (bit === JSONRPC) {
      if (!sc.word('"2.0"')) return undefined;
    } else if (bit === METHOD) {
      const start = sc.plainString();
      if (start < 0) return undefined;
      method = text.slice(start + 1, sc.at - 1);
    } else if (bit === PARAMS) {
      params = scanParams(sc);
      if (params === undefined) return undefined;
    } else {
      const printed = scanId(sc);
      if (printed === undefined) return undefined;
      id = printed;
    }
    if (sc.eat(CLOSE_BRACE)) break;
    if (!sc.eat(COMMA)) return undefined;
  }
  if (sc.peek() !== -1 || (seen & (METHOD | ID)) !== (METHOD | ID)) return undefined;
  return { method, version: (seen & JSONRPC) !== 0, id, params };
}

/** A call without arguments: params absent, `null`, `[]` or `{}`. */
export function scanEnvelope(text: string): Envelope | undefined {
  const call = scanCall(text, (sc) => (emptyParams(sc) ? true : undefined));
  return call === undefined
    ? undefined
    : { method: call.method, version: call.version, id: call.id };
}
