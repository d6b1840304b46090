// Conformance rows of the pool (node-api reference §4.9, §5 tor, §6 `/v1/pool…`) and of the
// mining methods (§4.10, §8), in the order they run: each row leaves the pool as the next expects.
// Coinbases 2–4 are mature at height 7 (maturity 3 on automated testing); 6 is not.
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import { blockTemplateFromJson, blockTemplateToJson } from '../../core/serde/mining.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import { blocks, hashOf } from '../e2e/chain_reads_chain.js';
import { type Row, rawRpcRow, rpcRow, v1Pretty, v1Row, v2Text } from './conformance_rows.js';
import { AUTO } from './miner.js';
import { SPEND_FEE, spendCoinbase } from './spend.js';

const tx2 = spendCoinbase(2);
const tx3 = spendCoinbase(3);
const tx4 = spendCoinbase(4);
const immature = spendCoinbase(6);
const lowFee = spendCoinbase(3, 1n);
/** Coinbase 2 to the very output block 5's transaction created (key m/2/1/1, same value). */
const sameOutput = spendCoinbase(2, SPEND_FEE, 1);

/** tx4 with one bit of its kernel signature flipped. */
function badSignature(tx: Transaction): Transaction {
  const k = tx.body.kernels[0];
  if (k === undefined) throw new Error('a kernel');
  const sig = k.excessSig.slice();
  sig[40] = (sig[40] as number) ^ 1;
  return { ...tx, body: { ...tx.body, kernels: [{ ...k, excessSig: sig }] } };
}

const poolErr = (why: string) => ({ err: { Internal: `Failed to update pool: ${why}` } });
const json = transactionToJson;
const pushBody = (tx: JsonValue, method = 'push_transaction') =>
  stringifyJson({ method, params: [{ body: tx }] });

/** `GET /v1/pool`: compact, Epic's key order plus the spec's stempool_size. */
const poolText = (pool: number, stem: number, txs: Transaction[]) =>
  stringifyJson({ pool_size: pool, stempool_size: stem, txs: txs.map(json) });

/** The txpool's entries, with each entry's arrival time (unknowable here) taken from the reply. */
function entries(txs: Transaction[]): (got: string) => string {
  return (got) => {
    const reply = parseJson(got) as { result?: { Ok?: { tx_at?: JsonValue }[] } };
    const at = (reply.result?.Ok ?? []).map((e) => e.tx_at ?? null);
    const ok = txs.map((tx, i) => ({ src: 'PushApi', tx: json(tx), tx_at: at[i] ?? null }));
    return v2Text({ id: 1, jsonrpc: '2.0', result: { Ok: ok } });
  };
}

