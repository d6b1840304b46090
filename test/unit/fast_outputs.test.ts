// The get_outputs fast path (gateway/fast_outputs.ts): which bodies it takes, the commitments it
// decodes, and replies byte for byte those of the full JSON-RPC path for the same outputs, with
// the elements printed the way the chain prints them (indentedJson).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { indentedJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  type AskPrintedOutputs,
  FastOutputs,
  scanOutputsCall,
} from '../../gateway/fast_outputs.js';
import type { BytesResponse, HttpResponse } from '../../gateway/http.js';
import { handleJsonRpc, methodTable } from '../../gateway/jsonrpc.js';

const A = `08${'ab'.repeat(32)}`;
const B = `09${'0F'.repeat(32)}`;
const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');

describe('scanOutputsCall', () => {
  it("takes a wallet's refresh in any key order and spacing, and decodes its commitments", () => {
    const call = scanOutputsCall(
      bytes(
        `{"jsonrpc":"2.0","method":"get_outputs","params":[["${A}","${B}"],null,null,false,false],"id":1}`,
      ),
    );
    assert.deepEqual(call, {
      method: 'get_outputs',
      version: true,
      id: '1',
      params: new Uint8Array(Buffer.from(A + B, 'hex')),
    });
    const spaced = scanOutputsCall(
      bytes(
        ` { "id" : "w" , "params" : [ [ "${B}" ] , null , null , null , null ] ,\n"method":"get_outputs" } `,
      ),
    );
    assert.deepEqual(spaced, {
      method: 'get_outputs',
      version: false,
      id: '"w"',
      params: new Uint8Array(Buffer.from(B, 'hex')),
    });
    const empty = scanOutputsCall(
      bytes('{"method":"get_outputs","params":[[ ],null,null,false,null],"id":null}'),
    );
    assert.deepEqual(empty?.params, new Uint8Array(0));
    assert.equal(empty?.id, 'null');
  });

  it('declines every other shape (the full path answers those)', () => {
    const call = (params: string, method = 'get_outputs') =>
      `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":1}`;
    const declined = [
      call(`[["${A}"],null,null,false,false]`, 'get_kernel'),
      call(`{"commits":["${A}"]}`), // named
      call(`[["${A}"],null,null,false]`), // four
      call(`[["${A}"],null,null,false,false,false]`),
      call(`[["${A}"],null,null,true,false]`), // proofs
      call(`[["${A}"],null,null,false,true]`), // Merkle proofs
      call(`[["${A}"],1,2,false,false]`), // heights
      call(`[null,null,null,false,false]`),
      call(`[["${A.slice(2)}"],null,null,false,false]`), // 64 digits: Epic's length error
      call(`[["${A}00"],null,null,false,false]`),
      call(`[["${A.slice(0, 65)}g"],null,null,false,false]`), // not hex: Epic skips it
      call(`[["0x${A.slice(2)}"],null,null,false,false]`),
      call(`[["${A.slice(0, 64)}\\u0030"],null,null,false,false]`),
      call(`[["${A}",],null,null,false,false]`),
      call(`[[,"${A}"],null,null,false,false]`),
      call(`[["${A}" "${B}"],null,null,false,false]`),
      call(`[[1],null,null,false,false]`),
      `{"method":"get_outputs","params":[["${A}"],null,null,false,false]}`, // notification
      `[{"method":"get_outputs","params":[["${A}"],null,null,false,false],"id":1}]`, // batch
      `{"method":"get_outputs","id":1}`,
      `{"method":"get_outputs","params":[],"id":1}`,
    ];
    for (const text of declined) assert.equal(scanOutputsCall(bytes(text)), undefined, text);
  });
});

/** Printable outputs by commitment, as a stand-in chain holds them. */
const OUTPUTS: ReadonlyMap<string, JsonValue> = new Map<string, JsonValue>([
  [A, { output_type: 'Coinbase', commit: A, spent: false, block_height: 3n, mmr_index: 4n }],
  [B.toLowerCase(), { commit: B.toLowerCase(), z: [1, { y: null }], a: 'x' }],
]);

