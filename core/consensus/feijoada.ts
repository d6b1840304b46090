// Feijoada, Epic's deterministic algorithm scheduler: the policy tables, which policy a height
// emits and allows, and which algorithm a block must be mined with given the bottles (per-round
// block counts per algorithm) it inherits from its ancestors.
import type { ChainType } from '../chain_type.js';
import type { Policy, PowAlgo, Proof } from '../types/pow.js';
import { POW_ALGOS } from '../types/pow.js';
import { policyAlgoOfProof } from './difficulty.js';
// Epic's policy eras are its reward eras (BLOCK_ERA_1..5), so the era table is shared.
import { ERA_ENDS } from './supply.js';

/** Beans in a full round; the block after a full round starts from empty bottles. */
export const BOTTLE_ROUND = 100;
/** How many ancestors of the parent Epic's bottle search looks at before giving up. */
export const BOTTLE_SEARCH_LIMIT = 200;

export const ZERO_BOTTLES: Policy = Object.freeze({
  cuckaroo: 0,
  cuckatoo: 0,
  randomx: 0,
  progpow: 0,
});

/** From `height` on, the header's policy index p is allowed iff bit p of `mask` is set. */
export interface AllowedPolicy {
  readonly height: bigint;
  readonly mask: bigint;
}

export interface PolicyConfig {
  /** Percent per algorithm, indexed by the header's `policy`. */
  readonly policies: readonly Policy[];
  readonly allowed: readonly AllowedPolicy[];
}

export type PolicyFlavour = 'default' | 'noProgpow' | 'onlyRandomx';

export interface PolicyFlags {
  readonly noProgpow?: boolean;
  readonly onlyRandomx?: boolean;
}

const shares = (randomx: number, progpow: number, cuckatoo: number): Policy =>
  Object.freeze({ cuckaroo: 0, cuckatoo, randomx, progpow });

// One policy per era, each allowed only from the first height of its era.
const ERA_ALLOWED: readonly AllowedPolicy[] = Object.freeze(
  [0n, ...ERA_ENDS.map((end) => end + 1n)].map((height, i) =>
    Object.freeze({ height, mask: 1n << BigInt(i) }),
  ),
);

const config = (policies: Policy[]): PolicyConfig =>
  Object.freeze({ policies: Object.freeze(policies), allowed: ERA_ALLOWED });

export const POLICY_CONFIGS: Readonly<Record<PolicyFlavour, PolicyConfig>> = Object.freeze({
  default: config([
    shares(60, 38, 2),
    shares(60, 38, 2),
    shares(48, 48, 4),
    shares(48, 48, 4),
    shares(48, 48, 4),
    shares(48, 48, 4),
  ]),
  noProgpow: config([
    shares(60, 0, 40),
    shares(60, 0, 40),
    shares(50, 0, 50),
    shares(45, 0, 55),
    shares(25, 0, 75),
    shares(15, 0, 85),
  ]),
  onlyRandomx: config(Array.from({ length: 6 }, () => shares(100, 0, 0))),
});

/** A node-chosen table (test chains only): `shares` for every policy index, eras as usual. */
export function customPolicyConfig(shares: Policy): PolicyConfig {
  const row = Object.freeze({ cuckaroo: 0, cuckatoo: 0, randomx: 0, progpow: 0, ...shares });
  return config(Array.from({ length: 6 }, () => row));
}

/**
 * The policy table a node runs with. Mainnet ignores the config flags; elsewhere `only_randomx`
 * wins over `no_progpow` because Epic applies it second.
 */
export function policyConfig(chain: ChainType, flags: PolicyFlags = {}): PolicyConfig {
  if (chain === 'mainnet') return POLICY_CONFIGS.default;
  if (flags.onlyRandomx === true) return POLICY_CONFIGS.onlyRandomx;
  if (flags.noProgpow === true) return POLICY_CONFIGS.noProgpow;
  return POLICY_CONFIGS.default;
}

/** The policy index a template puts in the header at `height`: its era (same on every chain). */
export function emittedPolicy(height: bigint): number {
  return ERA_ENDS.filter((end) => height > end).length;
}

/** Epic's `get_policies`: the table row for a header's policy index, if there is one. */
export function policyAt(config: PolicyConfig, index: number): Policy | undefined {
  return config.policies[index];
}

/**
 * The mask in force at `height`: the entry with the greatest height ≤ `height`, else the last
 * entry; undefined only for an empty list (where Epic panics).
 */
export function allowedMask(allowed: readonly AllowedPolicy[], height: bigint): bigint | undefined {
  let best: AllowedPolicy | undefined;
  for (const entry of allowed) {
    if (entry.height <= height && (best === undefined || entry.height >= best.height)) best = entry;
  }
  return (best ?? allowed[allowed.length - 1])?.mask;
}

export function isAllowedPolicy(config: PolicyConfig, height: bigint, policy: number): boolean {
  const mask = allowedMask(config.allowed, height);
  // A u64 shift in a Rust release build keeps only the low 6 bits of the amount.
  return mask !== undefined && (mask & (1n << BigInt(policy % 64))) !== 0n;
}

/** Beans in the bottles, at least 1; the u32 sum wraps as in Epic's release build. */
export function countBeans(bottles: Policy): number {
  let sum = 0;
  for (const algo of POW_ALGOS) sum = (sum + (bottles[algo] ?? 0)) >>> 0;
  return Math.max(sum, 1);
}

