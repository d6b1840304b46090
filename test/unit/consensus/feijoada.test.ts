// Feijoada scheduler: consensus reference §11, pow reference §8.3–§8.5 and §10.7, checked
// against Epic's feijoada.rs, global.rs and store.rs (BottleIter).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  allowedMask,
  BOTTLE_SEARCH_LIMIT,
  checkBlockPolicy,
  chooseAlgo,
  countBeans,
  emittedPolicy,
  isAllowedPolicy,
  nextBlockBottles,
  nextPolicy,
  POLICY_CONFIGS,
  type PolicyBottles,
  type PolicyConfig,
  policyAt,
  policyConfig,
  proofFitsAlgo,
  scheduleBlock,
  sourceBottles,
  ZERO_BOTTLES,
} from '../../../core/consensus/feijoada.js';
import { genesisHeader } from '../../../core/genesis.js';
import type { Policy, PowAlgo, Proof } from '../../../core/types/pow.js';
import { POW_ALGOS } from '../../../core/types/pow.js';

interface Header extends PolicyBottles {
  readonly height: bigint;
}

const LETTER: Record<PowAlgo, string> = {
  cuckaroo: 'K',
  cuckatoo: 'C',
  randomx: 'R',
  progpow: 'P',
};
const DEFAULT = POLICY_CONFIGS.default;
const bottles = (randomx: number, progpow: number, cuckatoo: number, cuckaroo = 0): Policy => ({
  cuckaroo,
  cuckatoo,
  randomx,
  progpow,
});
const P0 = DEFAULT.policies[0] as Policy;
const P2 = DEFAULT.policies[2] as Policy;

/** A linear chain whose `previous` follows heights down to its first header. */
class Chain {
  readonly byHeight = new Map<bigint, Header>();
  readonly previous = (h: Header): Header | undefined => this.byHeight.get(h.height - 1n);

  constructor(first: Header) {
    this.byHeight.set(first.height, first);
  }

  get tip(): Header {
    return this.byHeight.get(BigInt(this.byHeight.size - 1) + this.first) as Header;
  }

  private get first(): bigint {
    return this.byHeight.keys().next().value as bigint;
  }

  /** Mines the next block as a template would; returns its algorithm. */
  mine(config: PolicyConfig = DEFAULT): PowAlgo {
    const height = this.tip.height + 1n;
    const next = scheduleBlock(config, height, this.tip, this.previous);
    assert.ok(next);
    this.byHeight.set(height, { height, policy: next.policy, bottles: next.bottles });
    return next.algo;
  }

  mineMany(n: number, config: PolicyConfig = DEFAULT): string {
    let letters = '';
    for (let i = 0; i < n; i++) letters += LETTER[this.mine(config)];
    return letters;
  }
}

const mainnetChain = (): Chain => new Chain(genesisHeader('mainnet'));

const MAINNET_FIRST_100 =
  'RPRPRRPRPRRPRRPRPRRPRCRPRPRRPRPRRPRPRRPRRPRPRRPRPRRPRPRRPRPRRPRRPRPRRPRCRPRPRRPRPRRPRPRRPRRPRPRRPRPR';

