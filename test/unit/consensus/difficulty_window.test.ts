// The retarget window (consensus reference §10.4): Epic's DifficultyIter over a header walk and
// difficulty_data_to_vector's compressed timeline and padding.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { U64_MAX, uniformDifficulty } from '../../../core/consensus/difficulty.js';
import {
  difficultyDataToVector,
  type HeaderInfo,
  headerInfos,
  syntheticHeaderInfo,
  type WalkedHeader,
} from '../../../core/consensus/difficulty_window.js';
import type { Difficulty, Proof } from '../../../core/types/pow.js';

const MAIN = CHAIN_PARAMS.mainnet;
const AUTO = CHAIN_PARAMS.automated;
const ZERO32 = new Uint8Array(32);

function info(
  timestamp: bigint,
  prevTimespan: bigint,
  difficulty: Difficulty,
  tag = 0,
): HeaderInfo {
  return {
    blockHash: new Uint8Array(32).fill(tag),
    timestamp,
    difficulty,
    secondaryScaling: 100 + tag,
    isSecondary: false,
    prevTimespan,
  };
}

describe('difficulty_data_to_vector', () => {
  it('one entry (ts 42) padded to 61 a minute apart, saturating at 0', () => {
    const d = uniformDifficulty(10_000n);
    const v = difficultyDataToVector(AUTO, [info(42n, 0n, d, 7)], 60);
    assert.equal(v.length, 61);
    assert.deepEqual(v[60], info(42n, 0n, d, 7));
    assert.deepEqual(
      v.slice(0, 60).map((x) => x.timestamp),
      Array.from({ length: 60 }, () => 0n),
    );
    assert.deepEqual(v[59], {
      blockHash: ZERO32,
      timestamp: 0n,
      difficulty: d,
      secondaryScaling: 1,
      isSecondary: true,
      prevTimespan: 0n,
    });
    const onMain = difficultyDataToVector(MAIN, [info(1_000n, 0n, d)], 2);
    assert.deepEqual(
      onMain.map((x) => [x.timestamp, x.secondaryScaling]),
      [
        [880n, 7_936],
        [940n, 7_936],
        [1_000n, 100],
      ],
    );
  });

  it('rewrites timestamps onto the same-algorithm timeline and pads at the last spacing', () => {
    const a = uniformDifficulty(3n);
    const b = uniformDifficulty(4n);
    const cursor = [info(1_000n, 5n, a, 1), info(900n, 30n, b, 2), info(100n, 7n, b, 3)];
    const v = difficultyDataToVector(AUTO, cursor, 4);
    assert.deepEqual(
      v.map((x) => x.timestamp),
      [955n, 960n, 965n, 995n, 1_000n],
    );
    assert.deepEqual(
      v.map((x) => x.secondaryScaling),
      [1, 1, 103, 102, 101],
    );
    // Synthetic entries take the newest entry's difficulty; real ones keep their own.
    assert.deepEqual(
      v.map((x) => x.difficulty),
      [a, a, b, b, a],
    );
    // The caller's infos are left as they were.
    assert.equal((cursor[1] as HeaderInfo).timestamp, 900n);
  });

  it('a timeline reaching 0 pads at the saturated spacing', () => {
    const v = difficultyDataToVector(AUTO, [info(50n, 100n, {}), info(9n, 1n, {})], 3);
    assert.deepEqual(
      v.map((x) => x.timestamp),
      [0n, 0n, 0n, 50n],
    );
  });

  it('takes exactly window + 1 entries from a longer cursor', () => {
    let pulled = 0;
    function* many(): Generator<HeaderInfo> {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield info(10_000n - BigInt(i), 1n, {});
      }
    }
    const v = difficultyDataToVector(AUTO, many(), 1);
    assert.equal(pulled, 2);
    assert.deepEqual(
      v.map((x) => x.timestamp),
      [9_999n, 10_000n],
    );
  });

  it('refuses an empty window (Epic indexes past the end)', () => {
    assert.throws(() => difficultyDataToVector(AUTO, [], 60), RangeError);
  });

  it('property: window + 1 entries, oldest first, ending at the newest real timestamp', () => {
    const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
    const entry = fc.record({ ts: u64, pt: fc.oneof(fc.bigInt({ min: 0n, max: 600n }), u64) });
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 70 }),
        fc.integer({ min: 1, max: 60 }),
        (es, w) => {
          const v = difficultyDataToVector(
            MAIN,
            es.map((e) => info(e.ts, e.pt, {})),
            w,
          );
          assert.equal(v.length, w + 1);
          assert.equal(v[w]?.timestamp, es[0]?.ts);
          for (let i = 1; i < v.length; i++)
            assert.ok((v[i - 1] as HeaderInfo).timestamp <= (v[i] as HeaderInfo).timestamp);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('synthetic entries', () => {
    assert.deepEqual(syntheticHeaderInfo(5n, { randomx: 2n }, 7_936), {
      blockHash: ZERO32,
      timestamp: 5n,
      difficulty: { randomx: 2n },
      secondaryScaling: 7_936,
      isSecondary: true,
      prevTimespan: 0n,
    });
  });
});