export function poolRows(): Row[] {
  const f = (m: string, p: JsonValue[], e: Parameters<typeof rpcRow>[3], ref = '§4.9') =>
    rpcRow('foreign', m, p, e, ref);
  const v1Push = (body: string, status: number, text: string) =>
    v1Row('POST', '/v1/pool/push_tx', status, text, '§6', { body });
  return [
    f('get_pool_size', [], { ok: 0 }),
    f('get_stempool_size', [], { ok: 0 }),
    f('get_unconfirmed_transactions', [], { ok: [] }),
    ...['get_pool_size', 'get_stempool_size', 'get_unconfirmed_transactions'].map((m) =>
      f(m, [1], { code: -32602, message: 'WrongNumberOfArgs. Expected 1. Actual 0' }),
    ),
    v1Row('GET', '/v1/pool', 200, poolText(0, 0, []), '§6, README (stempool_size)'),
    // Epic's chain adapter maps every chain refusal to this text (servers/src/common/adapters.rs).
    f(
      'push_transaction',
      [json(sameOutput), true],
      poolErr('General pool error: failed to validate tx'),
    ),
    {
      ...f('push_transaction', [json(sameOutput), true], poolErr('Duplicate commitment')),
      unreachable:
        'Epic declares PoolError::DuplicateCommitment but never raises it (the row above is what it says)',
    },
    {
      ...f(
        'push_transaction',
        [json(tx2), true],
        poolErr('Transaction lock height is greater than current block height'),
      ),
      unreachable:
        'not produced here: spend.ts signs Plain kernels only (test/unit/pool/admission.test.ts has it)',
    },
    f('push_transaction', [json(tx2), true], { ok: null }),
    f('push_transaction', [json(tx2), true], poolErr('Duplicate tx')),
    f('push_transaction', [json(immature), true], poolErr('Immature coinbase')),
    f('push_transaction', [json(lowFee), true], poolErr('Low fee transaction: 400000')),
    f(
      'push_transaction',
      [json(badSignature(tx4)), true],
      poolErr('Invalid Tx: Incorrect signature'),
    ),
    f('push_transaction', ['x', null], {
      code: -32602,
      message: 'InvalidArgStructure "tx" at position 0.',
    }),
    f('push_transaction', [json(tx2)], {
      code: -32602,
      message: 'WrongNumberOfArgs. Expected 1. Actual 2',
    }),
    {
      ...f('push_transaction', [json(tx2), true], {
        err: { Internal: 'Failed to get chain head: …' },
      }),
      unreachable: 'the head is in memory once the chain actor has started',
    },
    {
      ...f('push_transaction', [json(tx2), true], poolErr('Over capacity')),
      unreachable: 'the pool holds 50,000 transactions; the test chain has 5 spendable outputs',
    },
    // Tor: the same method, never behind a credential; stem with no relay falls back to fluff.
    rpcRow('tor', 'push_transaction', [json(tx3), false], { ok: null }, '§5'),
    rpcRow('tor', 'push_transaction', [json(immature), false], poolErr('Immature coinbase'), '§5'),
    rpcRow('tor', 'get_tip', [], { code: -32601, message: 'Method not found' }, '§5'),
    v1Push(pushBody(json(tx4)), 200, ''),
    v1Push(pushBody(json(tx4), 'push_tx'), 500, 'failed: Request error: Invalid method'),
    v1Push(
      '{"method":"push_transaction","params":{}}',
      500,
      'failed: Request error: Missing params',
    ),
    // Epic crashes on an empty params array (index out of range): refused as missing here.
    v1Push(
      '{"method":"push_transaction","params":[],"id":1}',
      500,
      'failed: Request error: Missing params',
    ),
    v1Push(
      pushBody({ body: 1 }),
      500,
      'failed: Request error: Bad tx object: missing field `offset`',
    ),
    v1Push(
      pushBody(json(immature)),
      500,
      'failed: Internal error: Failed to update pool: Immature coinbase',
    ),
    v1Push(
      '{',
      500,
      'failed: Request error: Invalid request body: EOF while parsing an object at line 1 column 1',
    ),
    f('get_pool_size', [], { ok: 3 }),
    f('get_stempool_size', [], { ok: 0 }),
    {
      ...f('get_unconfirmed_transactions', [], { ok: [] }),
      expectFrom: entries([tx2, tx3, tx4]),
    },
    v1Row('GET', '/v1/pool', 200, poolText(3, 0, [tx2, tx3, tx4]), '§6'),
  ];
}

/** The template the node keeps for the head: its random nonce comes from the reply. */
export function templateRows(fetchV1Template: () => Promise<string>): Row[] {
  const f = (m: string, p: JsonValue[], e: Parameters<typeof rpcRow>[3]) =>
    rpcRow('foreign', m, p, e, '§4.10, §8');
  const six = blocks[6] as Block;
  return [
    {
      ...f('get_block_template', [], { ok: null }),
      // The /v1 twin's payload (one template per head and pool state: the same random nonce),
      // printed as /v2 prints, with what is known here put in: the next height on block 6 and
      // the three pool transactions. The rest of the header is checked by mining on it (late rows).
      expectFrom: async () => {
        const v1 = parseJson(await fetchV1Template()) as { header: { [k: string]: JsonValue } };
        const known = {
          ...v1,
          header: { ...v1.header, height: 7, prev_hash: Array.from(hashOf(6)) },
          height: 7,
          algorithm: 'cuckoo',
          transactions: [tx2, tx3, tx4].map(json),
        };
        return v2Text({ id: 1, jsonrpc: '2.0', result: { Ok: known } });
      },
    },
    {
      ...v1Row('GET', '/v1/mining/block_template', 200, '', '§6, §8.1'),
      // Declaration order, as our template serde prints it, of the payload received.
      expectFrom: (got) =>
        v1Pretty(blockTemplateToJson(blockTemplateFromJson(parseJson(got), 'template', AUTO))),
    },
    f('get_block_template', [1], {
      code: -32602,
      message: 'WrongNumberOfArgs. Expected 1. Actual 0',
    }),
    f('finalize_block_template', [{}], {
      code: -32602,
      message: 'InvalidArgStructure "coinbase" at position 0.',
    }),
    f('submit_block', [blockToJson(six)], {
      err: { Internal: 'Block is unfit: already known in head' },
    }),
    f('submit_block', ['x'], {
      code: -32602,
      message: 'InvalidArgStructure "block" at position 0.',
    }),
    rawRpcRow(
      'foreign',
      'submit_block',
      '{"jsonrpc":"2.0","method":"submit_block","params":[],"id":1}',
      200,
      v2Text({
        error: { code: -32602, message: 'WrongNumberOfArgs. Expected 0. Actual 1' },
        id: 1,
        jsonrpc: '2.0',
      }),
      '§2.3',
    ),
  ];
}
