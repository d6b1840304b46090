// The wallet-refresh fast path of get_outputs. Every wallet asks, every 30–60 s, about 500 of
// its commitments in one call, `[commits, null, null, false, false]`; parsed as JSON, passed to
// the chain as 500 objects and printed back, such a call costs the gateway a millisecond. Here
// the body is scanned once (rpc_scan.ts), the commitments decoded straight into one byte string,
// and the chain answers with the printed array elements (each output's text is kept with its
// unspent-index entry: queries.ts `printedOutputs`). The reply is that text between two halves
// of an envelope made once by the full JSON-RPC path with markers. Bodies of any other shape
// (named params, proofs asked for, heights, a commitment that is not 66 hex digits, escapes…)
// are declined and take the full path, which stays the definition of every answer.

import type { PrintedOutputs, PrintedOutputsQuery } from '../actors/chain/messages.js';
import {
  CLOSE_BRACKET,
  COMMA,
  CR,
  LF,
  OPEN_BRACKET,
  QUOTE,
  SPACE,
  TAB,
} from '../core/json/chars.js';
import type { SharedRing } from '../runtime/index.js';
import type { BytesResponse, HttpResponse } from './http.js';
import { handleJsonRpc, methodTable } from './jsonrpc.js';
import { type ScannedCall, type Scanner, scanCall } from './rpc_scan.js';

export type AskPrintedOutputs = (q: PrintedOutputsQuery) => Promise<PrintedOutputs>;

const COMMIT_SIZE = 33;
const COMMIT_HEX = 2 * COMMIT_SIZE;

/**
 * Byte values of two hex digits by the pair's two bytes (`first << 8 | second`); 256 for any
 * pair that is not two hex digits. One lookup per decoded byte: 128 KB, built once.
 */
const HEX_PAIRS = (() => {
  const digit = new Int16Array(256).fill(-1);
  for (let i = 0; i < 10; i++) digit[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    digit[65 + i] = 10 + i;
    digit[97 + i] = 10 + i;
  }
  const t = new Uint16Array(65536).fill(256);
  for (let hi = 0; hi < 256; hi++)
    for (let lo = 0; lo < 256; lo++) {
      const h = digit[hi] as number;
      const l = digit[lo] as number;
      if (h >= 0 && l >= 0) t[(hi << 8) | lo] = (h << 4) | l;
    }
  return t;
})();

/** Where the commitments' array holds its elements: `[` at `start - 1`, `]` at `end`. */
interface CommitsSpan {
  readonly start: number;
  readonly end: number;
}

/** `[commits, null, null, false|null, false|null]`: a wallet's refresh, nothing else. */
function scanParams(sc: Scanner): CommitsSpan | undefined {
  if (!sc.eat(OPEN_BRACKET) || !sc.eat(OPEN_BRACKET)) return undefined;
  // Hex digits hold no bracket: the array ends at the first one (commitsIn checks the rest).
  const start = sc.at;
  const end = sc.s.indexOf(']', start);
  if (end < 0) return undefined;
  sc.at = end + 1;
  for (const word of ['null', 'null', 'false', 'false']) {
    if (!sc.eat(COMMA)) return undefined;
    if (!sc.word(word) && !(word === 'false' && sc.word('null'))) return undefined;
  }
  return sc.eat(CLOSE_BRACKET) ? { start, end } : undefined;
}

function skipSpace(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i] as number;
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break;
    i++;
  }
  return i;
}

/**
 * The commitments of `"…","…"` in `b` between `start` and `end`, each exactly 66 hex digits,
 * end to end; undefined for anything else. On the bytes: a wallet sends 500 at a time.
 */
function commitsIn(b: Uint8Array, start: number, end: number): Uint8Array | undefined {
  const out = new Uint8Array(Math.ceil((end - start) / (COMMIT_HEX + 2)) * COMMIT_SIZE);
  let n = 0;
  let i = skipSpace(b, start, end);
  while (i < end) {
    if (b[i] !== QUOTE || i + COMMIT_HEX + 1 >= end || b[i + COMMIT_HEX + 1] !== QUOTE)
      return undefined;
    let bad = 0;
    for (let k = i + 1; k <= i + COMMIT_HEX; k += 2) {
      const v = HEX_PAIRS[((b[k] as number) << 8) | (b[k + 1] as number)] as number;
      bad |= v;
      out[n++] = v;
    }
    if (bad > 255) return undefined;
    i = skipSpace(b, i + COMMIT_HEX + 2, end);
    if (i === end) break;
    if (b[i] !== COMMA) return undefined;
    i = skipSpace(b, i + 1, end);
    if (i === end) return undefined; // a trailing comma
  }
  return out.subarray(0, n);
}