describe('feijoada policy tables', () => {
  it('default, no_progpow and only_randomx rows per era (randomx/progpow/cuckatoo/cuckaroo)', () => {
    const rows = (c: PolicyConfig): number[][] =>
      c.policies.map((p) => [p.randomx, p.progpow, p.cuckatoo, p.cuckaroo] as number[]);
    assert.deepEqual(rows(POLICY_CONFIGS.default), [
      [60, 38, 2, 0],
      [60, 38, 2, 0],
      [48, 48, 4, 0],
      [48, 48, 4, 0],
      [48, 48, 4, 0],
      [48, 48, 4, 0],
    ]);
    assert.deepEqual(rows(POLICY_CONFIGS.noProgpow), [
      [60, 0, 40, 0],
      [60, 0, 40, 0],
      [50, 0, 50, 0],
      [45, 0, 55, 0],
      [25, 0, 75, 0],
      [15, 0, 85, 0],
    ]);
    assert.deepEqual(rows(POLICY_CONFIGS.onlyRandomx), Array(6).fill([100, 0, 0, 0]));
  });

  it('allowed-policy entries: one bit per era from the first height of the era', () => {
    const expected = [
      { height: 0n, mask: 1n },
      { height: 480_961n, mask: 2n },
      { height: 1_157_761n, mask: 4n },
      { height: 2_023_201n, mask: 8n },
      { height: 3_175_201n, mask: 16n },
      { height: 4_642_561n, mask: 32n },
    ];
    for (const c of Object.values(POLICY_CONFIGS)) assert.deepEqual(c.allowed, expected);
  });

  it('chain type and flags: mainnet ignores them, only_randomx wins over no_progpow', () => {
    const both = { noProgpow: true, onlyRandomx: true };
    assert.equal(policyConfig('mainnet', both), POLICY_CONFIGS.default);
    assert.equal(policyConfig('mainnet', { onlyRandomx: true }), POLICY_CONFIGS.default);
    for (const chain of ['floonet', 'usernet', 'automated'] as const) {
      assert.equal(policyConfig(chain), POLICY_CONFIGS.default);
      assert.equal(policyConfig(chain, { noProgpow: false }), POLICY_CONFIGS.default);
      assert.equal(policyConfig(chain, { noProgpow: true }), POLICY_CONFIGS.noProgpow);
      assert.equal(policyConfig(chain, { onlyRandomx: true }), POLICY_CONFIGS.onlyRandomx);
      assert.equal(policyConfig(chain, both), POLICY_CONFIGS.onlyRandomx);
    }
  });

  it('policyAt is undefined past the table', () => {
    assert.equal(policyAt(DEFAULT, 5), DEFAULT.policies[5]);
    assert.equal(policyAt(DEFAULT, 6), undefined);
  });
});

describe('feijoada emitted and allowed policies', () => {
  const BOUNDARIES: [bigint, number][] = [
    [0n, 0],
    [1n, 0],
    [480_960n, 0],
    [480_961n, 1],
    [1_157_760n, 1],
    [1_157_761n, 2],
    [2_023_200n, 2],
    [2_023_201n, 3],
    [3_175_200n, 3],
    [3_175_201n, 4],
    [4_642_560n, 4],
    [4_642_561n, 5],
    [18_446_744_073_709_551_615n, 5],
  ];

  it('emitted policy by era', () => {
    for (const [height, policy] of BOUNDARIES)
      assert.equal(emittedPolicy(height), policy, `${height}`);
  });

  it('exactly the emitted policy is allowed at every era boundary', () => {
    for (const [height, emitted] of BOUNDARIES) {
      for (let p = 0; p < 8; p++) {
        assert.equal(isAllowedPolicy(DEFAULT, height, p), p === emitted, `${height} policy ${p}`);
      }
    }
  });

  it('exactly the emitted policy is allowed at any u64 height', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat(63), (height, p) => {
        assert.equal(isAllowedPolicy(DEFAULT, height, p), p === emittedPolicy(height));
      }),
      { numRuns: 500 },
    );
  });

  it('lookup: greatest entry height ≤ h, else the last entry of the list', () => {
    const list = [
      { height: 20n, mask: 4n },
      { height: 10n, mask: 1n },
      { height: 30n, mask: 8n },
      { height: 10n, mask: 2n },
    ];
    assert.equal(allowedMask(list, 5n), 2n); // none ≤ 5: the last entry
    assert.equal(allowedMask(list, 10n), 2n); // two entries at 10: the later one
    assert.equal(allowedMask(list, 19n), 2n);
    assert.equal(allowedMask(list, 20n), 4n);
    assert.equal(allowedMask(list, 29n), 4n);
    assert.equal(allowedMask(list, 30n), 8n);
    assert.equal(allowedMask([], 30n), undefined);
    const custom: PolicyConfig = { policies: DEFAULT.policies, allowed: list };
    assert.equal(isAllowedPolicy(custom, 5n, 1), true);
    assert.equal(isAllowedPolicy(custom, 5n, 0), false);
    assert.equal(isAllowedPolicy({ policies: [], allowed: [] }, 0n, 0), false);
  });

  it('policy indices ≥ 64 wrap onto the low bits, as a Rust release shift does', () => {
    assert.equal(isAllowedPolicy(DEFAULT, 100n, 64), true);
    assert.equal(isAllowedPolicy(DEFAULT, 100n, 65), false);
    assert.equal(isAllowedPolicy(DEFAULT, 480_961n, 129), true);
  });
});

