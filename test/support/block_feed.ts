// Recording a mined chain and feeding it to another node over HTTP: blocks kept as the JSON a
// client submits (core/serde/block.ts), a seeded PRNG so random schedules replay, and the
// node's tip as get_tip answers it.
import assert from 'node:assert/strict';
import { toHex } from '../../core/bytes.js';
import { stringifyJson } from '../../core/json/stringify.js';
import type { JsonValue } from '../../core/json/value.js';
import { headerHash } from '../../core/ser/header.js';
import { blockToJson } from '../../core/serde/block.js';
import type { Block } from '../../core/types/block.js';
import { AUTO, foreignOk, foreignRpc, mineBlock } from './miner.js';

export interface Tip {
  readonly height: number;
  readonly hash: string;
  /** Difficulty map as get_tip prints it (per algorithm). */
  readonly totalDifficulty: JsonValue;
}

export async function getTip(url: string): Promise<Tip> {
  const t = (await foreignOk(url, 'get_tip', [])) as {
    height: number;
    last_block_pushed: string;
    total_difficulty: JsonValue;
  };
  return { height: t.height, hash: t.last_block_pushed, totalDifficulty: t.total_difficulty };
}

export function blockHashHex(block: Block): string {
  return toHex(headerHash(block.header, AUTO));
}

export interface RecordedBlock {
  readonly height: number;
  readonly hash: string;
  readonly json: JsonValue;
}

export function record(block: Block): RecordedBlock {
  return {
    height: Number(block.header.height),
    hash: blockHashHex(block),
    json: blockToJson(block),
  };
}

/** Mines `count` blocks on the node at `url`, submitting each (coinbase key m/2/0/keyBase+h). */
export async function mineChain(url: string, count: number, keyBase = 0): Promise<RecordedBlock[]> {
  const out: RecordedBlock[] = [];
  for (let i = 0; i < count; i++) {
    const tip = await getTip(url);
    const block = await mineBlock(url, { keyIndex: keyBase + tip.height + 1 });
    const reply = await foreignRpc(url, 'submit_block', [blockToJson(block)]);
    assert.deepEqual(reply.body.result, { Ok: null }, `block ${tip.height + 1}`);
    assert.equal((await getTip(url)).height, tip.height + 1, 'get_tip advances with each block');
    out.push(record(block));
  }
  return out;
}

/** What submit_block said: accepted, or refused because the node already has the block. */
export type FeedOutcome = 'accepted' | 'known';

const KNOWN = /^Block is unfit: already known in (head|store)$/;

/** Submits one recorded block; any refusal other than "already known" throws with its text. */
export async function submitRecorded(url: string, block: RecordedBlock): Promise<FeedOutcome> {
  const reply = await foreignRpc(url, 'submit_block', [block.json]);
  const result = reply.body.result;
  if (reply.status === 200 && result !== undefined && 'Ok' in result) return 'accepted';
  const internal = (result?.Err as { Internal?: string } | undefined)?.Internal;
  if (typeof internal === 'string' && KNOWN.test(internal)) return 'known';
  throw new Error(
    `block ${block.height} ${block.hash}: HTTP ${reply.status} ${stringifyJson(reply.body as JsonValue)}`,
  );
}

/** Polls `check` every 20 ms until it holds; fails after `ms`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  ms = 8_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`not reached within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** mulberry32: a small deterministic PRNG in [0, 1), so a failing schedule can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