// ---- DifficultyIter -----------------------------------------------------------------------

const cuckoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [] });
const rx: Proof = { kind: 'RandomX', hash: ZERO32 };
const pp: Proof = { kind: 'ProgPow', mix: ZERO32 };

function header(n: number, proof: Proof, timestamp: number, total: Difficulty): WalkedHeader {
  return {
    hash: new Uint8Array(32).fill(n),
    timestamp,
    pow: { totalDifficulty: total, secondaryScaling: 1_000 + n, proof },
  };
}

// Oldest first: G(cuckaroo 29) A(rx) B(pp) C(cuckatoo 31) D(rx) E(pp) F(rx).
const total = (k: bigint): Difficulty => ({
  cuckaroo: k,
  cuckatoo: 2n * k,
  randomx: 3n * k,
  progpow: 4n * k,
});
const G = header(0, cuckoo(29), 1_000, { cuckaroo: 4n, randomx: 7n });
const A = header(1, rx, 1_020, total(10n));
const B = header(2, pp, 1_080, total(20n));
const C = header(3, cuckoo(31), 1_090, total(30n));
const D = header(4, rx, 1_200, total(45n));
const E = header(5, pp, 1_195, total(50n));
const F = header(6, rx, 1_260, total(70n));
const CHAIN = [G, A, B, C, D, E, F];

function counted(chain: readonly WalkedHeader[]): {
  walk: Iterable<WalkedHeader>;
  read: () => number;
  closed: () => boolean;
} {
  let read = 0;
  let closed = false;
  const newestFirst = [...chain].reverse();
  const walk: Iterable<WalkedHeader> = {
    [Symbol.iterator]: () => ({
      next: () => {
        const value = newestFirst[read];
        if (value === undefined) return { done: true, value: undefined };
        read++;
        return { done: false, value };
      },
      return: () => {
        closed = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { walk, read: () => read, closed: () => closed };
}

describe('DifficultyIter over a header walk', () => {
  it('genesis alone: its own total, a 60 s timespan, its own scaling', () => {
    assert.deepEqual(
      [...headerInfos([G])],
      [
        {
          blockHash: G.hash,
          timestamp: 1_000n,
          difficulty: { cuckaroo: 4n, randomx: 7n },
          secondaryScaling: 1_000,
          isSecondary: false,
          prevTimespan: 60n,
        },
      ],
    );
  });

  it('yields h0 then only same-algorithm ancestors, each against its immediate parent', () => {
    const infos = [...headerInfos([...CHAIN].reverse())];
    assert.deepEqual(infos, [
      {
        blockHash: F.hash,
        timestamp: 1_260n,
        difficulty: total(20n),
        secondaryScaling: 1_005, // E follows D, the next randomx block
        isSecondary: false,
        prevTimespan: 65n,
      },
      {
        blockHash: D.hash,
        timestamp: 1_200n,
        difficulty: total(15n),
        secondaryScaling: 1_002, // B follows A
        isSecondary: false,
        prevTimespan: 110n,
      },
      {
        blockHash: A.hash,
        timestamp: 1_020n,
        // A's total minus genesis's: every key of A, genesis's missing ones as 0.
        difficulty: { cuckaroo: 6n, cuckatoo: 20n, randomx: 23n, progpow: 40n },
        secondaryScaling: 1_000, // no earlier randomx: the oldest header walked, genesis
        isSecondary: false,
        prevTimespan: 20n,
      },
    ]);
  });

  it('a block dated before its parent gets a wrapped u64 timespan; 31-bit Cuckoo is secondary', () => {
    const [e] = headerInfos([E, D, C, B, A, G]);
    assert.equal(e?.prevTimespan, U64_MAX - 4n);
    assert.equal(e?.secondaryScaling, 1_003); // C follows B, the next progpow block
    const [c, , g] = [...headerInfos([C, B, A, G])];
    assert.deepEqual(
      [c?.isSecondary, c?.secondaryScaling, c?.difficulty, g],
      [true, 1_000, total(10n), undefined], // no earlier cuckatoo: genesis's scaling
    );
  });

  it('reads only up to the next same-algorithm ancestor of the last item taken, then closes', () => {
    const w = counted(CHAIN);
    const v = difficultyDataToVector(AUTO, headerInfos(w.walk), 1);
    assert.deepEqual(
      v.map((x) => x.blockHash[0]),
      [4, 6],
    );
    assert.equal(w.read(), 6); // F E D C B A; genesis never read
    assert.equal(w.closed(), true);
  });

  it('feeds the window: F, D, A on their compressed timeline, padded 65 s back', () => {
    const v = difficultyDataToVector(AUTO, headerInfos([...CHAIN].reverse()), 3);
    assert.deepEqual(
      v.map((x) => x.timestamp),
      [1_020n, 1_085n, 1_195n, 1_260n],
    );
  });
});