/** A get_outputs call of the wallet's shape in `body`, or undefined. */
export function scanOutputsCall(body: Uint8Array): ScannedCall<Uint8Array> | undefined {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
  const call = scanCall(b.toString('latin1'), scanParams);
  if (call?.method !== 'get_outputs' || call.params === undefined) return undefined;
  const commits = commitsIn(b, call.params.start, call.params.end);
  return commits === undefined ? undefined : { ...call, params: commits };
}

/** The full path's reply to one call, cut where the id and (if any) the array's element go. */
interface ReplyCut {
  readonly status: number;
  readonly headers: HttpResponse['headers'];
  /** No outputs found: `beforeId + id + afterId`. */
  readonly empty: { readonly beforeId: string; readonly afterId: string };
  /** Some found: `beforeId + id + open + elements + close`. */
  readonly found: {
    readonly beforeId: string;
    readonly open: string;
    readonly close: string;
    /** What precedes each element's lines (`open` ends with it). */
    readonly indent: string;
  };
}

const ID_MARKER = '"mwnode-fast-outputs-id-6d1f2a90"';
const ELEMENT_MARKER = '"mwnode-fast-outputs-element-c47e81b3"';

/** The full path's reply to get_outputs when the result is `result`, with the marker id. */
async function markedReply(version: boolean, result: string[]): Promise<HttpResponse> {
  const table = methodTable([{ name: 'get_outputs', params: [], run: async () => result }]);
  const jsonrpc = version ? '"jsonrpc":"2.0",' : '';
  const body = `{${jsonrpc}"method":"get_outputs","id":${ID_MARKER}}`;
  return handleJsonRpc(Buffer.from(body, 'latin1'), table);
}

function split(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) throw new Error(`fast outputs: ${marker}`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}

async function envelope(version: boolean): Promise<ReplyCut> {
  const none = await markedReply(version, []);
  const one = await markedReply(version, [JSON.parse(ELEMENT_MARKER) as string]);
  const [beforeId, afterId] = split(none.body, ID_MARKER);
  const [foundBeforeId, rest] = split(one.body, ID_MARKER);
  const [head, close] = split(rest, ELEMENT_MARKER);
  const bracket = head.lastIndexOf('[');
  const indent = head.slice(bracket + 2); // after "[\n"
  if (bracket < 0 || head.charCodeAt(bracket + 1) !== LF || !/^ *$/.test(indent))
    throw new Error('fast outputs: the array is not printed one element per line');
  return {
    status: one.status,
    headers: one.headers,
    empty: { beforeId, afterId },
    found: { beforeId: foundBeforeId, open: head, close, indent },
  };
}

/** Answers the get_outputs calls it recognises; the caller sends everything else the full way. */
export class FastOutputs {
  #envelopes: Promise<[ReplyCut, ReplyCut]> | undefined;
  readonly #ring: SharedRing | undefined;

  /** `ring`: where the chain lends reply bodies (runtime/shared_ring.ts), if it does. */
  constructor(ring?: SharedRing) {
    this.#ring = ring;
  }

  /** The reply to `body`, or undefined: not a wallet's get_outputs call. */
  async reply(
    body: Uint8Array,
    ask: AskPrintedOutputs,
  ): Promise<HttpResponse | BytesResponse | undefined> {
    const call = scanOutputsCall(body);
    if (call === undefined || call.params === undefined) return undefined;
    this.#envelopes ??= Promise.all([envelope(false), envelope(true)]);
    const e = (await this.#envelopes)[call.version ? 1 : 0];
    const { status, headers, found, empty } = e;
    // 180 KB for 500 outputs: assembled by the chain in one piece, never as a string here.
    const printed = await ask({
      commits: call.params,
      indent: found.indent,
      before: found.beforeId + call.id + found.open,
      after: found.close,
    });
    if (printed.count === 0)
      return { status, headers, body: empty.beforeId + call.id + empty.afterId };
    const lent = printed.lent;
    if (lent === null) return { status, headers, body: printed.text };
    const ring = this.#ring;
    const bytes = ring?.borrow(lent);
    // Not in the ring (given to no one, or reclaimed): the full path answers instead.
    if (ring === undefined || bytes === undefined) return undefined;
    return { status, headers, body: bytes, release: () => ring.giveBack(lent) };
  }
}
