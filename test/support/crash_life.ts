// One "life" of a node under a crash test: started in its home, checked against the reference
// chain, fed a block or two over HTTP, and SIGKILLed at a random moment of the next block's
// submit_block. The moment is a fraction of that submit's expected latency — learned from the
// submits that finished, kept apart for the first one after a start (workers warm up) and the
// later ones — so most kills land while the block is verified or committed.
import assert from 'node:assert/strict';
import type { JsonValue } from '../../core/json/value.js';
import { getTip, type RecordedBlock, submitRecorded, type Tip } from './block_feed.js';
import type { KillableNode } from './killable_node.js';
import { basic, ownerSecret } from './node_process.js';

export async function validateChain(node: KillableNode): Promise<JsonValue> {
  const r = await fetch(`${node.url}/v2/owner`, {
    method: 'POST',
    headers: { authorization: basic(ownerSecret(node.home)) },
    body: '{"jsonrpc":"2.0","method":"validate_chain","params":[],"id":1}',
  });
  return (JSON.parse(await r.text()) as { result: JsonValue }).result;
}

/** After a (re)start: the head is the reference's block at its height, and the chain is valid. */
export async function checkOnChain(
  node: KillableNode,
  chain: readonly RecordedBlock[],
): Promise<Tip> {
  const tip = await getTip(node.url);
  if (tip.height > 0) assert.equal(tip.hash, chain[tip.height - 1]?.hash, `head at ${tip.height}`);
  assert.deepEqual(await validateChain(node), { Ok: null }, `validate_chain at ${tip.height}`);
  return tip;
}

/** Expected submit_block latency in ms: the first after a start, and the later ones. */
export class Latency {
  private readonly means = { cold: 1000, warm: 80 };
  add(first: boolean, ms: number): void {
    const k = first ? 'cold' : 'warm';
    this.means[k] = 0.7 * this.means[k] + 0.3 * ms;
  }
  of(first: boolean): number {
    return this.means[first ? 'cold' : 'warm'];
  }
}

export interface LifePlan {
  /** Blocks fed (and answered) before the one the kill interrupts. */
  readonly before: number;
  /** Where in the interrupted submit's expected latency the kill falls, in [0, 1). */
  readonly fraction: number;
}

export interface Death {
  /** The head's height when the node came back. */
  readonly cameBackAt: number;
  /** The height of the block whose submit the kill interrupted (or followed). */
  readonly inFlight: number;
  readonly delayMs: number;
  /** Whether the kill came before submit_block answered. */
  readonly beforeReply: boolean;
}

/** Kills may land a little after the expected latency too (reply sent, node idle). */
const OVERSHOOT = 1.25;

/** One life of `node`; `chain` must have a block beyond head + `plan.before`. */
export async function liveAndDie(
  node: KillableNode,
  chain: readonly RecordedBlock[],
  plan: LifePlan,
  latency: Latency,
): Promise<Death> {
  const tip = await checkOnChain(node, chain);
  let next = tip.height + 1;
  for (let i = 0; i < plan.before; i++, next++)
    await timedSubmit(node, chain, next, i === 0, latency);
  const block = chain[next - 1];
  assert.ok(block !== undefined, `no block ${next} left to interrupt`);
  const first = plan.before === 0;
  const delayMs = plan.fraction * OVERSHOOT * latency.of(first);
  let replied = false;
  let killed = false;
  const dying = sleep(delayMs).then(() => {
    killed = true;
    const beforeReply = !replied;
    return node.kill().then(() => beforeReply);
  });
  const t0 = performance.now();
  try {
    await submitRecorded(node.url, block);
    replied = true;
    latency.add(first, performance.now() - t0);
  } catch (e) {
    // A broken connection is what a kill does; any refusal is a failure.
    if (!killed || !isConnectionError(e)) throw e;
  }
  return { cameBackAt: tip.height, inFlight: block.height, delayMs, beforeReply: await dying };
}

async function timedSubmit(
  node: KillableNode,
  chain: readonly RecordedBlock[],
  height: number,
  first: boolean,
  latency: Latency,
): Promise<void> {
  const block = chain[height - 1];
  assert.ok(block !== undefined, `no block ${height}`);
  const t0 = performance.now();
  await submitRecorded(node.url, block);
  latency.add(first, performance.now() - t0);
}

function isConnectionError(e: unknown): boolean {
  return e instanceof TypeError && /fetch failed/.test(e.message);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
