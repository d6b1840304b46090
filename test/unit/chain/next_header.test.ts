// The next block's facts and header validation over stored headers: chains built in memory
// block by block from nextBlockFacts must validate, and each field a miner could get wrong
// must be refused with its own code. Values are from consensus reference §10–11 and §15.6.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { HeaderInfoCache } from '../../../core/chain/header_infos_cache.js';
import {
  ancestorAt,
  type ChainHeader,
  chainHeader,
  MemHeaderSource,
  parentOf,
  walkBack,
} from '../../../core/chain/header_source.js';
import { cuckooEdgeBits, miningAlgorithm } from '../../../core/chain/mining_algo.js';
import {
  type HeaderCheckContext,
  nextBlockFacts,
  validateHeader,
  validateHeaderAfterPow,
} from '../../../core/chain/next_header.js';
import { chainParams } from '../../../core/chain_type.js';
import { U64_MAX } from '../../../core/consensus/difficulty.js';
import { headerInfos } from '../../../core/consensus/difficulty_window.js';
import {
  POLICY_CONFIGS,
  type PolicyConfig,
  scheduleBlock,
} from '../../../core/consensus/feijoada.js';
import { type ValidationCode, ValidationError } from '../../../core/consensus/validation.js';
import { genesisHeader } from '../../../core/genesis.js';
import { headerHash } from '../../../core/ser/header.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { algoOfProof, type PowAlgo } from '../../../core/types/pow.js';
import {
  altered,
  type BuiltBlock,
  buildChain,
  diff,
  extendChain,
  factsRejects,
  letters,
  proofFor,
  walkOnly,
} from '../../support/chain_headers.js';
import { rejects } from '../../support/validation.js';

const USER = chainParams('usernet');
const AUTO = chainParams('automated');
const MAIN = chainParams('mainnet');
const DEFAULT = POLICY_CONFIGS.default;
describe('header source', () => {
  const { source, genesis, blocks } = buildChain(AUTO, genesisHeader('automated'), 30, DEFAULT);
  const fork = extendChain(source, (blocks[9] as BuiltBlock).block, 15, AUTO, DEFAULT, {
    fork: 1n,
  });
  const mainTip = (blocks[29] as BuiltBlock).block;
  const forkTip = (fork[14] as BuiltBlock).block;

  it('walks back by prev_hash to genesis and stops there', () => {
    assert.equal(parentOf(source, genesis), undefined);
    const heights = [...walkBack(source, forkTip)].map((h) => h.header.height);
    assert.deepEqual(
      heights,
      Array.from({ length: 26 }, (_, i) => BigInt(25 - i)),
    );
    const onFork = [...walkBack(source, forkTip)].slice(0, 15).map((h) => toHex(h.hash));
    assert.deepEqual(onFork, fork.map((b) => toHex(b.block.hash)).reverse());
  });

  it('finds ancestors on the right fork, with or without the fast path', () => {
    for (const tip of [mainTip, forkTip]) {
      for (let h = 0n; h <= tip.header.height; h++) {
        const fast = ancestorAt(source, tip, h);
        const walked = ancestorAt(walkOnly(source), tip, h);
        assert.equal(fast?.header.height, h);
        assert.equal(
          toHex(fast?.hash ?? new Uint8Array()),
          toHex(walked?.hash ?? new Uint8Array()),
        );
      }
    }
    assert.equal(
      toHex(ancestorAt(source, forkTip, 11n)?.hash as Uint8Array),
      toHex(fork[0]?.block.hash as Uint8Array),
    );
    assert.equal(ancestorAt(source, forkTip, 26n), undefined);
    assert.equal(ancestorAt(source, forkTip, -1n), undefined);
  });

  it('moves its height index to another fork', () => {
    assert.equal(source.indexedTip, mainTip);
    source.setIndexedTip(forkTip);
    assert.equal(source.atHeight(25n), forkTip);
    assert.equal(source.atHeight(26n), undefined);
    assert.equal(ancestorAt(source, mainTip, 20n), blocks[19]?.block);
    source.setIndexedTip(mainTip);
    assert.equal(source.atHeight(20n), blocks[19]?.block);
  });

  it('answers undefined where headers are missing', () => {
    const lonely = new MemHeaderSource([mainTip]);
    assert.equal(parentOf(lonely, mainTip), undefined);
    assert.equal(ancestorAt(lonely, mainTip, 3n), undefined);
    assert.deepEqual([...walkBack(lonely, mainTip)].length, 1);
  });
});

