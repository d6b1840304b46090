// The wallet-refresh workload on a real mwnode, shared by bench/api.ts and bench/soak.ts: a
// mined chain with a few spends, and wrk mixes of get_status (owner), get_tip, get_outputs ×500
// (hits: a wallet's own outputs; misses) and get_kernel.
import { randomBytes } from 'node:crypto';
import { toHex } from '../../core/bytes.js';
import type { JsonValue } from '../../core/json/value.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { foreignOk, foreignRpc, mineBlock, submit } from '../../test/support/miner.js';
import { basic, ownerSecret } from '../../test/support/node_process.js';
import { spendCoinbase } from '../../test/support/spend.js';
import { rssMiB } from './sync_side.js';
import type { MixEntry } from './wrk_mix.js';

// Coinbases mature after 3 blocks on this chain: coinbases 1…SPENDS are spendable after these.
const WARM_BLOCKS = 6;
export const SPENDS = 3;
export const QUERY_COMMITS = 500;

const rpc = (method: string, params: JsonValue[]): string =>
  JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 });

export interface ChainFacts {
  /** Hex commitments of the outputs still unspent at the tip. */
  readonly unspent: string[];
  /** Hex excesses of every kernel mined. */
  readonly excesses: string[];
}

export function facts(blocks: readonly Block[]): ChainFacts {
  const spent = new Set(blocks.flatMap((b) => b.body.inputs.map((i) => toHex(i.commit))));
  const outputs = blocks.flatMap((b) => b.body.outputs.map((o) => toHex(o.commit)));
  const excesses = blocks.flatMap((b) => b.body.kernels.map((k) => toHex(k.excess)));
  return { unspent: outputs.filter((c) => !spent.has(c)), excesses };
}

/** A commitment-shaped string (0x08/0x09 prefix, 32 random bytes) no output of the chain has. */
function madeUpCommit(): string {
  return (randomBytes(1)[0] as number) & 1
    ? `09${toHex(randomBytes(32))}`
    : `08${toHex(randomBytes(32))}`;
}

/** A wallet's request: 500 of its real outputs (hits), in a random order. */
export function hitCommits(real: readonly string[]): string[] {
  if (real.length < QUERY_COMMITS)
    throw new Error(`${real.length} unspent outputs: mine more blocks (BENCH_BLOCKS)`);
  const commits = [...real];
  for (let i = commits.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [commits[i], commits[j]] = [commits[j] as string, commits[i] as string];
  }
  return commits.slice(0, QUERY_COMMITS);
}

/** 500 commitments the node has never seen (misses). */
function missCommits(): string[] {
  return Array.from({ length: QUERY_COMMITS }, madeUpCommit);
}

async function waitForPool(url: string): Promise<void> {
  const until = performance.now() + 15_000;
  for (;;) {
    const t = (await foreignOk(url, 'get_block_template', [])) as { [k: string]: JsonValue };
    if ((t.transactions as JsonValue[]).length === SPENDS) return;
    if (performance.now() > until) throw new Error('the template never listed the pool');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Mines BLOCKS blocks, the spends of coinbases 1…SPENDS in the block after WARM_BLOCKS. */
export async function buildChain(url: string, count: number): Promise<Block[]> {
  const blocks: Block[] = [];
  const mine = async (): Promise<void> => {
    const block = await mineBlock(url);
    const reply = await submit(url, block);
    if (reply.body.result?.Ok !== null) throw new Error(`submit: ${JSON.stringify(reply.body)}`);
    blocks.push(block);
  };
  for (let i = 0; i < WARM_BLOCKS; i++) await mine();
  for (let i = 1; i <= SPENDS; i++) {
    const tx = transactionToJson(spendCoinbase(i));
    const pushed = await foreignRpc(url, 'push_transaction', [tx, true]);
    if (pushed.body.result?.Ok !== null) throw new Error(`push: ${JSON.stringify(pushed.body)}`);
  }
  await waitForPool(url);
  while (blocks.length < count) await mine();
  return blocks;
}

export interface Workload {
  readonly name: string;
  readonly entries: MixEntry[];
}

export function workloads(home: string, chain: ChainFacts): Workload[] {
  const owner = { authorization: basic(ownerSecret(home)) };
  const status: MixEntry = {
    path: '/v2/owner',
    body: rpc('get_status', []),
    headers: owner,
    weight: 1,
  };
  const tip: MixEntry = { path: '/v2/foreign', body: rpc('get_tip', []), weight: 1 };
  // A few wallets, each asking about 500 of its outputs; and requests that find nothing.
  const bodies = (commits: () => string[]): MixEntry[] =>
    Array.from({ length: 4 }, () => ({
      path: '/v2/foreign',
      body: rpc('get_outputs', [commits(), null, null, false, false]),
      weight: 1,
    }));
  const outputs = bodies(() => hitCommits(chain.unspent));
  const misses = bodies(missCommits);
  const kernels: MixEntry[] = chain.excesses.map((e) => ({
    path: '/v2/foreign',
    body: rpc('get_kernel', [e, null, null]),
    weight: 1,
  }));
  // Equal shares per method in the mix: weights make each method's entries sum to the same.
  const share = outputs.length * kernels.length;
  const scaled = (es: readonly MixEntry[]): MixEntry[] =>
    es.map((e) => ({ ...e, weight: share / es.length }));
  return [
    { name: 'get_status (owner)', entries: [status] },
    { name: 'get_tip', entries: [tip] },
    { name: `get_outputs ×${QUERY_COMMITS} hits`, entries: outputs },
    { name: `get_outputs ×${QUERY_COMMITS} misses`, entries: misses },
    { name: 'get_kernel', entries: kernels },
    {
      name: 'mixed 25% each',
      entries: [...scaled([status]), ...scaled([tip]), ...scaled(outputs), ...scaled(kernels)],
    },
  ];
}

/**
 * fetch may reuse a keep-alive socket the node closed during a load phase: the request (a read)
 * is simply made again.
 */
async function post(url: string, e: MixEntry): Promise<Response> {
  const init = {
    method: 'POST',
    body: e.body,
    headers: { 'content-type': 'application/json', ...e.headers },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (!(err instanceof TypeError) || attempt === 3) throw err;
    }
  }
}

/** Sends each entry once, outside the load, and checks the reply is a success. */
export async function check(url: string, entries: readonly MixEntry[]): Promise<number> {
  let bytes = 0;
  for (const e of entries) {
    const r = await post(`${url}${e.path}`, e);
    const text = await r.text();
    const body = JSON.parse(text) as { result?: { Ok?: unknown } };
    if (r.status !== 200 || body.result?.Ok === undefined)
      throw new Error(`${e.body.slice(0, 60)}…: ${r.status} ${text.slice(0, 200)}`);
    bytes = Math.max(bytes, text.length);
  }
  return bytes;
}

/** The node's highest resident set while `during` runs, sampled every 100. */
export async function peakRssDuring<T>(
  pid: number | undefined,
  during: Promise<T>,
): Promise<[T, number]> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid));
  }, 100);
  try {
    const out = await during;
    return [out, Math.max(peak, rssMiB(pid))];
  } finally {
    clearInterval(timer);
  }
}
