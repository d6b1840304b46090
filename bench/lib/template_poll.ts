// How soon a new block shows in get_block_template: pollers ask back to back on keep-alive
// connections while a freshly mined block is submitted, and the first reply at the new height
// is timed from the moment submit_block was sent and from the moment its reply arrived.
import { Agent, request } from 'node:http';
import { stringifyJson } from '../../core/json/stringify.js';
import { blockToJson } from '../../core/serde/block.js';
import type { Block } from '../../core/types/block.js';

export interface PollStats {
  readonly samples: number;
  readonly minMs: number;
  readonly medianMs: number;
  readonly maxMs: number;
}

export interface TipTiming {
  readonly fromSubmit: PollStats;
  /** Negative when a poller saw the new height before the submit reply reached the client. */
  readonly fromReply: PollStats;
  readonly submit: PollStats;
  /** Median round trip of one poll: the resolution of the timings above. */
  readonly pollMs: number;
}

const POLLERS = 4;
const BODY = '{"jsonrpc":"2.0","method":"get_block_template","params":[],"id":1}';
const agent = new Agent({ keepAlive: true, maxSockets: POLLERS });

function stats(values: readonly number[]): PollStats {
  const s = [...values].sort((a, b) => a - b);
  return {
    samples: s.length,
    minMs: s[0] ?? Number.NaN,
    medianMs: s[Math.floor(s.length / 2)] ?? Number.NaN,
    maxMs: s[s.length - 1] ?? Number.NaN,
  };
}

/** One get_block_template; resolves with the height in the reply (its first "height" key). */
function templateHeight(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        const m = /"height": (\d+)/.exec(text);
        if (m === null) reject(new Error(`no height in ${text.slice(0, 200)}`));
        else resolve(Number(m[1]));
      });
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

/**
 * submit_block on a connection of its own: fetch's pooled keep-alive sockets can be stale after
 * the load phase (the node closed them), and a submit must not be retried blindly.
 */
function submitFresh(url: URL, block: Block): Promise<string> {
  const body = stringifyJson({
    jsonrpc: '2.0',
    method: 'submit_block',
    params: [blockToJson(block)],
    id: 1,
  });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls until a reply shows `height`; resolves with the time that reply arrived. */
async function pollUntil(url: URL, height: number, rtts: number[]): Promise<number> {
  for (;;) {
    const sent = performance.now();
    const h = await templateHeight(url);
    const now = performance.now();
    rtts.push(now - sent);
    if (h >= height) return now;
  }
}

/** Mines `blocks` blocks one at a time (untimed) and times each one's way into the template. */
export async function timeToNewTemplate(
  baseUrl: string,
  blocks: number,
  mine: () => Promise<Block>,
): Promise<TipTiming> {
  const url = new URL('/v2/foreign', baseUrl);
  const fromSubmit: number[] = [];
  const fromReply: number[] = [];
  const submitMs: number[] = [];
  const rtts: number[] = [];
  for (let i = 0; i < blocks; i++) {
    const block = await mine();
    const next = Number(block.header.height) + 1;
    const pollers = Array.from({ length: POLLERS }, () => pollUntil(url, next, rtts));
    const sent = performance.now();
    const reply = await submitFresh(url, block);
    const replied = performance.now();
    if (!/"Ok": null/.test(reply)) throw new Error(`block refused: ${reply}`);
    const seen = Math.min(...(await Promise.all(pollers)));
    fromSubmit.push(seen - sent);
    fromReply.push(seen - replied);
    submitMs.push(replied - sent);
  }
  agent.destroy();
  return {
    fromSubmit: stats(fromSubmit),
    fromReply: stats(fromReply),
    submit: stats(submitMs),
    pollMs: stats(rtts).medianMs,
  };
}