describe('next block facts (usernet, 1,250 blocks)', () => {
  let chain: ReturnType<typeof buildChain>;
  const at = (h: number): BuiltBlock => chain.blocks[h - 1] as BuiltBlock;
  before(() => {
    chain = buildChain(USER, genesisHeader('usernet'), 1250, DEFAULT);
  });

  it('passes full header validation block by block', () => {
    let parent = chain.genesis;
    for (const { block } of chain.blocks) {
      const ctx = { params: USER, policy: DEFAULT, now: block.header.timestamp, skipPow: false };
      validateHeader(block.header, block.hash, parent, chain.source, { ...ctx, achieved: U64_MAX });
      parent = block;
    }
  });

  it('schedules as feijoada does, from zero bottles', () => {
    // Hand-derived: the dev genesis carries zero bottles, so block 6 is the first Cuckatoo.
    assert.equal(letters(chain.blocks.slice(0, 12)), 'RPRPRCRPRPRR');
    const previous = (h: BlockHeader) => chain.source.byHash(h.prevHash)?.header;
    let parent = chain.genesis.header;
    for (const { block, facts } of chain.blocks) {
      const s = scheduleBlock(DEFAULT, facts.height, parent, previous);
      assert.deepEqual([facts.algo, facts.policy, facts.bottles], [s?.algo, s?.policy, s?.bottles]);
      assert.equal(facts.miningAlgorithm, miningAlgorithm(facts.algo));
      parent = block.header;
    }
    assert.deepEqual(at(6).facts.bottles, { cuckaroo: 0, cuckatoo: 1, randomx: 3, progpow: 2 });
    assert.equal(at(6).facts.miningAlgorithm, 'cuckoo');
  });

  it('carries the seed of the reference rule: genesis up to 1,060, block 1,000 from 1,061', () => {
    const g = chain.genesis.hash;
    assert.equal(toHex(at(1).facts.seed), toHex(g));
    assert.notEqual(toHex(g), toHex(new Uint8Array(32)));
    const changes = chain.blocks
      .filter((b, i) => i > 0 && toHex(b.facts.seed) !== toHex(at(i).facts.seed))
      .map((b) => b.facts.height);
    assert.deepEqual(changes, [1061n]);
    assert.equal(toHex(at(1061).facts.seed), toHex(at(1000).block.hash));
    assert.equal(at(1060).facts.seedHeight, 0n);
    assert.equal(at(1250).facts.seedHeight, 1000n);
    assert.deepEqual(at(1060).facts.epochs, [{ start: 0n, end: 1060n, seedHeight: 0n, seed: g }]);
    assert.deepEqual(at(1061).facts.epochs, [
      { start: 1060n, end: 2060n, seedHeight: 1000n, seed: at(1000).block.hash },
    ]);
  });

  it('keeps usernet at 1 before the difficulty fix and floors era 1', () => {
    for (let h = 1; h < 50; h++) {
      assert.deepEqual(at(h).facts.difficulty, diff(1n, 1n, 1n, 1n), `${h}`);
      assert.equal(at(h).facts.secondaryScaling, 1);
    }
    // Block 49 is ProgPoW: era 1 recomputes only that entry, up to its 200,000 floor.
    assert.equal(at(49).facts.algo, 'progpow');
    assert.deepEqual(at(50).facts.difficulty, diff(1n, 1n, 1n, 200_000n));
    assert.deepEqual(at(50).facts.totalDifficulty, diff(51n, 51n, 51n, 200_050n));
    for (const { block, facts } of chain.blocks) {
      const parent = chain.source.byHash(block.header.prevHash) as ChainHeader;
      const want = diff(
        (parent.header.pow.totalDifficulty.cuckaroo ?? 0n) + (facts.difficulty.cuckaroo ?? 0n),
        (parent.header.pow.totalDifficulty.cuckatoo ?? 0n) + (facts.difficulty.cuckatoo ?? 0n),
        (parent.header.pow.totalDifficulty.randomx ?? 0n) + (facts.difficulty.randomx ?? 0n),
        (parent.header.pow.totalDifficulty.progpow ?? 0n) + (facts.difficulty.progpow ?? 0n),
      );
      assert.deepEqual(facts.totalDifficulty, want);
    }
  });
});

