// The JSON-RPC envelope fast path. Wallets and pools poll head reads (get_tip, get_status, …)
// with a new id on every request, so the reply cache (reply_cache.ts) never sees the same bytes
// twice. For a lone call to a `pure` method without parameters, the reply is a function of the
// published head, the method, whether the request said "jsonrpc" and the id, and the id is a
// leaf whose printed text does not move anything around it. So each (method, "jsonrpc" or not)
// gets one reply per head, computed by the full JSON-RPC path with a marker id and cut at that
// marker; a request is then answered by a cheap scan of its envelope and the id spliced between
// the two halves. Anything unusual in the body (escapes, duplicate keys, non-ASCII bytes, ids
// that are not plain non-negative integers, plain strings or null, batches, other params) is
// declined and takes the full path, which stays the definition of every answer.

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
import type { HttpResponse } from './http.js';
import type { MethodTable } from './jsonrpc.js';

export interface Envelope {
  readonly method: string;
  /** The request carried `"jsonrpc": "2.0"`, so the reply carries it too. */
  readonly version: boolean;
  /** The id exactly as the full path prints it in the reply. */
  readonly id: string;
}

/** Longer bodies are never scanned; a poller's envelope is about 60 bytes. */
export const FAST_MAX_BODY = 512;

const U64_MAX_TEXT = '18446744073709551615';

// Which keys were seen, as bits; any key seen twice is declined (the full parser keeps the last).
const JSONRPC = 1;
const METHOD = 2;
const PARAMS = 4;
const ID = 8;

/** One pass over the text; `at` moves forward, -1 means "decline". */
class Scanner {
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
function same(s: string, at: number, word: string): boolean {
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

/**
 * Recognises `{"jsonrpc":"2.0","method":"m","params":[],"id":N}` in any key order, with or
 * without `jsonrpc` and `params`, whitespace anywhere JSON allows it. `text` is the body read as
 * Latin-1 (one character per byte), so a byte beyond ASCII is a character above 0x7e: declined.
 */
export function scanEnvelope(text: string): Envelope | undefined {
  const sc = new Scanner(text);
  if (!sc.eat(OPEN_BRACE)) return undefined;
  let seen = 0;
  let method = '';
  let id = '';
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
      if (!emptyParams(sc)) return undefined;
    } else {
      const printed = scanId(sc);
      if (printed === undefined) return undefined;
      id = printed;
    }
    if (sc.eat(CLOSE_BRACE)) break;
    if (!sc.eat(COMMA)) return undefined;
  }
  if (sc.peek() !== -1 || (seen & (METHOD | ID)) !== (METHOD | ID)) return undefined;
  return { method, version: (seen & JSONRPC) !== 0, id };
}

/** A reply cut at its id: the answer to a request is `head + id + tail`. */
interface Template {
  readonly head: string;
  readonly tail: string;
  readonly status: number;
  readonly headers: HttpResponse['headers'];
}

/** Runs the full JSON-RPC path on a body; `pure` false when a call needed more than the head. */
export type FullPath = (body: Uint8Array) => Promise<{ response: HttpResponse; pure: boolean }>;

// A string id no view can contain; the template is only kept if it occurs exactly once.
const MARKER = 'mwnode-fast-rpc-id-3b6f0c1e';
const PRINTED_MARKER = `"${MARKER}"`;

function markerBody(method: string, version: boolean): Uint8Array {
  const jsonrpc = version ? '"jsonrpc":"2.0",' : '';
  return Buffer.from(`{${jsonrpc}"method":${JSON.stringify(method)},"id":"${MARKER}"}`, 'utf8');
}

/** The template in `response`; null when this variant never fits, undefined to retry later. */
function cut(response: HttpResponse, pure: boolean): Template | null | undefined {
  // A busy or failing node is not a verdict on the method: the next request tries again.
  if (response.status !== 200) return undefined;
  const at = response.body.indexOf(PRINTED_MARKER);
  if (!pure || at < 0 || response.body.indexOf(PRINTED_MARKER, at + 1) >= 0) return null;
  return {
    head: response.body.slice(0, at),
    tail: response.body.slice(at + PRINTED_MARKER.length),
    status: response.status,
    headers: response.headers,
  };
}

function latin1(body: Uint8Array): string {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
  return b.toString('latin1');
}

/**
 * Templates per surface, method and "jsonrpc" flag, for one published state at a time. A
 * variant not yet known is answered by the full path while its template is made in the
 * background; one that does not fit (impure, an error status, no marker) is remembered as such.
 */
/** Template, null for "does not fit", the pending computation, or undefined: not tried yet. */
type Slot = Template | null | Promise<void> | undefined;

export class FastReplies {
  #state: object | null = null;
  /**
   * Per surface, per method that is pure and takes no params: its slots without and with
   * "jsonrpc". A surface always comes with the same method table.
   */
  readonly #slots = new Map<string, Map<string, Slot[]>>();

  /** Methods with slots, over all surfaces. */
  get size(): number {
    let n = 0;
    for (const bySurface of this.#slots.values()) n += bySurface.size;
    return n;
  }

  /**
   * The reply to `body` on `surface` under `state`, or undefined when the full path must answer.
   * Synchronous: the transport answers inside the callback that delivered the body.
   */
  reply(
    surface: string,
    methods: MethodTable,
    body: Uint8Array,
    state: object | null,
    full: FullPath,
  ): HttpResponse | undefined {
    if (state === null || body.length > FAST_MAX_BODY || body.length === 0) return undefined;
    const env = scanEnvelope(latin1(body));
    if (env === undefined) return undefined;
    if (state !== this.#state) {
      this.#slots.clear();
      this.#state = state;
    }
    const slots = this.#slotsOf(surface, methods, env.method);
    if (slots === undefined) return undefined;
    const v = env.version ? 1 : 0;
    const t = slots[v];
    if (t === undefined) this.#prime(slots, v, env, state, full);
    if (t === undefined || t === null || t instanceof Promise) return undefined;
    return { status: t.status, headers: t.headers, body: t.head + env.id + t.tail };
  }

  /** The slots of `method`, made on first use; undefined when it is not a fast-path method. */
  #slotsOf(surface: string, methods: MethodTable, method: string): Slot[] | undefined {
    let bySurface = this.#slots.get(surface);
    if (bySurface === undefined) {
      bySurface = new Map();
      this.#slots.set(surface, bySurface);
    }
    let slots = bySurface.get(method);
    if (slots === undefined) {
      const m = methods.get(method);
      if (m === undefined || m.pure !== true || m.params.length !== 0) return undefined;
      slots = [undefined, undefined];
      bySurface.set(method, slots);
    }
    return slots;
  }

  #prime(slots: Slot[], v: number, env: Envelope, state: object, full: FullPath): void {
    const done = (t: Template | null | undefined): void => {
      // Made for a head that is gone: the slots were dropped with it.
      if (this.#state === state) slots[v] = t;
    };
    slots[v] = full(markerBody(env.method, env.version)).then(
      ({ response, pure }) => done(cut(response, pure)),
      // A failure (e.g. the node shutting down) is not a verdict: try again next time.
      () => done(undefined),
    );
  }
}
