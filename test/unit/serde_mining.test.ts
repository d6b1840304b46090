// JSON of the mining flow (node-api §8): field names and shapes as Epic prints them, exact u64
// values, round trips, and the errors a malformed request gets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { templatePrePow, templatePrePowHex } from '../../core/chain/block_build.js';
import { chainParams } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { blockFromJson, blockToJson, headerToJson } from '../../core/serde/block.js';
import { JsonFormError } from '../../core/serde/fields.js';
import {
  type BlockTemplate,
  blockTemplateFromJson,
  blockTemplateToJson,
  coinbaseDataFromJson,
  coinbaseDataToJson,
  type FinalizedBlockTemplate,
  finalizedTemplateFromJson,
  finalizedTemplateToJson,
} from '../../core/serde/mining.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { BlockHeader } from '../../core/types/block.js';
import { SHARED_VECTORS } from '../support/paths.js';
import { threeTxs } from './chain/blockbuild_fixtures.js';

const params = chainParams('mainnet');
const sorted = (v: Parameters<typeof stringifyJson>[0]) => stringifyJson(v, { sortKeys: true });
const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7);

// The first record of Epic's floonet foundation file: node-api §8.2's example coinbase.
const FLOONET_LINE = readFileSync(join(SHARED_VECTORS, 'foundation_floonet.jsonl'), 'utf8').split(
  '\n',
)[0] as string;

const header: BlockHeader = {
  ...genesisHeader('mainnet'),
  height: 2_500_001n,
  timestamp: 1_714_564_860,
  outputMmrSize: 21_000_457n,
  kernelMmrSize: 9_100_233n,
  policy: 3,
  bottles: { cuckaroo: 0, cuckatoo: 3, randomx: 44, progpow: 40 },
  pow: {
    ...genesisHeader('mainnet').pow,
    nonce: 12_345_678_901_234_567_890n,
    proof: { kind: 'RandomX', hash: SEED },
    seed: SEED,
  },
};

function template(): BlockTemplate {
  return {
    header,
    transactions: [threeTxs().tx2],
    height: 2_500_001n,
    algorithm: 'randomx',
    blockDifficulty: { cuckaroo: 1n, cuckatoo: 1502n, randomx: 11_503_104n, progpow: 87_011_215n },
    epochs: [{ start: 2_499_060n, end: 2_500_060n, seedHash: SEED }],
  };
}

describe('BlockTemplate JSON', () => {
  it('prints Epic’s fields: u64s exact, difficulty map, epochs as [start, end, [32 ints]]', () => {
    const t = template();
    const text = sorted(blockTemplateToJson(t));
    const want =
      '{"algorithm":"randomx",' +
      '"block_difficulty":{"cuckaroo":1,"cuckatoo":1502,"progpow":87011215,"randomx":11503104},' +
      `"epochs":[[2499060,2500060,[${Array.from(SEED).join(',')}]]],` +
      `"header":${sorted(headerToJson(header))},` +
      '"height":2500001,' +
      `"transactions":[${sorted(transactionToJson(threeTxs().tx2))}]}`;
    assert.equal(text, want);
    assert.ok(text.includes('"nonce":12345678901234567890'));
    assert.ok(text.includes('"proof":{"RandomXProof":{"hash":[0,7,14,'));
  });

  it('round-trips', () => {
    const t = template();
    const back = blockTemplateFromJson(parseJson(sorted(blockTemplateToJson(t))), '', params);
    assert.deepEqual(back, t);
  });

  it('refuses an unknown algorithm and a malformed epoch', () => {
    const v = blockTemplateToJson(template()) as Record<string, unknown>;
    assert.throws(
      () => blockTemplateFromJson({ ...v, algorithm: 'cuckatoo' }, 'r', params),
      (e: unknown) => e instanceof JsonFormError && e.path === 'r.algorithm',
    );
    assert.throws(
      () => blockTemplateFromJson({ ...v, epochs: [[1, 2]] }, 'r', params),
      (e: unknown) => e instanceof JsonFormError && e.path === 'r.epochs[0]',
    );
  });
});

describe('CoinbaseData (finalize_block_template parameter)', () => {
  it('takes the wallet’s CbData as is, key_id ignored', () => {
    const cb = coinbaseDataFromJson(parseJson(FLOONET_LINE), 'params[0]');
    assert.equal(
      stringifyJson(coinbaseDataToJson(cb)),
      FLOONET_LINE.replace(/,"key_id":"[0-9a-f]{34}"\}$/, '}'),
    );
  });

  it('names a missing or malformed field by its path', () => {
    assert.throws(
      () => coinbaseDataFromJson({ output: {} }, 'params[0]'),
      (e: unknown) => e instanceof JsonFormError && e.path === 'params[0].output',
    );
    const line = parseJson(FLOONET_LINE) as Record<string, unknown>;
    assert.throws(
      () => coinbaseDataFromJson({ output: line.output }, 'params[0]'),
      (e: unknown) => e instanceof JsonFormError && /missing field `kernel`/.test(e.message),
    );
  });
});

describe('FinalizedBlockTemplate JSON', () => {
  function finalized(): FinalizedBlockTemplate {
    const cb = coinbaseDataFromJson(parseJson(FLOONET_LINE), '');
    return {
      header,
      prePow: templatePrePow(header),
      height: 2_500_001n,
      transactions: [],
      coinbaseOutput: cb.output,
      coinbaseKernel: cb.kernel,
    };
  }

  it('prints header, pre_pow (448 hex), height, transactions, the coinbase as sent', () => {
    const text = sorted(finalizedTemplateToJson(finalized()));
    const cbText = sorted(coinbaseDataToJson(coinbaseDataFromJson(parseJson(FLOONET_LINE), '')));
    const cb = parseJson(cbText) as Record<string, unknown>;
    const want =
      `{"coinbase_kernel":${sorted(cb.kernel as never)},` +
      `"coinbase_output":${sorted(cb.output as never)},` +
      `"header":${sorted(headerToJson(header))},` +
      '"height":2500001,' +
      `"pre_pow":"${templatePrePowHex(header)}",` +
      '"transactions":[]}';
    assert.equal(text, want);
    assert.ok(text.includes('"pre_pow":"00000000002625a10000000066322efc'));
    assert.equal(templatePrePowHex(header).length, 448);
  });

  it('round-trips; a pre_pow of another length is refused', () => {
    const f = finalized();
    const v = finalizedTemplateToJson(f) as Record<string, unknown>;
    assert.deepEqual(finalizedTemplateFromJson(parseJson(sorted(v)), '', params), f);
    assert.throws(
      () => finalizedTemplateFromJson({ ...v, pre_pow: 'ab'.repeat(223) }, 'r', params),
      (e: unknown) => e instanceof JsonFormError && e.path === 'r.pre_pow',
    );
  });
});

describe('submit_block parameter', () => {
  it('a block of the finalized header and coinbase round-trips through the raw block form', () => {
    const cb = coinbaseDataFromJson(parseJson(FLOONET_LINE), '');
    const block = { header, body: { inputs: [], outputs: [cb.output], kernels: [cb.kernel] } };
    const text = sorted(blockToJson(block));
    assert.deepEqual(blockFromJson(parseJson(text), 'params[0]', params), block);
  });
});
