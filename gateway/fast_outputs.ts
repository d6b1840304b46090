// The wallet-refresh fast path of get_outputs. Every wallet asks, every 30–60 s, about 500 of
// its commitments in one call, `[commits, null, null, false, false]`; parsed as JSON, passed to
// the chain as 500 objects and printed back, such a call costs the gateway a millisecond. Here
// the body is scanned once (rpc_scan.ts), the commitments decoded straight into one byte string,
// and the chain answers with the printed array elements (each output's text is kept with its
// unspent-index entry: queries.ts `printedOutputs`). The reply is that text between two halves
// of an envelope made once by the full JSON-RPC path with markers. Bodies of any other shape
// (named params, proofs asked for, heights, a commitment that is not 66 hex digits, escapes…)
// are declined and take the full path, which stays the definition of every answer.

import { CLOSE_BRACKET, COMMA, LF, OPEN_BRACKET } from '../core/json/chars.js';
import type { HttpResponse } from './http.js';
import { handleJsonRpc, methodTable } from './jsonrpc.js';
import { type ScannedCall, type Scanner, scanCall } from './rpc_scan.js';

/** What the chain answers: how many outputs it found, and their printed texts joined. */
export interface PrintedOutputs {
  readonly count: number;
  /** ASCII: the elements, each indented by `indent`, separated by `,\n` + `indent`. */
  readonly text: Uint8Array;
}

export type AskPrintedOutputs = (commits: Uint8Array, indent: string) => Promise<PrintedOutputs>;

const COMMIT_SIZE = 33;
const COMMIT_HEX = 2 * COMMIT_SIZE;

/** Hex digit values by character code; 255 for anything else. */
const HEX = (() => {
  const t = new Uint8Array(128).fill(255);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
})();

/** 66 hex digits from `s` at `at` into `out` at `to`; false when one is not a hex digit. */
function decodeCommit(s: string, at: number, out: Uint8Array, to: number): boolean {
  for (let k = 0; k < COMMIT_SIZE; k++) {
    const hi = HEX[s.charCodeAt(at + 2 * k)] ?? 255;
    const lo = HEX[s.charCodeAt(at + 2 * k + 1)] ?? 255;
    if ((hi | lo) === 255) return false;
    out[to + k] = (hi << 4) | lo;
  }
  return true;
}

/** `[...66-hex-digit strings]`: their bytes end to end, or undefined. */
function scanCommits(sc: Scanner): Uint8Array | undefined {
  if (!sc.eat(OPEN_BRACKET)) return undefined;
  const starts: number[] = [];
  if (!sc.eat(CLOSE_BRACKET)) {
    do {
      const start = sc.plainString();
      if (start < 0 || sc.at - start !== COMMIT_HEX + 2) return undefined;
      starts.push(start + 1);
    } while (sc.eat(COMMA));
    if (!sc.eat(CLOSE_BRACKET)) return undefined;
  }
  const out = new Uint8Array(starts.length * COMMIT_SIZE);
  for (let i = 0; i < starts.length; i++)
    if (!decodeCommit(sc.s, starts[i] as number, out, i * COMMIT_SIZE)) return undefined;
  return out;
}

/** `[commits, null, null, false|null, false|null]`: a wallet's refresh, nothing else. */
function scanParams(sc: Scanner): Uint8Array | undefined {
  if (!sc.eat(OPEN_BRACKET)) return undefined;
  const commits = scanCommits(sc);
  if (commits === undefined) return undefined;
  for (const word of ['null', 'null', 'false', 'false']) {
    if (!sc.eat(COMMA)) return undefined;
    if (!sc.word(word) && !(word === 'false' && sc.word('null'))) return undefined;
  }
  return sc.eat(CLOSE_BRACKET) ? commits : undefined;
}

/** A get_outputs call of the wallet's shape in `text` (the body as Latin-1), or undefined. */
export function scanOutputsCall(text: string): ScannedCall<Uint8Array> | undefined {
  const call = scanCall(text, scanParams);
  return call?.method === 'get_outputs' && call.params !== undefined ? call : undefined;
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

  /** The reply to `body`, or undefined: not a wallet's get_outputs call. */
  async reply(body: Uint8Array, ask: AskPrintedOutputs): Promise<HttpResponse | undefined> {
    const b = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
    const call = scanOutputsCall(b.toString('latin1'));
    if (call === undefined || call.params === undefined) return undefined;
    this.#envelopes ??= Promise.all([envelope(false), envelope(true)]);
    const e = (await this.#envelopes)[call.version ? 1 : 0];
    const printed = await ask(call.params, e.found.indent);
    const text =
      printed.count === 0
        ? e.empty.beforeId + call.id + e.empty.afterId
        : e.found.beforeId +
          call.id +
          e.found.open +
          Buffer.from(printed.text.buffer, printed.text.byteOffset, printed.text.length).toString(
            'latin1',
          ) +
          e.found.close;
    return { status: e.status, headers: e.headers, body: text };
  }
}
