// Difficulties beyond 2^53, which no test chain reaches: the per-algorithm map in the raw header
// (mining methods), the printable header and the tip (/v2 sorted keys and /v1), read and printed
// back digit for digit. The e2e tests (request_forms_u64.test.ts) cover the nonce on a real node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { genesisHeader } from '../../core/genesis.js';
import { parseJson } from '../../core/json/parse.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerFromJson, headerToJson } from '../../core/serde/block.js';
import { difficultyFromJson, difficultyToJson } from '../../core/serde/pow.js';
import { headerPrintable } from '../../core/serde/printable_block.js';
import type { BlockHeader } from '../../core/types/block.js';

const U64_MAX = 18446744073709551615n;
const BIG = {
  cuckaroo: 9007199254740993n,
  cuckatoo: 12345678901234567890n,
  randomx: U64_MAX,
  progpow: 2n ** 53n + 2n,
};
const BIG_TEXT =
  '{"cuckaroo":9007199254740993,"cuckatoo":12345678901234567890,' +
  '"randomx":18446744073709551615,"progpow":9007199254740994}';

function bigHeader(): BlockHeader {
  const g = genesisHeader('mainnet');
  return { ...g, pow: { ...g.pow, totalDifficulty: BIG, nonce: U64_MAX - 1n } };
}

describe('difficulties beyond 2^53', () => {
  it('the Difficulty map reads and prints exactly, in algorithm-id order', () => {
    assert.deepEqual(difficultyFromJson(parseJson(BIG_TEXT), 'd'), BIG);
    assert.equal(stringifyJson(difficultyToJson(BIG)), BIG_TEXT);
  });

  it('a raw header (mining methods) round-trips its difficulties and nonce', () => {
    const text = stringifyJson(headerToJson(bigHeader()));
    assert.ok(text.includes(`"pow":{"total_difficulty":${BIG_TEXT},`), text);
    assert.ok(text.includes('"nonce":18446744073709551614,'));
    const back = headerFromJson(parseJson(text), 'header', CHAIN_PARAMS.mainnet);
    assert.deepEqual(back.pow.totalDifficulty, BIG);
    assert.equal(stringifyJson(headerToJson(back)), text);
  });

  it('the printable header prints them on /v2 (sorted keys) and /v1 (declaration order)', () => {
    const printable = headerPrintable(bigHeader(), new Uint8Array(32));
    const v2 = stringifyJson(printable, { pretty: true, sortKeys: true });
    assert.ok(
      v2.includes(
        '  "total_difficulty": {\n    "cuckaroo": 9007199254740993,\n' +
          '    "cuckatoo": 12345678901234567890,\n    "progpow": 9007199254740994,\n' +
          '    "randomx": 18446744073709551615\n  },',
      ),
      v2,
    );
    assert.ok(v2.includes('  "nonce": 18446744073709551614,\n'));
    // What a client reads back is what was printed.
    const read = parseJson(v2) as { [k: string]: JsonValue };
    assert.deepEqual(read.total_difficulty, {
      cuckaroo: BIG.cuckaroo,
      cuckatoo: BIG.cuckatoo,
      progpow: BIG.progpow,
      randomx: BIG.randomx,
    });
    assert.equal(stringifyJson(read, { pretty: true, sortKeys: true }), v2);
  });

  it('integers on both sides of 2^53 keep their type and digits through parse and print', () => {
    for (const [text, value] of [
      ['9007199254740991', 9007199254740991],
      ['9007199254740992', 9007199254740992n],
      ['18446744073709551615', U64_MAX],
      ['18446744073709551616', U64_MAX + 1n],
    ] as const) {
      assert.equal(parseJson(text), value);
      assert.equal(stringifyJson(parseJson(text)), text);
    }
  });
});