const f32 = Math.fround;

/**
 * The algorithm furthest below its share: maximal `share − 100·beans/total`, all in 32-bit float
 * as Epic computes it, the last of equal candidates (type-id order) winning. Undefined where Epic
 * panics: no algorithm with a positive share, or bottles lacking one of those algorithms.
 */
export function chooseAlgo(policy: Policy, bottles: Policy): PowAlgo | undefined {
  const total = f32(countBeans(bottles));
  let best: PowAlgo | undefined;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const algo of POW_ALGOS) {
    const share = policy[algo] ?? 0;
    if (share <= 0) continue;
    const beans = bottles[algo];
    if (beans === undefined) return undefined;
    const score = f32(f32(100 * f32(beans)) / total);
    const value = f32(f32(share) - score);
    if (value >= bestValue) {
      best = algo;
      bestValue = value;
    }
  }
  return best;
}

/** The bottles a block carries after being mined with `algo`; a full round starts afresh. */
export function nextBlockBottles(algo: PowAlgo, bottles: Policy): Policy {
  // Entries the parent lacks stay absent: they change the header's serialized size.
  const base = countBeans(bottles) === BOTTLE_ROUND ? ZERO_BOTTLES : bottles;
  return { ...base, [algo]: ((base[algo] ?? 0) + 1) >>> 0 };
}

/** What the scheduler reads of a header. */
export interface PolicyBottles {
  readonly policy: number;
  readonly bottles: Policy;
}

/**
 * A header's parent (by its `prev_hash`, so on the header's own fork), or undefined past genesis
 * or when the store does not have it.
 */
export type PreviousHeader<H extends PolicyBottles> = (header: H) => H | undefined;

// Epic's `BottleIter` walk: the first of the parent's nearest ancestors carrying `policy`,
// 'none' when the chain ends first, 'limit' when 200 of them miss.
function ancestorWithPolicy<H extends PolicyBottles>(
  parent: H,
  policy: number,
  previous: PreviousHeader<H>,
): H | 'none' | 'limit' {
  let head = parent;
  for (let step = 0; step < BOTTLE_SEARCH_LIMIT; step++) {
    const prev = previous(head);
    if (prev === undefined) return 'none';
    if (prev.policy === policy) return prev;
    head = prev;
  }
  return 'limit';
}

/**
 * The bottles a block with header policy `policy` builds on, given its parent. The ancestor walk
 * comes first and an exhausted search means empty bottles even when the parent itself carries
 * `policy`; that is why the first two blocks of a new era start from zero counters.
 */
export function sourceBottles<H extends PolicyBottles>(
  parent: H,
  policy: number,
  previous: PreviousHeader<H>,
): Policy {
  const found = ancestorWithPolicy(parent, policy, previous);
  if (found === 'limit') return ZERO_BOTTLES;
  if (parent.policy === policy) return parent.bottles;
  return found === 'none' ? ZERO_BOTTLES : found.bottles;
}

export interface Scheduled {
  readonly algo: PowAlgo;
  /** The new block's own `bottles`. */
  readonly bottles: Policy;
}

/** Epic's `next_policy`: the algorithm due under `policy` and the bottles that result. */
export function nextPolicy(policy: Policy, source: Policy): Scheduled | undefined {
  const algo = chooseAlgo(policy, source);
  return algo === undefined ? undefined : { algo, bottles: nextBlockBottles(algo, source) };
}

export interface BlockSchedule extends Scheduled {
  readonly policy: number;
}

/** What a template at `height` on top of `parent` carries: emitted policy, algorithm, bottles. */
export function scheduleBlock<H extends PolicyBottles>(
  config: PolicyConfig,
  height: bigint,
  parent: H,
  previous: PreviousHeader<H>,
): BlockSchedule | undefined {
  const policy = emittedPolicy(height);
  const table = policyAt(config, policy);
  if (table === undefined) return undefined;
  const next = nextPolicy(table, sourceBottles(parent, policy, previous));
  return next === undefined ? undefined : { policy, ...next };
}

/** Whether a proof is of the scheduled kind (MD5 never is): the policy check's reading of a proof. */
export function proofFitsAlgo(proof: Proof, algo: PowAlgo): boolean {
  return policyAlgoOfProof(proof) === algo;
}

/** Epic's error names; `BottlesUnusable` is ours, where Epic panics on the parent's bottles. */
export type PolicyError =
  | 'PolicyIsNotAllowed'
  | 'ThereIsNotPolicy'
  | 'InvalidSortAlgo'
  | 'BottlesUnusable';

export interface ScheduledHeader extends PolicyBottles {
  readonly height: bigint;
  readonly proof: Proof;
}

/** The policy steps of Epic's header validation, in its order; undefined when they pass. */
export function checkBlockPolicy<H extends PolicyBottles>(
  config: PolicyConfig,
  header: ScheduledHeader,
  parent: H,
  previous: PreviousHeader<H>,
): PolicyError | undefined {
  if (!isAllowedPolicy(config, header.height, header.policy)) return 'PolicyIsNotAllowed';
  const table = policyAt(config, header.policy);
  if (table === undefined) return 'ThereIsNotPolicy';
  const algo = chooseAlgo(table, sourceBottles(parent, header.policy, previous));
  if (algo === undefined) return 'BottlesUnusable';
  return proofFitsAlgo(header.proof, algo) ? undefined : 'InvalidSortAlgo';
}