/** `b` with header fields `over` and PoW fields `pow` replaced, hashed again (usernet). */
const edit = (
  b: ChainHeader,
  over: Partial<BlockHeader>,
  pow: Partial<BlockHeader['pow']> = {},
  params = USER,
): ChainHeader => altered(b, (h) => ({ ...h, ...over, pow: { ...h.pow, ...pow } }), params);

describe('refusing what a miner got wrong (usernet era 1)', () => {
  const { source, blocks } = buildChain(USER, genesisHeader('usernet'), 120, DEFAULT);
  const find = (algo: PowAlgo): ChainHeader =>
    (blocks.find((b) => b.facts.height > 60n && b.facts.algo === algo) as BuiltBlock).block;
  const parentOfBlock = (b: ChainHeader) => source.byHash(b.header.prevHash) as ChainHeader;
  const ctx = (b: ChainHeader, over: Partial<HeaderCheckContext> = {}): HeaderCheckContext => ({
    params: USER,
    policy: DEFAULT,
    now: b.header.timestamp,
    skipPow: false,
    achieved: U64_MAX,
    ...over,
  });
  const check = (b: ChainHeader, over: Partial<HeaderCheckContext> = {}) =>
    validateHeader(b.header, b.hash, parentOfBlock(b), source, ctx(b, over));
  const rx = find('randomx');
  const ct = find('cuckatoo');
  const total = rx.header.pow.totalDifficulty;

  it('accepts the blocks as built, and other bottles (they are not validated)', () => {
    check(rx);
    check(ct);
    check(edit(rx, { bottles: { cuckaroo: 9, cuckatoo: 9, randomx: 9, progpow: 9 } }));
    check(edit(rx, { bottles: {} }));
  });

  it('checks the secondary scaling of Cuckoo headers only', () => {
    const scaled = (b: ChainHeader) =>
      edit(b, {}, { secondaryScaling: b.header.pow.secondaryScaling + 1 });
    rejects(() => check(scaled(ct)), 'InvalidScaling');
    check(scaled(rx));
    check(scaled(ct), { skipPow: true });
  });

  it('refuses each wrong fact with its code', () => {
    const parent = parentOfBlock(rx).header;
    const cases: [string, ChainHeader, ValidationCode][] = [
      ['version', edit(rx, { version: 6 }), 'InvalidBlockVersion'],
      ['future', edit(rx, { timestamp: rx.header.timestamp + 721 }), 'TooMuchInFuture'],
      ['seed', edit(rx, {}, { seed: blocks[0]?.block.hash }), 'InvalidSeed'],
      ['policy', edit(rx, { policy: 1 }), 'PolicyIsNotAllowed'],
      ['algorithm', edit(rx, {}, { proof: proofFor('progpow', USER, 7n) }), 'InvalidSortAlgo'],
      ['height', edit(rx, { height: rx.header.height + 1n }), 'InvalidBlockHeight'],
      ['time', edit(rx, { timestamp: parent.timestamp }), 'InvalidBlockTime'],
      [
        'total',
        edit(rx, {}, { totalDifficulty: { ...total, progpow: (total.progpow ?? 0n) + 1n } }),
        'WrongTotalDifficulty',
      ],
    ];
    for (const [what, b, code] of cases) {
      const now = rx.header.timestamp;
      const is = (e: unknown) => e instanceof ValidationError && e.code === code;
      assert.throws(() => check(b, { now }), is, what);
    }
  });

  it('compares the achieved difficulty with the own algorithm target', () => {
    const target =
      (total.randomx ?? 0n) - (parentOfBlock(rx).header.pow.totalDifficulty.randomx ?? 0n);
    assert.equal(target, 1n);
    check(rx, { achieved: target });
    rejects(() => check(rx, { achieved: target - 1n }), 'DifficultyTooLow');
    const small = edit(ct, {}, { proof: { kind: 'Cuckoo', edgeBits: 14, nonces: [1n] } });
    rejects(() => check(small), 'LowEdgebits');
  });

  it('skips difficulty and scaling under SKIP_POW, not the rest', () => {
    const wrongTotal = edit(ct, {}, { totalDifficulty: diff(0n, 0n, 0n, 0n) });
    check(wrongTotal, { skipPow: true, achieved: undefined });
    rejects(() => check(wrongTotal), 'WrongTotalDifficulty');
    rejects(() => check(edit(rx, { policy: 1 }), { skipPow: true }), 'PolicyIsNotAllowed');
  });

  it('reports missing chain facts as typed errors', () => {
    const unknown = edit(rx, {}, { seed: new Uint8Array(32).fill(5) });
    factsRejects(() => check(unknown), 'UnknownSeed');
    factsRejects(() => validateHeaderAfterPow(rx.header, rx, source, ctx(rx)), 'ParentMismatch');
    factsRejects(() => check(rx, { achieved: undefined }), 'AchievedMissing');
  });
});