describe('feijoada countBeans, chooseAlgo, nextBlockBottles', () => {
  it('countBeans: the sum, at least 1, wrapping at 2^32', () => {
    assert.equal(countBeans(ZERO_BOTTLES), 1);
    assert.equal(countBeans({}), 1);
    assert.equal(countBeans(bottles(59, 38, 2, 1)), 100);
    assert.equal(countBeans({ randomx: 4_294_967_295, progpow: 2 }), 1);
    assert.equal(countBeans({ randomx: 4_294_967_295, progpow: 3 }), 2);
    assert.equal(countBeans({ randomx: 4_294_967_295 }), 4_294_967_295);
  });

  it('pow reference §10.7: {cuckatoo:50, randomx:50} gives randomx, then cuckatoo', () => {
    const policy = { cuckaroo: 0, cuckatoo: 50, randomx: 50, progpow: 0 };
    assert.equal(chooseAlgo(policy, ZERO_BOTTLES), 'randomx');
    assert.equal(chooseAlgo(policy, bottles(1, 0, 0)), 'cuckatoo');
  });

  it('ties go to the last candidate in type-id order', () => {
    const all25 = { cuckaroo: 25, cuckatoo: 25, randomx: 25, progpow: 25 };
    assert.equal(chooseAlgo(all25, ZERO_BOTTLES), 'progpow');
    assert.equal(chooseAlgo(all25, bottles(0, 1, 0)), 'randomx');
    assert.equal(chooseAlgo(all25, bottles(1, 1, 0)), 'cuckatoo');
    assert.equal(chooseAlgo(all25, bottles(1, 1, 1)), 'cuckaroo');
    // A full round of policy 0 leaves every value at 0: progpow.
    assert.equal(chooseAlgo(P0, bottles(60, 38, 2)), 'progpow');
  });

  it('32-bit float scoring (values from an f32 build of the same formula)', () => {
    // Exact tie 2/3 = 2/3; double arithmetic would pick cuckatoo.
    assert.equal(chooseAlgo(P0, bottles(46, 28, 1)), 'progpow');
    assert.equal(chooseAlgo(P0, bottles(45, 28, 1, 1)), 'progpow');
    // Exact tie 4/3 = 4/3 (last would be randomx/progpow); f32 makes cuckatoo strictly best.
    assert.equal(chooseAlgo(P2, bottles(35, 38, 2)), 'cuckatoo');
    assert.equal(chooseAlgo(P2, bottles(38, 35, 2)), 'cuckatoo');
    // Beans above 2^24 are rounded to f32 before the multiplication by 100; rounding the
    // exact product once instead would flip both of these.
    assert.equal(chooseAlgo(P0, bottles(62_449_835, 45_222_288, 1)), 'cuckatoo');
    assert.equal(chooseAlgo(P0, bottles(40_368_146, 29_232_098, 1)), 'randomx');
    // The bean total wraps to 1, so randomx's score is huge: cuckatoo, not progpow.
    assert.equal(chooseAlgo(P0, bottles(4_294_967_295, 2, 0)), 'cuckatoo');
  });

  it('only positive shares are candidates; zero-share algorithms need no bottle', () => {
    const onlyRx = POLICY_CONFIGS.onlyRandomx.policies[0] as Policy;
    assert.equal(chooseAlgo(onlyRx, { randomx: 7 }), 'randomx');
    assert.equal(chooseAlgo(onlyRx, bottles(99, 0, 0)), 'randomx');
    assert.equal(chooseAlgo(P0, bottles(0, 0, 0, 50)), 'randomx');
  });

  it('undefined where Epic panics: a candidate missing from the bottles, or no candidate', () => {
    assert.equal(chooseAlgo(P0, { randomx: 1, progpow: 1 }), undefined);
    assert.equal(chooseAlgo(P0, {}), undefined);
    assert.equal(chooseAlgo(ZERO_BOTTLES, ZERO_BOTTLES), undefined);
    assert.equal(nextPolicy(P0, { randomx: 1 }), undefined);
  });

  it('nextBlockBottles: increments, resets after a full round, keeps the entries present', () => {
    assert.deepEqual(nextBlockBottles('randomx', bottles(3, 2, 1)), bottles(4, 2, 1));
    assert.deepEqual(nextBlockBottles('progpow', bottles(59, 38, 2, 1)), bottles(0, 1, 0));
    assert.deepEqual(nextBlockBottles('cuckatoo', bottles(60, 38, 2)), bottles(0, 0, 1));
    assert.deepEqual(nextBlockBottles('randomx', bottles(60, 38, 3)), bottles(61, 38, 3));
    assert.deepEqual(nextBlockBottles('randomx', { randomx: 3 }), { randomx: 4 });
    assert.deepEqual(nextBlockBottles('progpow', { randomx: 3 }), { randomx: 3, progpow: 1 });
    assert.deepEqual(nextBlockBottles('randomx', { randomx: 4_294_967_295 }), { randomx: 0 });
    assert.deepEqual(nextPolicy(P0, bottles(59, 38, 2, 1)), {
      algo: 'randomx',
      bottles: bottles(1, 0, 0),
    });
  });
});

