// The proof-of-work job through the real worker pool: valid proofs come back with their achieved
// difficulty, every invalid one with the exact cause, undecodable bytes as CorruptedData,
// RandomX as unavailable without a backend (and verified by the native addon where it is
// built) — and the verdicts stay in item order across chunks and workers.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fromHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { hashDifficulty } from '../../core/consensus/difficulty.js';
import { genesisHeader } from '../../core/genesis.js';
import { PowError } from '../../core/pow/errors.js';
import { setPrePowNonce } from '../../core/pow/keys.js';
import { md5Proof } from '../../core/pow/md5.js';
import { progpowHash, progpowHeaderHash } from '../../core/pow/progpow/index.js';
import { powDifficulty } from '../../core/pow/target.js';
import { MAX_VERIFIED_PROGPOW_EPOCH, verifyPow } from '../../core/pow/verify.js';
import { prePow } from '../../core/ser/header.js';
import type { Proof } from '../../core/types/pow.js';
import {
  decodePowItem,
  encodePowItem,
  POW_JOB,
  type PowItem,
  type PowVerdict,
  PROGPOW_CACHE_DIR_ENV,
  powItemOfHeader,
  RANDOMX_BACKEND_ENV,
  verifyPows,
} from '../../jobs/pow.js';
import { progpowCacheFor } from '../../jobs/progpow_cache.js';
import { loadRandomXAddon } from '../../jobs/randomx_addon.js';
import { WorkPool } from '../../runtime/workpool.js';

// The epoch-0 ProgPoW cache is built once (seconds) and persisted here, where the pool's
// workers load it; later runs load it too. Workers copy the environment when created.
const PROGPOW_DIR = join(tmpdir(), 'mwnode-test-progpow');
process.env[PROGPOW_CACHE_DIR_ENV] = PROGPOW_DIR;

const SEED = new Uint8Array(32);
const big = (xs: readonly number[]): bigint[] => xs.map(BigInt);

// Usernet dev genesis at nonce 27950 and its 42-cycle (reference §10.2).
const USER_PRE_POW = setPrePowNonce(prePow(genesisHeader('usernet'), CHAIN_PARAMS.usernet), 27950n);
const USER_CYCLE = big([
  100, 822, 1011, 2744, 3025, 3307, 3483, 4345, 5486, 6712, 6796, 7045, 10165, 11353, 13561, 13889,
  14460, 14797, 15831, 16506, 18806, 19029, 20813, 22118, 22759, 22778, 24079, 24741, 25703, 25866,
  26191, 26552, 28105, 28291, 28425, 28427, 30524, 30634, 31718, 32005, 32409, 32639,
]);
const USER_PROOF: Proof = { kind: 'Cuckoo', edgeBits: 15, nonces: USER_CYCLE };
const USER_DIFFICULTY = powDifficulty(CHAIN_PARAMS.usernet, 0n, {
  proof: USER_PROOF,
  secondaryScaling: 1,
});

const AUTO_PRE_POW = prePow(genesisHeader('automated'), CHAIN_PARAMS.automated);
const AUTO_CYCLE: Proof = { kind: 'Cuckoo', edgeBits: 9, nonces: [58n, 99n, 120n, 160n] };
const AUTO_PRE_POW_6 = setPrePowNonce(AUTO_PRE_POW.slice(), 6n);

const valid: PowItem = {
  chain: 'usernet',
  algorithm: 'cuckatoo',
  target: USER_DIFFICULTY,
  seed: SEED,
  prePow: USER_PRE_POW,
  proof: USER_PROOF,
};

const withNonces = (nonces: bigint[]): PowItem => ({
  ...valid,
  proof: { kind: 'Cuckoo', edgeBits: 15, nonces },
});