describe('seeds across forks', () => {
  const { source, blocks } = buildChain(USER, genesisHeader('usernet'), 1065, DEFAULT);
  const main = (h: number) => (blocks[h - 1] as BuiltBlock).block;
  const fork = extendChain(source, main(990), 75, USER, DEFAULT, { fork: 1n });
  const forked = (h: number) => (fork[h - 991] as BuiltBlock).block;

  it("takes the template's seed from the parent's own fork", () => {
    const onFork = nextBlockFacts(forked(1064), source, USER, DEFAULT);
    const onMain = nextBlockFacts(main(1064), source, USER, DEFAULT);
    assert.equal(toHex(onFork.seed), toHex(forked(1000).hash));
    assert.equal(toHex(onMain.seed), toHex(main(1000).hash));
    assert.notEqual(toHex(onFork.seed), toHex(onMain.seed));
    const walked = nextBlockFacts(forked(1064), walkOnly(source), USER, DEFAULT);
    assert.equal(toHex(walked.seed), toHex(forked(1000).hash));
  });

  it("accepts a seed from another fork at the right height, as Epic's lookup by hash does", () => {
    const b = main(1062);
    const other = edit(b, {}, { seed: forked(1000).hash });
    const parent = main(1061);
    const ctx = { params: USER, policy: DEFAULT, now: b.header.timestamp, skipPow: false };
    validateHeader(other.header, other.hash, parent, source, { ...ctx, achieved: U64_MAX });
    const early = edit(b, {}, { seed: forked(999).hash });
    rejects(
      () => validateHeader(early.header, early.hash, parent, source, { ...ctx, achieved: U64_MAX }),
      'InvalidSeed',
    );
  });
});

describe('next difficulty scenario (reference §15.6, automated testing, pre-fix)', () => {
  // The scenario's genesis: these totals and mainnet-like bottles, so blocks 1… go R P R P R R P.
  const g = genesisHeader('automated');
  const genesis: BlockHeader = {
    ...g,
    pow: { ...g.pow, totalDifficulty: diff(4n, 4n, 8_192n, 134_217_728n) },
    bottles: { cuckaroo: 1, cuckatoo: 0, randomx: 0, progpow: 0 },
  };
  const SPACING = [60, 60, 5, 120, 3, 30, 70, 29, 90, 34, 70, 15];
  const { blocks } = buildChain(AUTO, genesis, 13, DEFAULT, {
    spacing: (h) => SPACING[Number(h) - 1] ?? 60,
  });
  const RESULTS: [PowAlgo, bigint][] = [
    ['randomx', 8_064n],
    ['progpow', 132_120_576n],
    ['randomx', 8_190n],
    ['progpow', 125_927_424n],
    ['randomx', 8_317n],
    ['randomx', 8_446n],
    ['progpow', 123_959_808n],
    ['randomx', 8_577n],
    ['progpow', 122_022_936n],
    ['randomx', 8_711n],
    ['randomx', 8_575n],
    ['progpow', 123_929_544n],
  ];

  it('replays every row', () => {
    assert.deepEqual(blocks[0]?.facts.difficulty, diff(4n, 4n, 8_192n, 134_217_728n));
    assert.equal(letters(blocks.slice(0, 12)), 'RPRPRRPRPRRP');
    RESULTS.forEach(([algo, value], i) => {
      const next = blocks[i + 1] as BuiltBlock;
      assert.equal(algoOfProof((blocks[i] as BuiltBlock).block.header.pow.proof), algo);
      assert.equal(next.facts.difficulty[algo], value, `block ${i + 2}`);
    });
  });
});

