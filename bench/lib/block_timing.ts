// Block processing as the chain logs it (`block_accepted` with its `ms`): blocks mined in this
// process and submitted, then their times read back from the node's log. The API benches time
// blocks at idle and under read load with it.
import { mineBlock, submit } from '../../test/support/miner.js';
import type { NodeProcess } from '../../test/support/node_process.js';

/** Mines and submits `n` blocks; their heights. */
export async function submitBlocks(url: string, n: number): Promise<bigint[]> {
  const heights: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const block = await mineBlock(url);
    const reply = await submit(url, block);
    if (reply.body.result?.Ok !== null) throw new Error(`submit: ${JSON.stringify(reply.body)}`);
    heights.push(block.header.height);
  }
  return heights;
}

/**
 * The chain's processing time of the blocks at `heights` (its block_accepted log), ms, sorted.
 * The chain thread's log can reach stderr after the reply: waited for a little.
 */
export async function processingMs(
  node: NodeProcess,
  heights: readonly bigint[],
): Promise<number[]> {
  const until = performance.now() + 5000;
  for (;;) {
    const log = node.stderr();
    const ms = heights.map((h) => {
      const m = new RegExp(`"event":"block_accepted","height":${h},[^\\n]*"ms":([\\d.]+)`).exec(
        log,
      );
      return m === null ? undefined : Number(m[1]);
    });
    if (ms.every((x) => x !== undefined)) return (ms as number[]).sort((a, b) => a - b);
    if (performance.now() > until) throw new Error(`no block_accepted lines for ${heights}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const median = (xs: readonly number[]): number =>
  xs[Math.floor(xs.length / 2)] ?? Number.NaN;
