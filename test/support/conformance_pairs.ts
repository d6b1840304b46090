// The `/v1` ↔ `/v2` pairs of spec §4.5 (interface.md): for each, both are fetched and the /v1
// payload must equal the /v2 `result.Ok` once parsed (/v1 prints declaration order, /v2 sorted
// keys). What "the same payload" means where Epic's two shapes differ is the item 7 and
// the README: /v1/pool = {pool_size, stempool_size, txs}, /v1/peers/<addr> = get_peers' array,
// byids/byheight = get_outputs' OutputPrintable[], lastkernels = get_last_n_kernels' kernels.
// A unit result (`Ok(null)`) is acknowledged on /v1 by Epic's text `{}` (ban, unban) or `null`
// (ours for validate, compact); push_tx answers an empty body.
import assert from 'node:assert/strict';
import { toHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Output } from '../../core/types/transaction.js';
import { blocks, commitOf, hashOf, spentTx } from '../e2e/chain_reads_chain.js';
import { BANNABLE, KNOWN } from './conformance_owner.js';
import { spendCoinbase } from './spend.js';

/** The routes of spec §4.5's table that name an equivalent JSON-RPC method (22 of 27). */
export const SPEC_PAIRED_ROUTES: readonly string[] = [
  '/v1/status',
  '/v1/chain',
  '/v1/chain/validate',
  '/v1/chain/compact',
  '/v1/blocks/<hash_or_height>',
  '/v1/headers/<hash_or_height_or_commit>',
  '/v1/chain/kernels/<excess>',
  '/v1/chain/outputs/byids',
  '/v1/chain/outputs/byheight',
  '/v1/txhashset/lastkernels',
  '/v1/txhashset/outputs',
  '/v1/txhashset/merkleproof',
  '/v1/pool',
  '/v1/pool/push_tx',
  '/v1/peers/all',
  '/v1/peers/connected',
  '/v1/peers/<addr>',
  '/v1/peers/<addr>/ban',
  '/v1/peers/<addr>/unban',
  '/v1/peers/onion_addresses',
  '/v1/version',
  '/v1/mining/block_template',
];

export interface PairClient {
  v1(verb: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }>;
  /** The whole parsed reply of a JSON-RPC call. */
  v2(surface: 'owner' | 'foreign', method: string, params: JsonValue[]): Promise<JsonValue>;
}

export interface Pair {
  /** The spec's route and method, as its §4.5 table names them. */
  readonly route: string;
  readonly method: string;
  readonly check: (c: PairClient) => Promise<void>;
}

const okOf = (reply: JsonValue): JsonValue => {
  const r = reply as { result?: { Ok?: JsonValue } };
  assert.ok(r.result !== undefined && 'Ok' in r.result, stringifyJson(reply));
  return r.result.Ok as JsonValue;
};

/** A plain pair: GET `path` 200, its parsed body equal to `method(params)`'s Ok. */
function same(
  route: string,
  surface: 'owner' | 'foreign',
  method: string,
  path: string,
  params: JsonValue[],
): Pair {
  return {
    route,
    method,
    check: async (c) => {
      const v1 = await c.v1('GET', path);
      assert.equal(v1.status, 200, `${path}: ${v1.text}`);
      assert.deepEqual(parseJson(v1.text), okOf(await c.v2(surface, method, params)), path);
    },
  };
}

/** A unit operation: /v1 acknowledges with `ack`, /v2 with `Ok(null)`. */
function unit(
  route: string,
  method: string,
  v1: () => Promise<{ status: number; text: string }>,
  v2: () => Promise<JsonValue>,
  ack: string,
): Pair {
  return {
    route,
    method,
    check: async () => {
      assert.deepEqual(await v1(), { status: 200, text: ack });
      assert.equal(okOf(await v2()), null);
    },
  };
}

