// What the request-form tests (request_forms.test.ts, request_forms_u64.test.ts) share: the
// chain of chain_reads_chain.ts plus block 7, mined with a nonce beyond 2^53, and helpers that
// post raw bodies and build the exact replies Epic gives.
import assert from 'node:assert/strict';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonObject, JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import type { Block } from '../../core/types/block.js';
import { httpTemplates, mineWith, type TemplateSource } from '../support/miner.js';
import { basic, ownerSecret } from '../support/node_process.js';
import { blocks, mineTestChain, text, theNode } from './chain_reads_chain.js';

export const U64_MAX = '18446744073709551615';
export const TWO_64 = '18446744073709551616';
/** The test miner starts its nonce search here: beyond 2^53, so a double would round it. */
export const BIG_NONCE = 2n ** 63n + 2n ** 53n + 1n;

export type Surface = 'foreign' | 'owner';
interface Reply {
  readonly status: number;
  readonly text: string;
}

export async function post(surface: Surface, body: string): Promise<Reply> {
  const node = theNode();
  const headers: Record<string, string> =
    surface === 'owner' ? { authorization: basic(ownerSecret(node.home)) } : {};
  const r = await fetch(`${node.url}/v2/${surface}`, { method: 'POST', headers, body });
  return { status: r.status, text: await r.text() };
}

/** A 200 reply with exactly `body`. */
export async function expect(surface: Surface, request: string, body: string): Promise<void> {
  assert.deepEqual(await post(surface, request), { status: 200, text: body }, request);
}

export const okReply = (id: JsonValue, v: JsonValue, version = true): string =>
  text(version ? { id, jsonrpc: '2.0', result: { Ok: v } } : { id, result: { Ok: v } });
export const errReply = (id: JsonValue, v: JsonValue): string =>
  text({ id, jsonrpc: '2.0', result: { Err: v } });
export const rpcError = (code: number, message: string, id: JsonValue, version = true): string =>
  text(
    version ? { error: { code, message }, id, jsonrpc: '2.0' } : { error: { code, message }, id },
  );
export const invalidArg = (name: string, at: number, id: JsonValue = 1): string =>
  rpcError(-32602, `InvalidArgStructure "${name}" at position ${at}.`, id);
export const PARSE_ERROR = rpcError(-32700, 'Parse error', null);

export const positional = (method: string, params: string, id = '1'): string =>
  `{"jsonrpc":"2.0","method":"${method}","params":${params},"id":${id}}`;
/** `method` with its underscore escaped: the fast path declines escapes. */
export const escaped = (method: string): string => method.replace('_', '\\u005f');

/** Mines the next block with the nonce search starting at BIG_NONCE. */
async function mineBigNonceBlock(url: string): Promise<Block> {
  const plain = httpTemplates(url);
  const source: TemplateSource = {
    template: () => plain.template(),
    finalize: async (cb) => {
      const f = (await plain.finalize(cb)) as JsonObject;
      ((f.header as JsonObject).pow as JsonObject).nonce = BIG_NONCE;
      return f;
    },
  };
  return mineWith(source);
}

export const IDS: readonly (readonly [string, JsonValue])[] = [
  ['1', 1],
  ['0', 0],
  [U64_MAX, 2n ** 64n - 1n],
  ['9007199254740993', 9007199254740993n],
  ['"abc"', 'abc'],
  ['""', ''],
  ['null', null],
];

/**
 * Starts the node, mines the chain of chain_reads_chain.ts (blocks 1–6) and block 7 with a nonce
 * beyond 2^53, submitted with a u64::MAX id; resolves with block 7.
 */
export async function startFormsChain(): Promise<Block> {
  await mineTestChain();
  const b7 = await mineBigNonceBlock(theNode().url);
  assert.ok(b7.header.pow.nonce >= BIG_NONCE && b7.header.pow.nonce < BIG_NONCE + 100_000n);
  // Submitted with a u64::MAX id: both the nonce and the id must survive.
  const block = stringifyJson(blockToJson(b7));
  await expect(
    'foreign',
    positional('submit_block', `[${block}]`, U64_MAX),
    okReply(2n ** 64n - 1n, null),
  );
  blocks.push(b7);
  return b7;
}
