// serde (JSON) forms of raw headers, blocks and transactions: exact text, exact round trips.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { genesisBlock, genesisHeader } from '../../core/genesis.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import { headerHash } from '../../core/ser/header.js';
import {
  blockFromJson,
  blockToJson,
  headerFromJson,
  headerToJson,
} from '../../core/serde/block.js';
import { JsonFormError } from '../../core/serde/fields.js';
import {
  commitmentFromJson,
  transactionFromJson,
  transactionToJson,
} from '../../core/serde/transaction.js';
import { formatRfc3339, formatUtcZ, parseRfc3339 } from '../../core/time.js';
import type { BlockHeader } from '../../core/types/block.js';

const mainnet = CHAIN_PARAMS.mainnet;
const arr = (hex: string): string => `[${Array.from(Buffer.from(hex, 'hex')).join(',')}]`;
const ZERO32 = arr('00'.repeat(32));

describe('raw header JSON', () => {
  it('mainnet genesis, field for field', () => {
    const nonces = [
      4391451, 36730677, 38198400, 38797304, 60700446, 72910191, 73050441, 110099816, 140885802,
      145512513, 149311222, 149994636, 157557529, 160778700, 162870981, 179649435, 194194460,
      227378628, 230933064, 252046196, 272053956, 277878683, 288331253, 290266880, 293973036,
      305315023, 321927758, 353841539, 356489212, 373843111, 381697287, 389274717, 403108317,
      409994705, 411629694, 431823422, 441976653, 521469643, 521868369, 523044572, 524964447,
      530250249,
    ];
    const want =
      `{"version":6,"height":0,"prev_hash":${ZERO32},` +
      `"prev_root":${arr('00000000000000000004de683e7aa4d35c51f46ec76c6852b0f3161bd1e2e00e')},` +
      '"timestamp":"2019-08-09T17:04:38Z",' +
      `"output_root":${arr('b10fe806a4373d9b8d8edde98a4ec39d726b542036971c2f14c0738b0605c9cd')},` +
      `"range_proof_root":${arr('e05333e51d9294f08cd6d2d7cea19de2843f92c285a61fd5d61d771c3ac74222')},` +
      `"kernel_root":${arr('4d9ddf437dfbb86f8563ac4e96a0d86842eda609a5125244f43261d4188292e4')},` +
      `"total_kernel_offset":${ZERO32},"output_mmr_size":0,"kernel_mmr_size":0,` +
      '"pow":{"total_difficulty":{"cuckaroo":4,"cuckatoo":16384,"randomx":4194304,"progpow":1073741824},' +
      `"secondary_scaling":1856,"nonce":41,"proof":{"CuckooProof":{"edge_bits":29,"nonces":[${nonces.join(',')}]}},` +
      `"seed":${ZERO32}},"policy":0,"bottles":{"cuckaroo":1,"cuckatoo":0,"randomx":0,"progpow":0}}`;
    assert.equal(stringifyJson(headerToJson(genesisHeader('mainnet'))), want);
    const back = headerFromJson(parseJson(want), 'header', mainnet);
    assert.equal(
      Buffer.from(headerHash(back, mainnet)).toString('hex'),
      '454018a56d86e37611bdcabc7de670305c3f3dc9675e314b437f1adc29430851',
    );
  });

  it('RandomX and ProgPow proofs, u64 values above 2^53, any timestamp offset', () => {
    const base = genesisHeader('mainnet');
    const header: BlockHeader = {
      ...base,
      version: 6,
      height: 1_234_567n,
      timestamp: 1_714_564_860,
      outputMmrSize: 18_446_744_073_709_551_615n,
      pow: {
        ...base.pow,
        nonce: 9_007_199_254_740_993n,
        proof: { kind: 'RandomX', hash: new Uint8Array(32).fill(7) },
      },
    };
    const text = stringifyJson(headerToJson(header));
    assert.match(text, /"timestamp":"2024-05-01T12:01:00Z"/);
    assert.match(text, /"output_mmr_size":18446744073709551615,/);
    assert.match(text, /"nonce":9007199254740993,"proof":\{"RandomXProof":\{"hash":\[7,7,/);
    assert.equal(stringifyJson(headerToJson(headerFromJson(parseJson(text), 'h', mainnet))), text);
    const shifted = text.replace('2024-05-01T12:01:00Z', '2024-05-01T14:01:00.999+02:00');
    assert.equal(headerFromJson(parseJson(shifted), 'h', mainnet).timestamp, 1_714_564_860);
    const pp = {
      ...header,
      pow: { ...header.pow, proof: { kind: 'ProgPow', mix: new Uint8Array(32).fill(1) } as const },
    };
    assert.match(stringifyJson(headerToJson(pp)), /"proof":\{"ProgPowProof":\{"mix":\[1,1,/);
  });

  it('names the field that is wrong', () => {
    const o = parseJson(stringifyJson(headerToJson(genesisHeader('mainnet')))) as Record<
      string,
      unknown
    >;
    const bad = (patch: Record<string, unknown>, message: string) =>
      assert.throws(
        () => headerFromJson({ ...o, ...patch }, 'header', mainnet),
        (e: unknown) => e instanceof JsonFormError && e.message === message,
      );
    bad({ height: -1 }, 'header.height: integer -1 out of range for u64');
    bad({ timestamp: '2019-02-30T00:00:00Z' }, 'header.timestamp: invalid RFC 3339 timestamp');
    bad({ prev_hash: [1, 2] }, 'header.prev_hash: expected an array of 32 bytes, got 2');
    bad(
      { bottles: { cuckoo: 1 } },
      'header.bottles.cuckoo: unknown variant `cuckoo`, expected one of cuckaroo, cuckatoo, randomx, progpow',
    );
    const { pow: _pow, ...noPow } = o;
    assert.throws(
      () => headerFromJson(noPow, 'header', mainnet),
      /^JsonFormError: header: missing field `pow`$/,
    );
  });
});

describe('block and transaction JSON', () => {
  it('genesis block', () => {
    const text = stringifyJson(blockToJson(genesisBlock('floonet')));
    assert.ok(text.endsWith('"body":{"inputs":[],"outputs":[],"kernels":[]}}'));
    assert.equal(
      stringifyJson(blockToJson(blockFromJson(parseJson(text), 'block', CHAIN_PARAMS.floonet))),
      text,
    );
  });

  it('transaction with every kernel variant', () => {
    const commit = `08${'ab'.repeat(32)}`;
    const text =
      `{"offset":"${'11'.repeat(32)}","body":{"inputs":[{"features":"Coinbase","commit":"${commit}"}],` +
      `"outputs":[{"features":"Plain","commit":"${commit}","proof":"${'cd'.repeat(675)}"}],"kernels":[` +
      `{"features":{"Plain":{"fee":18446744073709551615}},"excess":"${commit}","excess_sig":"${'01'.repeat(64)}"},` +
      `{"features":{"HeightLocked":{"fee":7,"lock_height":99}},"excess":"${commit}","excess_sig":"${'02'.repeat(64)}"},` +
      `{"features":"Coinbase","excess":"${commit}","excess_sig":"${'03'.repeat(64)}"}]}}`;
    assert.equal(
      stringifyJson(transactionToJson(transactionFromJson(parseJson(text), 'tx'))),
      text,
    );
  });

  it('a short commitment is zero-padded to 33 bytes (Epic api commitment test)', () => {
    const c = commitmentFromJson(
      '123456789abcdef0112233445566778899aabbccddeeff000102030405060708',
      'commit',
    );
    assert.equal(
      Buffer.from(c).toString('hex'),
      '123456789abcdef0112233445566778899aabbccddeeff00010203040506070800',
    );
  });
});

describe('time formats', () => {
  it('prints both forms and parses them back', () => {
    assert.equal(formatUtcZ(1_565_370_278), '2019-08-09T17:04:38Z');
    assert.equal(formatRfc3339(1_565_370_278), '2019-08-09T17:04:38+00:00');
    assert.equal(formatUtcZ(870_652_800), '1997-08-04T00:00:00Z');
    assert.equal(formatUtcZ(-1), '1969-12-31T23:59:59Z');
    assert.equal(formatUtcZ(253_402_300_800), '+10000-01-01T00:00:00Z');
    assert.equal(formatUtcZ(-62_167_219_201), '-0001-12-31T23:59:59Z');
    for (const t of [
      0, 1_565_370_278, -1, 253_402_300_800, -62_167_219_201, 8_210_298_412_799, -8_334_632_937_600,
    ]) {
      assert.equal(parseRfc3339(formatUtcZ(t)), t);
      assert.equal(parseRfc3339(formatRfc3339(t)), t);
    }
    assert.equal(parseRfc3339('2019-08-09 17:04:38Z'), null);
  });
});
