// The test miner's nonce search: each algorithm's solution is what the node's own verifier
// accepts (same proof, same achieved difficulty), slices stop at the target or the budget and
// carry on from the next nonce, and an impossible search is a typed error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SolveRequest } from '../../../actors/miner/messages.js';
import { MinerError, solveSlice } from '../../../actors/miner/solve.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { achievedDifficulty, hashDifficulty } from '../../../core/consensus/difficulty.js';
import { genesisHeader } from '../../../core/genesis.js';
import { setPrePowNonce } from '../../../core/pow/keys.js';
import {
  cacheSize,
  epochCacheFrom,
  progpowHeaderHash,
  progpowLightVerify,
} from '../../../core/pow/progpow/index.js';
import { verifyPow } from '../../../core/pow/verify.js';
import { prePow } from '../../../core/ser/header.js';
import { loadRandomXAddon } from '../../../jobs/randomx_addon.js';

const AUTO = CHAIN_PARAMS.automated;
const HEADER = genesisHeader('automated');
const PRE_POW = prePow(HEADER, AUTO);
const SEED = new Uint8Array(32).fill(3);
const noRandomX = { params: AUTO, randomx: null, progpowCache: () => assert.fail('no ProgPoW') };

function request(over: Partial<SolveRequest>): SolveRequest {
  return {
    algo: 'cuckatoo',
    prePow: PRE_POW,
    height: 1n,
    seed: SEED,
    target: 1n,
    startNonce: 0n,
    budgetMs: 60_000,
    ...over,
  };
}

const withNonce = (nonce: bigint) => setPrePowNonce(PRE_POW.slice(), nonce);

describe('test miner search', () => {
  it('Cuckatoo: the first nonce with a 4-cycle, verified and scored as the node does', () => {
    const reply = solveSlice(request({ startNonce: 40n }), noRandomX);
    const s = reply.solution;
    assert.ok(s !== null);
    assert.equal(reply.nextNonce, s.nonce + 1n);
    assert.equal(reply.tries, Number(s.nonce - 40n) + 1);
    assert.equal(s.proof.kind, 'Cuckoo');
    assert.equal(s.proof.kind === 'Cuckoo' && s.proof.edgeBits, 9);
    const verified = verifyPow(withNonce(s.nonce), { proof: s.proof, seed: SEED }, 'cuckatoo', {
      proofSize: 4,
    });
    assert.equal(verified.algorithm, 'cuckatoo');
    const pow = { proof: s.proof, secondaryScaling: HEADER.pow.secondaryScaling };
    assert.equal(s.achieved, achievedDifficulty(AUTO, 1n, pow));
    // Nonces before the winner have no cycle on their graph.
    if (s.nonce > 40n) {
      const before = solveSlice(request({ startNonce: 40n, budgetMs: 0 }), noRandomX);
      assert.equal(before.solution, null);
      assert.equal(before.nextNonce, 41n);
    }
  });

  it('a slice with an unreachable target tries one nonce at budget 0 and wraps at 2^64', () => {
    const last = (1n << 64n) - 1n;
    const reply = solveSlice(request({ startNonce: last, target: last, budgetMs: 0 }), noRandomX);
    assert.deepEqual(reply, { solution: null, nextNonce: 0n, tries: 1 });
  });

  it('a slice ends when its budget is spent', () => {
    let clock = 0;
    const deps = { ...noRandomX, now: () => clock++ };
    // now() is read once for the end (0 + 3 → 3), then after each try: 1, 2, 3.
    const reply = solveSlice(request({ target: (1n << 64n) - 1n, budgetMs: 3 }), deps);
    assert.deepEqual(reply, { solution: null, nextNonce: 3n, tries: 3 });
  });

  it('refuses a graph beyond the solver and RandomX without the addon, with codes', () => {
    const big = { ...noRandomX, params: { ...AUTO, minEdgeBits: 29 } };
    assert.throws(
      () => solveSlice(request({}), big),
      (e: unknown) =>
        e instanceof MinerError &&
        e.code === 'UnsupportedGraph' &&
        e.message === "Cuckatoo31 is beyond the test miner's solver (at most 27 edge bits)",
    );
    assert.throws(
      () => solveSlice(request({ algo: 'randomx' }), noRandomX),
      (e: unknown) => e instanceof MinerError && e.code === 'RandomXUnavailable',
    );
  });

  it('RandomX: the hash of the pre-PoW under the seed, difficulty from the hash', () => {
    const calls: [Uint8Array, Uint8Array][] = [];
    const fake = (key: Uint8Array, input: Uint8Array): Uint8Array => {
      calls.push([key, input.slice()]);
      // 2^255 then 2^254: difficulties 1 and 3.
      const h = new Uint8Array(32);
      h[0] = calls.length === 1 ? 0x80 : 0x40;
      return h;
    };
    const deps = { ...noRandomX, randomx: fake };
    const reply = solveSlice(request({ algo: 'randomx', target: 2n, startNonce: 7n }), deps);
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[0], [SEED, withNonce(7n)]);
    assert.deepEqual(calls[1], [SEED, withNonce(8n)]);
    const hash = new Uint8Array(32);
    hash[0] = 0x40;
    assert.deepEqual(reply, {
      solution: { nonce: 8n, proof: { kind: 'RandomX', hash }, achieved: 3n },
      nextNonce: 9n,
      tries: 2,
    });
  });

  const addon = loadRandomXAddon();
  it('RandomX with the native addon: the proof verifies', { skip: addon === null }, () => {
    const hashSync = addon?.hashSync.bind(addon);
    assert.ok(hashSync !== undefined);
    const reply = solveSlice(request({ algo: 'randomx', startNonce: 5n }), {
      ...noRandomX,
      randomx: hashSync,
    });
    const s = reply.solution;
    assert.ok(s !== null && s.proof.kind === 'RandomX');
    assert.equal(s.nonce, 5n);
    assert.deepEqual(s.proof.hash, hashSync(SEED, withNonce(5n)));
    assert.equal(s.achieved, hashDifficulty(s.proof.hash));
    const rx = { available: true, hash: hashSync };
    verifyPow(withNonce(5n), { proof: s.proof, seed: SEED }, 'randomx', {
      proofSize: 4,
      randomx: rx,
    });
  });

  it('ProgPoW: the mix the light verification recomputes (stand-in epoch cache)', () => {
    // Any light cache of the right size gives a consistent hash; building the real one takes
    // seconds (the e2e usernet run uses it).
    const cache = epochCacheFrom(0, new Uint32Array(cacheSize(0) / 4).fill(0x5a5a5a5a));
    const epochs: number[] = [];
    const progpowCache = (epoch: number) => {
      epochs.push(epoch);
      return cache;
    };
    const deps = { ...noRandomX, progpowCache };
    const reply = solveSlice(request({ algo: 'progpow', height: 7n, startNonce: 11n }), deps);
    const s = reply.solution;
    assert.ok(s !== null && s.proof.kind === 'ProgPow');
    assert.equal(s.nonce, 11n);
    const verdict = progpowLightVerify(cache, progpowHeaderHash(PRE_POW), 7n, 11n, s.proof.mix);
    assert.equal(verdict.ok, true);
    assert.equal(s.achieved, hashDifficulty(verdict.final));
    assert.deepEqual(epochs, [0]);
  });
});