describe('difficulty values', () => {
  it('mainnet block 1 (reference §10.6 and §11)', () => {
    const g = chainHeader(genesisHeader('mainnet'), MAIN);
    const f = nextBlockFacts(g, new MemHeaderSource([g]), MAIN, DEFAULT);
    assert.deepEqual(f.difficulty, diff(4n, 16_384n, 4_194_304n, 1_073_741_824n));
    assert.deepEqual(f.totalDifficulty, diff(8n, 32_768n, 8_388_608n, 2_147_483_648n));
    assert.equal(f.secondaryScaling, 7_779);
    assert.deepEqual(
      [f.algo, f.miningAlgorithm, f.policy, f.version],
      ['randomx', 'randomx', 0, 6],
    );
    assert.deepEqual(f.bottles, { cuckaroo: 1, cuckatoo: 0, randomx: 1, progpow: 0 });
    assert.equal(toHex(f.seed), toHex(g.hash));
  });

  it('mainnet schedule: first Cuckatoo at 22, a full round resets at 100', () => {
    const { blocks } = buildChain(MAIN, genesisHeader('mainnet'), 100, DEFAULT);
    assert.equal(letters(blocks.slice(0, 7)), 'RPRPRRP');
    assert.equal(blocks.findIndex((b) => b.facts.algo === 'cuckatoo') + 1, 22);
    const beans = (b: BuiltBlock | undefined) =>
      Object.values(b?.facts.bottles ?? {}).reduce((s, n) => s + n, 0);
    assert.equal(beans(blocks[98]), 100);
    assert.equal(beans(blocks[99]), 1);
  });

  it('automated testing: Cuckoo floor at block 1, era-1 floors from 50', () => {
    const { blocks } = buildChain(AUTO, genesisHeader('automated'), 51, DEFAULT);
    // Window of 60 padded entries of difficulty 1 over 3,600 s: 1, raised to the floor 3;
    // scaling 60·90 / clamp(damp(5,900, 5,400, 13)) = 5,400 / 5,438 = 0, raised to 13.
    assert.deepEqual(blocks[0]?.facts.difficulty, diff(3n, 1n, 1n, 1n));
    assert.equal(blocks[0]?.facts.secondaryScaling, 13);
    assert.equal(blocks[48]?.facts.algo, 'progpow');
    assert.deepEqual(blocks[49]?.facts.difficulty, diff(3n, 1n, 1n, 200_000n));
    assert.equal(blocks[49]?.facts.algo, 'randomx');
    assert.deepEqual(blocks[50]?.facts.difficulty, diff(3n, 1n, 4_000n, 200_000n));
  });
});