/** One item per case, with the verdict it must get. */
const CASES: ReadonlyArray<readonly [string, PowItem, PowVerdict]> = [
  ['valid usernet cycle', valid, { ok: true, difficulty: USER_DIFFICULTY }],
  [
    'a nonce changed',
    withNonces(USER_CYCLE.map((n, i) => (i === 5 ? n + 1n : n))),
    { ok: false, code: 'EndpointsDontMatch' },
  ],
  [
    'two nonces swapped',
    withNonces(USER_CYCLE.map((n, i) => USER_CYCLE[i === 7 ? 8 : i === 8 ? 7 : i] ?? n)),
    { ok: false, code: 'EdgesNotAscending' },
  ],
  [
    'a repeated nonce',
    withNonces(USER_CYCLE.map((n, i) => (i === 9 ? (USER_CYCLE[8] as bigint) : n))),
    { ok: false, code: 'DuplicateEdge' },
  ],
  [
    'target one above the achieved difficulty',
    { ...valid, target: USER_DIFFICULTY + 1n },
    { ok: false, code: 'DifficultyTooLow' },
  ],
  [
    'the cycle checked as Cuckaroo',
    { ...valid, algorithm: 'cuckaroo' },
    { ok: false, code: 'EndpointsDontMatch' },
  ],
  [
    'a Cuckoo proof for the RandomX verifier',
    { ...valid, algorithm: 'randomx' },
    { ok: false, code: 'WrongAlgorithm' },
  ],
  [
    'ProgPoW at a height past the last ethash epoch',
    {
      ...valid,
      algorithm: 'progpow',
      prePow: (() => {
        const p = USER_PRE_POW.slice();
        p[2] = 0x7f;
        return p;
      })(),
      proof: { kind: 'ProgPow', mix: new Uint8Array(32) },
    },
    { ok: false, code: 'InvalidProgPow' },
  ],
  [
    'automated-chain 4-cycle',
    { ...valid, chain: 'automated', target: 0n, prePow: AUTO_PRE_POW_6, proof: AUTO_CYCLE },
    {
      ok: true,
      difficulty: powDifficulty(CHAIN_PARAMS.automated, 0n, {
        proof: AUTO_CYCLE,
        secondaryScaling: 1,
      }),
    },
  ],
  [
    'MD5 of the automated genesis',
    {
      ...valid,
      chain: 'automated',
      algorithm: 'md5',
      target: 0n,
      prePow: AUTO_PRE_POW,
      proof: { kind: 'MD5', edgeBits: 9, proof: md5Proof(9, 4, AUTO_PRE_POW) },
    },
    {
      ok: true,
      difficulty: powDifficulty(CHAIN_PARAMS.automated, 0n, {
        proof: { kind: 'MD5', edgeBits: 9, proof: md5Proof(9, 4, AUTO_PRE_POW) },
        secondaryScaling: 1,
      }),
    },
  ],
  [
    'MD5 of another pre-pow',
    {
      ...valid,
      chain: 'automated',
      algorithm: 'md5',
      target: 0n,
      prePow: AUTO_PRE_POW,
      proof: { kind: 'MD5', edgeBits: 9, proof: md5Proof(9, 4, AUTO_PRE_POW_6) },
    },
    { ok: false, code: 'InvalidMd5' },
  ],
];

