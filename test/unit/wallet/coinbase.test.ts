// The wallet's build_coinbase / build_foundation (core/wallet/coinbase.ts): Epic's doc vector
// (wallet reference §9.8, §10.1.10, §10.3: wallet 1 after 4 doc blocks, AutomatedTesting, test
// mode) byte for byte, key choice and child counter, the output record, foundation lines of
// Epic's foundation test file, and BlockFees parsing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { verifyRange } from '../../../core/crypto/bulletproof/index.js';
import { verifyKernel } from '../../../core/crypto/kernel.js';
import { parseJson } from '../../../core/json/parse.js';
import { stringifyJson } from '../../../core/json/stringify.js';
import { ExtKeychain } from '../../../core/keychain/keychain.js';
import { JsonFormError } from '../../../core/serde/fields.js';
import {
  BlockFeesError,
  blockFeesFromJson,
  buildCoinbase,
  buildFoundation,
  type CoinbaseContext,
  chooseCoinbaseKey,
  coinbaseValue,
} from '../../../core/wallet/coinbase.js';
import { SHARED_VECTORS } from '../../support/paths.js';

export const WALLET1 =
  'fat twenty mean degree forget shell check candy immense awful flame next during february ' +
  'bulb bike sun wink theory day kiwi embrace peace lunch';
const DEFAULT_ACCOUNT = '0200000000000000000000000000000000';

// §10.3
const PROOF =
  '10437a3646185865241c3459c70cd3e1231a78098d29ba5fd9517aa5bb0890be089157af72d1827113d32a60c8708f83d86be0c154eb23e94b1e3c9130b970090626b2c7da298ce3a52bece998ebc1b8cc0bbc4a974a35194336f32b89cfc787a4dd793cc9626cf01bf08febe0f3e0e06ab6970e3fc9704be457856a693ee2d4508ccabd3ee259da025ff96d3905c62b9318072be0ee38ecd8b1d6097da655489084821d56bb693f7a98da23cdedc708d4b0e1033d0dfe14eef590a9b4776a07a2b9eff0f34ca2e51832a7b9930eaf215c30d60e4219af25c6da985e879a5552c429010be0dcf7405dce523d7c23e800227e7b39be3e8cd6186e4212c2471a038cbc543228e27b16c5e32214ca807fe2c82252cfddf77cc8082ee630bb951b02d7d56e8b857f9d8d2a514cb92695ed3d3a4056b6529b6f8e213d89935f0229755243a02f2c94ef828d1bc74f8cc960b7744d09c6b087269b2f1fcd4cf7c5d57ea45402a45bf2eeab519402e33dd51c9b5a1afb109d0994fc4d252d3820822b7c24800f37f908a8312e01c20ed3c6786c8205bc69d88ecd5484a6474cd9ab223529067eab8e4969621a8e84307b1981c26270ccb137575cc1cace7e9f465633dec761a11d1f137f7a5268ee71e5a43ea6c67400ce422dbeefc88d7568abc7ad332ef14fc6bc625f0fe5fbecbbcda32175bc7a044248b877aa2b26d14530670750961fa3acb47a3a362776aef679f2468d5c6d543cfe9d0f711c7506de6c71502bd228102eff29e53d3b8358eaaedfd1c0bbe484b544c39f14a5134b726c3c3518a0a455ddada5f9967e7ca769fe5dec827a13e01b2897f39dbd507d4a908016efaef6d3ea3888f6ef8d32087f7ddcc18124be7d1809b751585085d259827b8921d8d032a20db5dd5548d2a21727e472e1a1dcd06697953c2e015a74a7fd1aa7bc03d166';

const keychain = ExtKeychain.fromWalletMnemonic(WALLET1);

function ctx(over: Partial<CoinbaseContext> = {}): CoinbaseContext {
  return {
    chainType: 'automated',
    keychain,
    parentKeyId: DEFAULT_ACCOUNT,
    nextChild: 4,
    hasOutput: () => false,
    testMode: true,
    ...over,
  };
}