describe('facts that cannot be computed', () => {
  const g = chainHeader(genesisHeader('automated'), AUTO);
  const src = new MemHeaderSource([g]);

  it('has no policy row to emit', () => {
    const none: PolicyConfig = { policies: [], allowed: DEFAULT.allowed };
    factsRejects(() => nextBlockFacts(g, src, AUTO, none), 'ThereIsNotPolicy');
  });

  it('meets bottles lacking a scheduled algorithm (where Epic panics)', () => {
    const bare = chainHeader({ ...genesisHeader('automated'), bottles: { cuckaroo: 0 } }, AUTO);
    const s = new MemHeaderSource([bare]);
    factsRejects(() => nextBlockFacts(bare, s, AUTO, DEFAULT), 'BottlesUnusable');
    const [b] = buildChain(AUTO, genesisHeader('automated'), 1, DEFAULT).blocks;
    const child = {
      ...(b as BuiltBlock).block.header,
      prevHash: bare.hash,
      pow: { ...(b as BuiltBlock).block.header.pow, seed: bare.hash },
    };
    const ctx = { params: AUTO, policy: DEFAULT, now: 0, skipPow: true };
    factsRejects(
      () => validateHeader(child, headerHash(child, AUTO), bare, s, ctx),
      'BottlesUnusable',
    );
  });

  it('lacks the seed ancestor', () => {
    const { blocks } = buildChain(AUTO, genesisHeader('automated'), 5, DEFAULT);
    const tip = (blocks[4] as BuiltBlock).block;
    factsRejects(
      () => nextBlockFacts(tip, new MemHeaderSource([tip]), AUTO, DEFAULT),
      'MissingAncestor',
    );
  });

  it('reports an allowed policy without a row as ThereIsNotPolicy', () => {
    const loose: PolicyConfig = {
      policies: DEFAULT.policies.slice(0, 1),
      allowed: [{ height: 0n, mask: 3n }],
    };
    const { source, blocks } = buildChain(AUTO, genesisHeader('automated'), 2, loose);
    const b = (blocks[1] as BuiltBlock).block;
    const odd = edit(b, { policy: 1 }, {}, AUTO);
    const ctx = { params: AUTO, policy: loose, now: 0, skipPow: true };
    rejects(
      () => validateHeader(odd.header, odd.hash, (blocks[0] as BuiltBlock).block, source, ctx),
      'ThereIsNotPolicy',
    );
  });
});

describe('mining algorithm names and Cuckoo sizes', () => {
  it('names both Cuckoo variants "cuckoo"', () => {
    assert.deepEqual(
      (['cuckaroo', 'cuckatoo', 'randomx', 'progpow'] as const).map(miningAlgorithm),
      ['cuckoo', 'cuckoo', 'randomx', 'progpow'],
    );
  });

  it('picks edge bits the policy check reads as the algorithm', () => {
    assert.deepEqual(
      [USER, AUTO, MAIN].map((p) => [cuckooEdgeBits('cuckaroo', p), cuckooEdgeBits('cuckatoo', p)]),
      [
        [29, 15],
        [29, 9],
        [29, 19],
      ],
    );
    assert.equal(cuckooEdgeBits('cuckatoo', { minEdgeBits: 29 }), 31);
    assert.equal(cuckooEdgeBits('randomx', USER), undefined);
  });
});

describe('header info cache', () => {
  const { source, blocks } = buildChain(AUTO, genesisHeader('automated'), 40, DEFAULT);
  const fork = extendChain(source, (blocks[19] as BuiltBlock).block, 12, AUTO, DEFAULT, {
    fork: 1n,
  });

  it("yields Epic's DifficultyIter exactly, from every header of both forks", () => {
    const cache = new HeaderInfoCache(source);
    const algos = new Set(blocks.map((b) => algoOfProof(b.block.header.pow.proof)));
    assert.ok(algos.size > 1, 'the chain mixes algorithms, so steps skip ancestors');
    for (const b of [...blocks, ...fork]) {
      const expected = [...headerInfos(walkBack(source, b.block))];
      assert.equal(expected.length > 0, true);
      assert.deepEqual([...cache.infos(b.block)], expected);
    }
  });

  it('stops where the source has no parent, as the plain walk does', () => {
    const tip = (blocks[39] as BuiltBlock).block;
    const partial = new MemHeaderSource(blocks.slice(25).map((b) => b.block));
    const expected = [...headerInfos(walkBack(partial, tip))];
    assert.ok(expected.length > 0);
    assert.ok(expected.length < [...headerInfos(walkBack(source, tip))].length);
    assert.deepEqual([...new HeaderInfoCache(partial).infos(tip)], expected);
  });

  it('gives validation the same next difficulty through a source that uses it', () => {
    const cache = new HeaderInfoCache(source);
    const cached = {
      byHash: (h: Uint8Array) => source.byHash(h),
      infos: (f: ChainHeader) => cache.infos(f),
    };
    for (const b of blocks.slice(1)) {
      const parent = source.byHash(b.block.header.prevHash) as ChainHeader;
      assert.deepEqual(
        nextBlockFacts(parent, cached, AUTO, DEFAULT),
        nextBlockFacts(parent, walkOnly(source), AUTO, DEFAULT),
      );
    }
  });
});