/** The chain's side: found outputs printed with indentedJson, joined as queries.ts joins them. */
const ask: AskPrintedOutputs = async ({ commits, indent, before, after }) => {
  const found: string[] = [];
  for (let i = 0; i < commits.length; i += 33) {
    const o = OUTPUTS.get(Buffer.from(commits.subarray(i, i + 33)).toString('hex'));
    if (o !== undefined) found.push(indentedJson(o, indent));
  }
  const text = found.length === 0 ? '' : before + found.join(`,\n${indent}`) + after;
  return { count: found.length, text: bytes(text), lent: null };
};

/** The full path, with a get_outputs that finds the same outputs. */
const fullTable = methodTable([
  {
    name: 'get_outputs',
    params: ['commits', 's', 'e', 'p', 'm'].map((name) => ({ name, decode: (v: JsonValue) => v })),
    run: async (args) =>
      (args[0] as string[]).flatMap((c) => {
        const o = OUTPUTS.get(c.toLowerCase());
        return o === undefined ? [] : [o];
      }),
  },
]);

/** A reply with its body as text (found outputs come as bytes). */
async function asText(
  reply: Promise<BytesResponse | HttpResponse | undefined>,
): Promise<HttpResponse | undefined> {
  const r = await reply;
  if (r === undefined || typeof r.body === 'string') return r as HttpResponse | undefined;
  return { ...r, body: Buffer.from(r.body).toString('latin1') };
}

describe('FastOutputs', () => {
  it('answers with the exact text of the full path', async () => {
    const fast = new FastOutputs();
    const body = bytes(
      `{"jsonrpc":"2.0","method":"get_outputs","params":[["${B}","${'08'.repeat(33)}","${A}"],null,null,false,false],"id":7}`,
    );
    const reply = await asText(fast.reply(body, ask));
    const b = B.toLowerCase();
    assert.equal(
      reply?.body,
      `{\n  "id": 7,\n  "jsonrpc": "2.0",\n  "result": {\n    "Ok": [\n      {\n        "a": "x",\n` +
        `        "commit": "${b}",\n        "z": [\n          1,\n          {\n            "y": null\n` +
        '          }\n        ]\n      },\n      {\n        "block_height": 3,\n' +
        `        "commit": "${A}",\n        "mmr_index": 4,\n        "output_type": "Coinbase",\n` +
        '        "spent": false\n      }\n    ]\n  }\n}',
    );
    assert.deepEqual(reply, await handleJsonRpc(body, fullTable));
    const none = await fast.reply(
      bytes(`{"method":"get_outputs","params":[[],null,null,null,null],"id":"n"}`),
      ask,
    );
    assert.equal(none?.body, '{\n  "id": "n",\n  "result": {\n    "Ok": []\n  }\n}');
    assert.equal(none?.status, 200);
    assert.deepEqual(none?.headers, [
      ['content-type', 'application/json'],
      ['access-control-allow-origin', '*'],
      ['access-control-allow-headers', 'Content-Type, Authorization'],
    ]);
  });

  it('for generated bodies: the full reply byte for byte, or a decline', async () => {
    const fast = new FastOutputs();
    const commit = fc.constantFrom(A, B, B.toLowerCase(), `08${'cd'.repeat(32)}`, A.slice(2));
    const ws = fc.constantFrom('', ' ', '\n', '\t ');
    const id = fc.constantFrom('0', '1', '18446744073709551615', 'null', '"x"', '"a b"', '1.0');
    const flag = fc.constantFrom('false', 'null', 'true');
    const body = fc
      .record({
        commits: fc.array(commit, { maxLength: 6 }),
        id,
        version: fc.boolean(),
        w: ws,
        p: flag,
        m: flag,
        order: fc.boolean(),
      })
      .map((r) => {
        const params = `[${r.w}[${r.commits.map((c) => `"${c}"`).join(`${r.w},`)}]${r.w},null,null,${r.p},${r.m}]`;
        const parts = [`"method":"get_outputs"`, `"params":${r.w}${params}`, `"id":${r.id}`];
        if (r.version) parts.push('"jsonrpc":"2.0"');
        if (r.order) parts.reverse();
        return `{${r.w}${parts.join(`,${r.w}`)}}`;
      });
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const reply = await asText(fast.reply(bytes(text), ask));
        if (reply === undefined) return;
        answered++;
        assert.deepEqual(reply, await handleJsonRpc(bytes(text), fullTable));
      }),
      { numRuns: 500 },
    );
    assert.ok(answered > 50, `only ${answered} of 500 answered`);
  });
});
