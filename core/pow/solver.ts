// A Cuckatoo solver for small graphs (tests and the local test miner; usernet's 15 edge bits,
// at most a few more): hash every edge once, trim edges that cannot lie on a cycle the way
// Epic's lean miner does, then search the survivors depth-first for cycles of the proof size.
import { verifyCuckatoo } from './cuckatoo.js';
import { setPrePowNonce, sipKeysFromPrePow } from './keys.js';
import { type SipKeys, siphash24Lo } from './siphash.js';

/** Beyond this the endpoint tables (8 bytes an edge) stop being "small". */
export const MAX_SOLVER_EDGE_BITS = 27;
/** Epic's miner keeps at most ten cycles per graph. */
export const MAX_SOLUTIONS = 10;

export interface Graph {
  readonly u: Int32Array;
  readonly v: Int32Array;
}

/** u and v endpoint of every edge: siphash24 of 2e and 2e + 1, masked to the edge bits. */
export function graphEndpoints(keys: SipKeys, edgeBits: number): Graph {
  if (!Number.isInteger(edgeBits) || edgeBits < 1 || edgeBits > MAX_SOLVER_EDGE_BITS)
    throw new RangeError(`the solver takes 1..${MAX_SOLVER_EDGE_BITS} edge bits, not ${edgeBits}`);
  const edges = 2 ** edgeBits;
  const mask = edges - 1;
  const u = new Int32Array(edges);
  const v = new Int32Array(edges);
  for (let e = 0; e < edges; e++) {
    u[e] = siphash24Lo(keys, e << 1, 0) & mask;
    v[e] = siphash24Lo(keys, (e << 1) | 1, 0) & mask;
  }
  return { u, v };
}

/**
 * Kills, side by side and until nothing changes, every edge whose endpoint has no partner
 * (x ^ 1) among the live edges' endpoints on that side: such an edge can be on no cycle.
 * Returns the surviving edge indices in ascending order.
 */
export function trimEdges(graph: Graph): Int32Array {
  const edges = graph.u.length;
  const seen = new Uint32Array(Math.max(1, edges >>> 5));
  let live = new Int32Array(edges);
  for (let e = 0; e < edges; e++) live[e] = e;
  let count = edges;
  for (;;) {
    const before = count;
    for (const side of [graph.u, graph.v]) {
      seen.fill(0);
      for (let i = 0; i < count; i++) {
        const x = side[live[i] as number] as number;
        seen[x >>> 5] = (seen[x >>> 5] as number) | (1 << (x & 31));
      }
      let kept = 0;
      for (let i = 0; i < count; i++) {
        const e = live[i] as number;
        const p = (side[e] as number) ^ 1;
        if (((seen[p >>> 5] as number) >>> (p & 31)) & 1) live[kept++] = e;
      }
      count = kept;
    }
    if (count === before) break;
  }
  live = live.slice(0, count);
  return live;
}

/** Edges of `list` grouped by endpoint value. */
function byEndpoint(list: Int32Array, side: Int32Array): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const e of list) {
    const x = side[e] as number;
    const bucket = map.get(x);
    if (bucket === undefined) map.set(x, [e]);
    else bucket.push(e);
  }
  return map;
}

/**
 * Cycles of exactly `proofSize` edges among `survivors`, each found once from its smallest
 * edge: leave that edge by its v end, alternate sides, and close on the partner of its u.
 * A node pair (x >> 1) is used at most once, as the verifier's branch check demands.
 */
export function findCycles(
  graph: Graph,
  survivors: Int32Array,
  proofSize: number,
  maxSolutions = MAX_SOLUTIONS,
): number[][] {
  const { u, v } = graph;
  const byU = byEndpoint(survivors, u);
  const byV = byEndpoint(survivors, v);
  const usedU = new Set<number>();
  const usedV = new Set<number>();
  const path: number[] = [];
  const found: number[][] = [];
  let first = 0;

  const extend = (e: number): void => {
    if (found.length >= maxSolutions) return;
    const depth = path.length;
    if (depth === proofSize) {
      if (((u[e] as number) ^ 1) === u[first]) found.push([...path].sort((a, b) => a - b));
      return;
    }
    const viaV = depth % 2 === 1;
    const end = viaV ? (v[e] as number) : (u[e] as number);
    const used = viaV ? usedV : usedU;
    if (used.has(end >>> 1)) return;
    const next = (viaV ? byV : byU).get(end ^ 1);
    if (next === undefined) return;
    used.add(end >>> 1);
    for (const f of next) {
      if (f <= first) continue;
      path.push(f);
      extend(f);
      path.pop();
    }
    used.delete(end >>> 1);
  };

  for (const e0 of survivors) {
    first = e0;
    usedU.add((u[e0] as number) >>> 1);
    path.push(e0);
    extend(e0);
    path.pop();
    usedU.delete((u[e0] as number) >>> 1);
    if (found.length >= maxSolutions) break;
  }
  return found;
}

/** Every verified `proofSize`-cycle of the graph with these keys, nonces ascending. */
export function solveGraph(
  keys: SipKeys,
  edgeBits: number,
  proofSize: number,
  maxSolutions = MAX_SOLUTIONS,
): bigint[][] {
  const graph = graphEndpoints(keys, edgeBits);
  const cycles = findCycles(graph, trimEdges(graph), proofSize, maxSolutions);
  return cycles.map((cycle) => {
    const nonces = cycle.map(BigInt);
    verifyCuckatoo(keys, edgeBits, nonces, proofSize);
    return nonces;
  });
}

export interface Mined {
  /** The pre-pow with the winning nonce in its last 8 bytes. */
  readonly prePow: Uint8Array;
  readonly nonce: bigint;
  readonly nonces: bigint[];
  /** Graphs tried, the winning one included. */
  readonly tries: number;
}

export interface MineOptions {
  readonly startNonce?: bigint;
  /** Give up after this many graphs (default: no limit below 2^64). */
  readonly maxTries?: number;
  /** Extra acceptance test, e.g. the difficulty target; the first accepted cycle wins. */
  readonly accept?: (nonces: readonly bigint[], prePow: Uint8Array) => boolean;
}

/**
 * Epic's test-miner loop: nonce after nonce (wrapping at 2^64), solve the graph of each
 * pre-pow and return the first cycle accepted; null when maxTries graphs had none.
 */
export function mineCuckatoo(
  prePow: Uint8Array,
  edgeBits: number,
  proofSize: number,
  opts: MineOptions = {},
): Mined | null {
  const work = prePow.slice();
  const maxTries = opts.maxTries ?? Number.POSITIVE_INFINITY;
  let nonce = BigInt.asUintN(64, opts.startNonce ?? 0n);
  for (let tries = 1; tries <= maxTries; tries++) {
    setPrePowNonce(work, nonce);
    for (const nonces of solveGraph(sipKeysFromPrePow(work), edgeBits, proofSize)) {
      if (opts.accept === undefined || opts.accept(nonces, work))
        return { prePow: work, nonce, nonces, tries };
    }
    nonce = BigInt.asUintN(64, nonce + 1n);
  }
  return null;
}