describe('buildCoinbase: Epic doc vector (§9.8)', () => {
  const built = buildCoinbase(ctx(), { fees: 0n, height: 0n, keyId: null });

  it('answers the doc CoinbaseV3 exactly', () => {
    const want = {
      output: {
        features: 'Coinbase',
        commit: '09bfff863041e74c3068e8b43b2120aed60d5271c07bbf9d6172a8cefa8be6600a',
        proof: PROOF,
      },
      kernel: {
        features: 'Coinbase',
        fee: '0',
        lock_height: '0',
        excess: '0817b0f50ed29f9641d0741185205f1bfa15b80c727a7a99597fe2ceb073cfc73d',
        excess_sig:
          '8f07ddd5e9f5179cff19486034181ed76505baaad53e5d994064127b56c5841b97f48d17b7a42e23a4264ba232741797fef770808ca29450e35fdc3faaa6eb04',
      },
      key_id: '0300000000000000000000000400000000',
    };
    assert.equal(stringifyJson(built.json), stringifyJson(want));
  });

  it('takes child 4 of the account and advances the counter', () => {
    assert.equal(built.keyId, '0300000000000000000000000400000000');
    assert.equal(built.nextChild, 5);
  });

  it('records an unconfirmed coinbase of reward(0, 0) locked for the maturity', () => {
    assert.deepEqual(built.output, {
      rootKeyId: DEFAULT_ACCOUNT,
      keyId: '0300000000000000000000000400000000',
      nChild: 4,
      commit: '09bfff863041e74c3068e8b43b2120aed60d5271c07bbf9d6172a8cefa8be6600a',
      mmrIndex: null,
      value: 1_600_000_000n,
      status: 'Unconfirmed',
      height: 0n,
      lockHeight: 3n,
      isCoinbase: true,
      txLogEntry: null,
    });
  });

  it('builds a valid proof and kernel', () => {
    assert.equal(verifyRange(built.parts.output.commit, built.parts.output.proof), true);
    assert.equal(verifyKernel(built.parts.kernel), true);
  });
});

describe('buildCoinbase: key choice (receive_coinbase)', () => {
  const stored = '0300000000000000000000000200000000';
  const has = (id: string) => id === stored;

  it('reuses a requested key that names a stored output, counter unchanged', () => {
    const r = chooseCoinbaseKey(
      { parentKeyId: DEFAULT_ACCOUNT, nextChild: 7, hasOutput: has },
      stored,
    );
    assert.deepEqual(r, { keyId: stored, nextChild: 7 });
  });

  it('ignores a requested key the wallet does not hold', () => {
    const r = chooseCoinbaseKey(
      { parentKeyId: DEFAULT_ACCOUNT, nextChild: 7, hasOutput: has },
      '0300000000000000000000000900000000',
    );
    assert.deepEqual(r, { keyId: '0300000000000000000000000700000000', nextChild: 8 });
  });

  it('derives below another account', () => {
    const r = chooseCoinbaseKey(
      { parentKeyId: '0200000001000000000000000000000000', nextChild: 0, hasOutput: has },
      null,
    );
    assert.deepEqual(r, { keyId: '0300000001000000000000000000000000', nextChild: 1 });
  });

  it('reused key at a new height: record and lock height follow the new block', () => {
    const b = buildCoinbase(ctx({ hasOutput: has }), { fees: 5n, height: 10n, keyId: stored });
    assert.equal(b.keyId, stored);
    assert.equal(b.nextChild, 4);
    assert.equal(b.output.value, 1_457_920_005n);
    assert.equal(b.output.height, 10n);
    assert.equal(b.output.lockHeight, 13n);
    assert.equal(b.output.nChild, 2);
  });
});