export function pairs(): Pair[] {
  const b = (h: number) => blocks[h] as Block;
  const excess = toHex(spentTx.body.kernels[0]?.excess ?? new Uint8Array());
  const cb = (h: number) => commitOf(b(h).body.outputs[0] as Output);
  const txOut = commitOf(spentTx.body.outputs[0] as Output);
  const ip = BANNABLE.split(':')[0] as string;
  return [
    same('/v1/status', 'owner', 'get_status', '/v1/status', []),
    same('/v1/chain', 'foreign', 'get_tip', '/v1/chain', []),
    same('/v1/blocks/<hash_or_height>', 'foreign', 'get_block', '/v1/blocks/3', [3, null, null]),
    same(
      '/v1/headers/<hash_or_height_or_commit>',
      'foreign',
      'get_header',
      `/v1/headers/${toHex(hashOf(3))}`,
      [null, toHex(hashOf(3)), null],
    ),
    same('/v1/chain/kernels/<excess>', 'foreign', 'get_kernel', `/v1/chain/kernels/${excess}`, [
      excess,
      null,
      null,
    ]),
    same(
      '/v1/chain/outputs/byids',
      'foreign',
      'get_outputs',
      `/v1/chain/outputs/byids?id=${cb(6)},${txOut}`,
      [[cb(6), txOut], null, null, false, false],
    ),
    same(
      '/v1/chain/outputs/byheight',
      'foreign',
      'get_outputs',
      '/v1/chain/outputs/byheight?start_height=2&end_height=5',
      [null, 2, 5, false, true],
    ),
    same(
      '/v1/txhashset/lastkernels',
      'foreign',
      'get_last_n_kernels',
      '/v1/txhashset/lastkernels?n=3',
      [3],
    ),
    same(
      '/v1/txhashset/outputs',
      'foreign',
      'get_unspent_outputs',
      '/v1/txhashset/outputs?start_index=1&max=4',
      [1, null, 4, true],
    ),
    same('/v1/peers/all', 'owner', 'get_peers', '/v1/peers/all', [null]),
    same('/v1/peers/connected', 'owner', 'get_connected_peers', '/v1/peers/connected', []),
    same('/v1/peers/<addr>', 'owner', 'get_peers', `/v1/peers/${KNOWN}`, [KNOWN]),
    same('/v1/version', 'foreign', 'get_version', '/v1/version', []),
    same(
      '/v1/mining/block_template',
      'foreign',
      'get_block_template',
      '/v1/mining/block_template',
      [],
    ),
    {
      // The Merkle proof get_outputs gives an unspent coinbase of the head block is the one
      // /v1/txhashset/merkleproof gives against the current output MMR.
      route: '/v1/txhashset/merkleproof',
      method: 'get_outputs',
      check: async (c) => {
        const v1 = await c.v1('GET', `/v1/txhashset/merkleproof?id=${cb(6)}`);
        assert.equal(v1.status, 200, v1.text);
        const placeholder = parseJson(v1.text) as { merkle_proof: string; mmr_index: number };
        const [out] = okOf(
          await c.v2('foreign', 'get_outputs', [[cb(6)], null, null, false, true]),
        ) as {
          merkle_proof: string;
          mmr_index: number;
        }[];
        assert.deepEqual(
          { merkle_proof: placeholder.merkle_proof, mmr_index: placeholder.mmr_index },
          { merkle_proof: out?.merkle_proof, mmr_index: out?.mmr_index },
        );
      },
    },
    {
      route: '/v1/pool',
      method: 'get_pool_size',
      check: async (c) => {
        const v1 = await c.v1('GET', '/v1/pool');
        const entries = okOf(await c.v2('foreign', 'get_unconfirmed_transactions', [])) as {
          tx: JsonValue;
        }[];
        assert.deepEqual(parseJson(v1.text), {
          pool_size: okOf(await c.v2('foreign', 'get_pool_size', [])),
          stempool_size: okOf(await c.v2('foreign', 'get_stempool_size', [])),
          txs: entries.map((e) => e.tx),
        });
      },
    },
    {
      // No mature coinbase is left unspent: both refuse the same immature spend alike.
      route: '/v1/pool/push_tx',
      method: 'push_transaction',
      check: async (c) => {
        const tx = transactionToJson(spendCoinbase(5));
        const v1 = await c.v1(
          'POST',
          '/v1/pool/push_tx',
          stringifyJson({ method: 'push_transaction', params: [{ body: tx }] }),
        );
        const v2 = (await c.v2('foreign', 'push_transaction', [tx, false])) as {
          result: { Err: { Internal: string } };
        };
        assert.deepEqual(v1, {
          status: 500,
          text: `failed: Internal error: ${v2.result.Err.Internal}`,
        });
      },
    },
    {
      route: '/v1/peers/onion_addresses',
      method: 'get_onion_addresses',
      check: async (c) => {
        const v1 = parseJson((await c.v1('GET', '/v1/peers/onion_addresses')).text) as {
          onion_addresses: JsonValue;
        };
        assert.deepEqual(v1.onion_addresses, okOf(await c.v2('owner', 'get_onion_addresses', [])));
      },
    },
    {
      // Stored, not connected: both ban (and say PeerNotFound); both unban with a unit answer.
      route: '/v1/peers/<addr>/ban',
      method: 'ban_peer',
      check: async (c) => {
        assert.deepEqual(await c.v1('POST', `/v1/peers/${ip}/ban`), {
          status: 500,
          text: 'ban failed: PeerNotFound',
        });
        assert.deepEqual(await c.v2('owner', 'ban_peer', [BANNABLE]), {
          id: 1,
          jsonrpc: '2.0',
          result: { Err: { Internal: 'ban peer error: PeerNotFound' } },
        });
      },
    },
  ];
}

/** Pairs that change state (validate is pure but slow; compact may prune): run last. */
export function latePairs(c: PairClient): Pair[] {
  const ip = BANNABLE.split(':')[0] as string;
  return [
    unit(
      '/v1/peers/<addr>/unban',
      'unban_peer',
      () => c.v1('POST', `/v1/peers/${ip}/unban`),
      async () => {
        await c.v2('owner', 'ban_peer', [BANNABLE]);
        return c.v2('owner', 'unban_peer', [BANNABLE]);
      },
      'null',
    ),
    unit(
      '/v1/chain/validate',
      'validate_chain',
      () => c.v1('GET', '/v1/chain/validate'),
      () => c.v2('owner', 'validate_chain', []),
      'null',
    ),
    unit(
      '/v1/chain/compact',
      'compact_chain',
      () => c.v1('POST', '/v1/chain/compact'),
      () => c.v2('owner', 'compact_chain', []),
      'null',
    ),
  ];
}