describe('the PoW job in the worker pool', () => {
  const pool = new WorkPool({ threads: 2, maxItemsPerJob: 3 });
  after(() => pool.close());

  it('item bytes round-trip through the documented layout', () => {
    const bytes = encodePowItem(valid);
    assert.equal(bytes.length, 44 + 282 + 2 + 79);
    assert.deepEqual(decodePowItem(bytes), valid);
    assert.equal(decodePowItem(bytes.subarray(0, 43)), null);
    assert.equal(decodePowItem(bytes.subarray(0, bytes.length - 1)), null);
  });

  it('a header becomes an item verified as Epic does (Cuckoo as Cuckatoo)', async () => {
    const header = {
      ...genesisHeader('usernet'),
      pow: { ...genesisHeader('usernet').pow, nonce: 27950n, proof: USER_PROOF },
    };
    const item = powItemOfHeader(header, 'usernet', 0n);
    assert.deepEqual(item, { ...valid, target: 0n });
    assert.deepEqual(await verifyPows(pool, [item]), [{ ok: true, difficulty: USER_DIFFICULTY }]);
    // Epic's mainnet genesis proof is no cycle of its own pre-pow (reference §10.6).
    const genesis = powItemOfHeader(genesisHeader('mainnet'), 'mainnet', 0n);
    assert.deepEqual(await verifyPows(pool, [genesis]), [
      { ok: false, code: 'EndpointsDontMatch' },
    ]);
  });

  it('each case gets its exact verdict', async () => {
    const verdicts = await verifyPows(
      pool,
      CASES.map(([, item]) => item),
    );
    verdicts.forEach((v, i) => {
      assert.deepEqual(v, CASES[i]?.[2], CASES[i]?.[0]);
    });
  });

  it('order is kept across chunks and workers (48 items, 16 chunks)', async () => {
    const items = Array.from(
      { length: 48 },
      (_, i) => CASES[(i * 7) % CASES.length] as (typeof CASES)[0],
    );
    const verdicts = await verifyPows(
      pool,
      items.map(([, item]) => item),
    );
    assert.equal(verdicts.length, 48);
    verdicts.forEach((v, i) => {
      assert.deepEqual(v, items[i]?.[2], `item ${i}: ${items[i]?.[0]}`);
    });
  });

  it('undecodable items are CorruptedData and spoil nothing else', async () => {
    const good = encodePowItem(valid);
    const badChain = good.slice();
    badChain[0] = 9;
    const badAlgo = good.slice();
    badAlgo[1] = 5;
    const padded = new Uint8Array(good.length + 1);
    padded.set(good);
    const results = await pool.runBatch(POW_JOB, [
      badChain,
      good,
      badAlgo,
      padded,
      new Uint8Array(3),
    ]);
    assert.deepEqual(
      results.map((r) => (r.ok ? 'ok' : r.code)),
      ['CorruptedData', 'ok', 'CorruptedData', 'CorruptedData', 'CorruptedData'],
    );
  });

  it('ProgPoW: a valid proof gives the difficulty of its final hash; one flipped mix bit fails', async () => {
    const header = { ...genesisHeader('usernet'), height: 1n };
    const pre = setPrePowNonce(prePow(header, CHAIN_PARAMS.usernet), 0xdead_beefn);
    const cache = progpowCacheFor(PROGPOW_DIR).get(0);
    const expected = progpowHash(cache, progpowHeaderHash(pre), 1n, 0xdead_beefn);
    const item: PowItem = {
      ...valid,
      algorithm: 'progpow',
      target: 1n,
      prePow: pre,
      proof: { kind: 'ProgPow', mix: expected.mix },
    };
    const direct = verifyPow(pre, item, 'progpow', { proofSize: 42, progpow: () => cache });
    assert.deepEqual(direct.progpowFinal, expected.final);
    const flipped = expected.mix.slice();
    flipped[31] = (flipped[31] as number) ^ 0x80;
    const verdicts = await verifyPows(pool, [
      item,
      { ...item, proof: { kind: 'ProgPow', mix: flipped } },
      { ...item, target: hashDifficulty(expected.final) + 1n },
    ]);
    assert.deepEqual(verdicts, [
      { ok: true, difficulty: hashDifficulty(expected.final) },
      { ok: false, code: 'InvalidProgPow' },
      { ok: false, code: 'DifficultyTooLow' },
    ]);
  });

  it('ProgPoW: a header beyond the verified epochs fails at once, without building a cache', () => {
    const height = BigInt(MAX_VERIFIED_PROGPOW_EPOCH + 1) * 30_000n;
    const header = { ...genesisHeader('usernet'), height };
    const pre = prePow(header, CHAIN_PARAMS.usernet);
    let built = 0;
    const caches = () => {
      built++;
      return progpowCacheFor(PROGPOW_DIR).get(0);
    };
    const proof = { kind: 'ProgPow' as const, mix: new Uint8Array(32) };
    const item: PowItem = { ...valid, algorithm: 'progpow', target: 1n, prePow: pre, proof };
    assert.throws(
      () => verifyPow(pre, item, 'progpow', { proofSize: 42, progpow: caches }),
      (e: unknown) => e instanceof PowError && e.code === 'InvalidProgPow',
    );
    assert.equal(built, 0);
  });

  // §10.3: key 32 zero bytes, input 128 zero bytes (which reads as a pre-pow of height 0).
  const rxHash = fromHex('3adb57cd3a05db9dd2139472dbbf647a3133e04353b8324969ff3ae62314e8f4');
  assert.ok(rxHash !== null);
  const rxItem: PowItem = {
    ...valid,
    chain: 'mainnet',
    algorithm: 'randomx',
    target: 4n,
    prePow: new Uint8Array(128),
    proof: { kind: 'RandomX', hash: rxHash },
  };
  const rxWrong: PowItem = {
    ...rxItem,
    proof: { kind: 'RandomX', hash: rxHash.map((b) => b ^ 1) },
  };

  it('RandomX without a backend is RandomXUnavailable, never success', async () => {
    process.env[RANDOMX_BACKEND_ENV] = 'none';
    const bare = new WorkPool({ threads: 1 });
    delete process.env[RANDOMX_BACKEND_ENV];
    try {
      assert.deepEqual(await verifyPows(bare, [rxItem, rxWrong, valid]), [
        { ok: false, code: 'RandomXUnavailable' },
        { ok: false, code: 'RandomXUnavailable' },
        { ok: true, difficulty: USER_DIFFICULTY },
      ]);
    } finally {
      await bare.close();
    }
  });

  it('RandomX with the native addon: the §10.3 vector achieves 4, a wrong hash fails', async (t) => {
    if (loadRandomXAddon() === null) {
      t.skip('native/randomx was not built');
      return;
    }
    assert.deepEqual(await verifyPows(pool, [rxItem, rxWrong, { ...rxItem, target: 5n }]), [
      { ok: true, difficulty: 4n },
      { ok: false, code: 'InvalidRandomX' },
      { ok: false, code: 'DifficultyTooLow' },
    ]);
  });
});