describe('coinbaseValue: the miner share of consensus reward()', () => {
  it('automated testing: 16 EPIC less the 8.88% levy after genesis', () => {
    assert.equal(coinbaseValue('automated', 0n, 0n), 1_600_000_000n);
    assert.equal(coinbaseValue('automated', 0n, 1n), 1_600_000_000n - 142_080_000n);
    assert.equal(coinbaseValue('automated', 7n, 1n), 1_457_920_007n);
  });

  it('mainnet maturity is a day: lock height = height + 1440', () => {
    const b = buildCoinbase(ctx({ chainType: 'mainnet' }), { fees: 0n, height: 100n, keyId: null });
    assert.equal(b.output.lockHeight, 1540n);
    assert.equal(b.output.value, coinbaseValue('mainnet', 0n, 100n));
  });
});

describe('buildFoundation: lines of Epic foundation test file', () => {
  const mnemonic =
    'shop dignity online camera various front stay prosper bench dash learn chimney huge crush ' +
    'develop rack beauty prison wear manual harbor theory bachelor exile';
  const fk = ExtKeychain.fromMnemonic(mnemonic, '', false);
  const lines = readFileSync(join(SHARED_VECTORS, 'foundation_test19.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  // The file's key ids are m/k at depth 1: children of the root id.
  const rootCtx = (n: number) =>
    ctx({ keychain: fk, parentKeyId: '0000000000000000000000000000000000', nextChild: n });

  for (const [i, height] of [
    [0, 5n],
    [1, 10n],
  ] as const) {
    it(`line ${i} (height ${height}) byte for byte`, () => {
      const b = buildFoundation(rootCtx(Number(height)), { fees: 0n, height, keyId: null });
      // The file holds the node's kernel form; CoinbaseV3 adds fee and lock_height.
      const want = (lines[i] as string)
        .replace(/\r$/, '')
        .replace(
          '"features":"Coinbase","excess"',
          '"features":"Coinbase","fee":"0","lock_height":"0","excess"',
        );
      assert.equal(stringifyJson(b.json), want);
      assert.equal(b.output.value, 710_400_000n);
      assert.equal(b.output.lockHeight, height + 3n);
    });
  }

  it('refuses a height that pays no levy (Epic asserts)', () => {
    assert.throws(
      () => buildFoundation(rootCtx(6), { fees: 0n, height: 6n, keyId: null }),
      (e: unknown) =>
        e instanceof BlockFeesError && /height 6 is not a foundation height/.test(e.message),
    );
  });
});

describe('blockFeesFromJson (string_or_u64, optional key id)', () => {
  it('takes the node form (strings) and the doc form (numbers)', () => {
    assert.deepEqual(blockFeesFromJson(parseJson('{"fees":"12","height":"1234","key_id":null}')), {
      fees: 12n,
      height: 1234n,
      keyId: null,
    });
    assert.deepEqual(blockFeesFromJson(parseJson('{"fees":0,"height":0}')), {
      fees: 0n,
      height: 0n,
      keyId: null,
    });
  });

  it('normalises a key id (lenient length, lowercase)', () => {
    const v = blockFeesFromJson(
      parseJson('{"fees":0,"height":1,"key_id":"03000000000000000000000004000000FF"}'),
    );
    assert.equal(v.keyId, '03000000000000000000000004000000ff');
    const short = blockFeesFromJson(parseJson('{"fees":0,"height":1,"key_id":"0300"}'));
    assert.equal(short.keyId, '0300000000000000000000000000000000');
  });

  it('refuses bad shapes with a JsonFormError naming the field', () => {
    const bad = (text: string, path: string) =>
      assert.throws(
        () => blockFeesFromJson(parseJson(text)),
        (e: unknown) => e instanceof JsonFormError && e.message.includes(path),
      );
    bad('{"fees":"-1","height":0}', 'block_fees.fees');
    bad('{"fees":"18446744073709551616","height":0}', 'block_fees.fees');
    bad('{"fees":0}', 'block_fees');
    bad('{"fees":0,"height":1.5}', 'block_fees.height');
    bad('{"fees":0,"height":1,"key_id":"zz"}', 'block_fees.key_id');
    bad('[]', 'block_fees');
  });
});