describe('feijoada selector on mainnet', () => {
  it('from the genesis bottles {cuckaroo:1}: R P R P R R P, first cuckatoo at 22', () => {
    const chain = mainnetChain();
    assert.deepEqual(chain.tip.bottles, bottles(0, 0, 0, 1));
    const letters = chain.mineMany(101);
    assert.equal(letters.slice(0, 7), 'RPRPRRP');
    assert.equal(letters.indexOf('C') + 1, 22);
    assert.equal(letters.slice(0, 100), MAINNET_FIRST_100);
    const first99 = [...letters.slice(0, 99)];
    assert.deepEqual(
      ['R', 'P', 'C'].map((c) => first99.filter((l) => l === c).length),
      [59, 38, 2],
    );
    assert.deepEqual(chain.byHeight.get(1n)?.bottles, bottles(1, 0, 0, 1));
    assert.deepEqual(chain.byHeight.get(99n)?.bottles, bottles(59, 38, 2, 1));
    // Block 100 is chosen from the full bottles and starts a new round.
    assert.deepEqual(chain.byHeight.get(100n)?.bottles, bottles(1, 0, 0));
    assert.deepEqual(chain.byHeight.get(101n)?.bottles, bottles(1, 1, 0));
  });

  it('the template at height 1 on the genesis header', () => {
    const genesis = genesisHeader('mainnet');
    assert.deepEqual(
      scheduleBlock(DEFAULT, 1n, genesis, () => undefined),
      {
        policy: 0,
        algo: 'randomx',
        bottles: bottles(1, 0, 0, 1),
      },
    );
  });

  it('policy 2 from empty bottles (pow reference §10.7)', () => {
    let source = ZERO_BOTTLES;
    let letters = '';
    for (let i = 0; i < 32; i++) {
      const next = nextPolicy(P2, source);
      assert.ok(next);
      letters += LETTER[next.algo];
      source = next.bottles;
    }
    assert.equal(letters, 'PRCPRPRPRPRPRPRPRPRPRPRPRPRCPRPR');
  });

  it('over 10,000 blocks every share is within 1 block per 100 of the policy', () => {
    const chain = mainnetChain();
    const letters = chain.mineMany(10_000);
    const count = (c: string): number => letters.split(c).length - 1;
    assert.deepEqual([count('R'), count('P'), count('C'), count('K')], [5_999, 3_801, 200, 0]);
    for (const [c, share] of [
      ['R', 60],
      ['P', 38],
      ['C', 2],
    ] as const) {
      assert.ok(Math.abs(count(c) - share * 100) <= 100, c);
    }
  });

  it('any table, any bottles: after the first full round every prefix is within 1 block', () => {
    const tables = Object.values(POLICY_CONFIGS).flatMap((c) => c.policies);
    const start = fc
      .tuple(fc.nat(100), fc.nat(100), fc.nat(100), fc.nat(100))
      .filter((xs) => xs.reduce((a, b) => a + b) <= 100)
      .map(([k, c, r, p]) => bottles(r, p, c, k));
    fc.assert(
      fc.property(fc.constantFrom(...tables), start, (policy, first) => {
        const step = (source: Policy) => {
          const next = nextPolicy(policy, source);
          assert.ok(next);
          assert.ok((policy[next.algo] ?? 0) > 0);
          return next;
        };
        let source = first;
        while (countBeans(source) !== 100) source = step(source).bottles;
        const n = { cuckaroo: 0, cuckatoo: 0, randomx: 0, progpow: 0 };
        for (let i = 1; i <= 1_000; i++) {
          const next = step(source);
          n[next.algo]++;
          source = next.bottles;
          for (const algo of POW_ALGOS) {
            assert.ok(Math.abs(n[algo] - ((policy[algo] ?? 0) * i) / 100) <= 1, `${algo} ${i}`);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('only_randomx always schedules randomx; no_progpow never progpow', () => {
    const onlyRx = new Chain(genesisHeader('floonet'));
    assert.equal(onlyRx.mineMany(250, POLICY_CONFIGS.onlyRandomx), 'R'.repeat(250));
    const noPp = new Chain(genesisHeader('floonet'));
    const letters = noPp.mineMany(200, POLICY_CONFIGS.noProgpow);
    assert.equal(letters.slice(0, 10), 'RCRCRRCRCR');
    assert.deepEqual([letters.split('R').length - 1, letters.split('C').length - 1], [120, 80]);
  });
});

/** Headers 0..n−1 with the given policies; bottles tag each header by height (randomx = h). */
function tagged(policies: readonly number[]): Chain {
  const header = (h: number): Header => ({
    height: BigInt(h),
    policy: policies[h] as number,
    bottles: bottles(h, 0, 0),
  });
  const chain = new Chain(header(0));
  for (let h = 1; h < policies.length; h++) chain.byHeight.set(BigInt(h), header(h));
  return chain;
}

describe('feijoada bottles source and the 200-ancestor search', () => {
  const source = (chain: Chain, policy: number): Policy =>
    sourceBottles(chain.tip, policy, chain.previous);

  it('the parent carries the policy and an ancestor does: the parent', () => {
    assert.deepEqual(source(tagged([0, 0, 0]), 0), bottles(2, 0, 0));
  });

  it('the parent differs, an ancestor matches: that ancestor', () => {
    assert.deepEqual(source(tagged([0, 1, 1, 0, 0]), 1), bottles(2, 0, 0));
  });

  it('the ancestor found at the 200th step counts, at the 201st it does not', () => {
    const at = (distance: number, parentPolicy: number): number[] => {
      const policies = Array<number>(distance + 1).fill(0);
      policies[0] = 1;
      policies[distance] = parentPolicy;
      return [0, ...policies];
    };
    // Parent with another policy: the matching ancestor's bottles, else zero.
    assert.deepEqual(source(tagged(at(200, 0)), 1), bottles(1, 0, 0));
    assert.deepEqual(source(tagged(at(201, 0)), 1), ZERO_BOTTLES);
    // Parent with the policy: its own bottles only if the walk found a match.
    assert.deepEqual(source(tagged(at(200, 1)), 1), bottles(201, 0, 0));
    assert.deepEqual(source(tagged(at(201, 1)), 1), ZERO_BOTTLES);
  });

  it('the chain ending within 200 steps is not the limit; exactly 200 ancestors is', () => {
    // Parent at height 199 has 199 ancestors, none with policy 1: its own bottles.
    const short = tagged([...Array<number>(199).fill(0), 1]);
    assert.deepEqual(source(short, 1), bottles(199, 0, 0));
    assert.deepEqual(source(tagged([0, 0, 2]), 1), ZERO_BOTTLES);
    // Parent at height 200: 200 misses exhaust the search before the chain ends.
    const long = tagged([...Array<number>(200).fill(0), 1]);
    assert.deepEqual(source(long, 1), ZERO_BOTTLES);
  });

  it('never asks for more than 200 ancestors', () => {
    const chain = tagged(Array<number>(1_000).fill(0));
    let calls = 0;
    const counting = (h: Header): Header | undefined => {
      calls++;
      return chain.previous(h);
    };
    assert.deepEqual(sourceBottles(chain.tip, 1, counting), ZERO_BOTTLES);
    assert.equal(calls, BOTTLE_SEARCH_LIMIT);
  });

  it('era change 480,960 → 480,961: the first two blocks of policy 1 start from zero', () => {
    const first: Header = { height: 480_500n, policy: 0, bottles: bottles(30, 20, 1) };
    const chain = new Chain(first);
    const letters = chain.mineMany(470);
    const at = (h: bigint): Header => chain.byHeight.get(h) as Header;
    assert.equal(at(480_960n).policy, 0);
    assert.equal(at(480_961n).policy, 1);
    assert.equal(at(480_970n).policy, 1);
    // The old era runs on: block 480,960 still builds on its parent's bottles.
    assert.equal(countBeans(at(480_960n).bottles), countBeans(at(480_959n).bottles) + 1);
    const previous = chain.previous;
    assert.deepEqual(sourceBottles(at(480_960n), 1, previous), ZERO_BOTTLES);
    assert.deepEqual(sourceBottles(at(480_961n), 1, previous), ZERO_BOTTLES);
    assert.deepEqual(sourceBottles(at(480_962n), 1, previous), bottles(1, 0, 0));
    assert.deepEqual(at(480_961n).bottles, bottles(1, 0, 0));
    assert.deepEqual(at(480_962n).bottles, bottles(1, 0, 0));
    assert.deepEqual(at(480_963n).bottles, bottles(1, 1, 0));
    assert.deepEqual(at(480_964n).bottles, bottles(2, 1, 0));
    // Blocks 480,961…480,970: R R, then from {randomx:1} (worked by hand: 480,967 has beans
    // 3/2/0 of 5, so randomx 60 − 60 = 0, progpow 38 − 40 = −2, cuckatoo 2 − 0 = 2).
    assert.equal(letters.slice(-10), 'RRPRPRCRPR');
  });
});

describe('feijoada header check (validate_header steps 7–8)', () => {
  const rx: Proof = { kind: 'RandomX', hash: new Uint8Array(32) };
  const pp: Proof = { kind: 'ProgPow', mix: new Uint8Array(32) };
  const cuckoo = (edgeBits: number): Proof => ({ kind: 'Cuckoo', edgeBits, nonces: [] });
  const md5: Proof = { kind: 'MD5', edgeBits: 10, proof: '' };

  it('proof kinds: edge bits 29 are Cuckaroo, any other Cuckoo size Cuckatoo, MD5 never', () => {
    assert.equal(proofFitsAlgo(cuckoo(29), 'cuckaroo'), true);
    assert.equal(proofFitsAlgo(cuckoo(29), 'cuckatoo'), false);
    for (const bits of [9, 19, 24, 31]) {
      assert.equal(proofFitsAlgo(cuckoo(bits), 'cuckatoo'), true);
      assert.equal(proofFitsAlgo(cuckoo(bits), 'cuckaroo'), false);
    }
    assert.equal(proofFitsAlgo(rx, 'randomx'), true);
    assert.equal(proofFitsAlgo(rx, 'progpow'), false);
    assert.equal(proofFitsAlgo(pp, 'progpow'), true);
    for (const algo of POW_ALGOS) assert.equal(proofFitsAlgo(md5, algo), false);
  });

  it('allowed, known policy, expected algorithm', () => {
    const genesis = genesisHeader('mainnet');
    const none = (): undefined => undefined;
    const header = (policy: number, proof: Proof, height = 1n) => ({
      height,
      policy,
      bottles: ZERO_BOTTLES,
      proof,
    });
    assert.equal(checkBlockPolicy(DEFAULT, header(0, rx), genesis, none), undefined);
    assert.equal(checkBlockPolicy(DEFAULT, header(0, pp), genesis, none), 'InvalidSortAlgo');
    assert.equal(checkBlockPolicy(DEFAULT, header(0, md5), genesis, none), 'InvalidSortAlgo');
    assert.equal(checkBlockPolicy(DEFAULT, header(1, rx), genesis, none), 'PolicyIsNotAllowed');
    assert.equal(checkBlockPolicy(DEFAULT, header(64, rx), genesis, none), 'ThereIsNotPolicy');
    const broken = { height: 0n, policy: 0, bottles: { randomx: 1 } };
    assert.equal(checkBlockPolicy(DEFAULT, header(0, rx), broken, none), 'BottlesUnusable');
    // First block of era 1 on a policy-0 parent: zero bottles, so randomx.
    const parent = { height: 480_960n, policy: 0, bottles: bottles(60, 38, 2) };
    const eraStart = (proof: Proof) => header(1, proof, 480_961n);
    assert.equal(checkBlockPolicy(DEFAULT, eraStart(rx), parent, none), undefined);
    assert.equal(checkBlockPolicy(DEFAULT, eraStart(pp), parent, none), 'InvalidSortAlgo');
  });
});
