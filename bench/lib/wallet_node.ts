// The node bench/wallet.ts measures against, holding the plan's first `count` blocks: started on
// a copy of the cached database when there is one for that height, else fed the cached blocks,
// else mined (while the parts are still being built, on a first run) — and, when it was fed the
// whole plan, stopped, its database cached, and started again on it.
import { join } from 'node:path';
import { getTip } from '../../test/support/block_feed.js';
import {
  type NodeProcess,
  removeHome,
  spawnNode,
  tempHome,
  writeConfig,
} from '../../test/support/node_process.js';
import {
  blockRecorder,
  cachedBlocks,
  dropBlocks,
  type PartsSource,
  restoreChainSnapshot,
  saveChainSnapshot,
} from './wallet_cache.js';
import { type FedChain, type MiningPhases, mineChain, replayChain } from './wallet_chain.js';
import type { ChainSize } from './wallet_plan.js';

const SERVER_LINES = ['pow_policy = { cuckatoo = 100 }'];
type Say = (s: string) => void;

function startIn(home: string): Promise<NodeProcess> {
  const configFile = writeConfig(home, SERVER_LINES);
  // A node opening a large database takes longer to listen than a fresh one.
  return spawnNode({ home, configFile, stdout: 'ignore', timeoutMs: 180_000, stderrLimit: 65_536 });
}

async function discard(node: NodeProcess): Promise<void> {
  await node.stop();
  removeHome(node.home);
}

export interface ChainOnNode {
  readonly node: NodeProcess;
  readonly fed: FedChain;
  readonly phases: MiningPhases | null;
}

async function fromSnapshot(key: ChainSize, count: number, say: Say): Promise<ChainOnNode | null> {
  const home = tempHome();
  const t0 = performance.now();
  const tip = restoreChainSnapshot(key, count, join(home, 'chain_data'));
  if (tip === null) {
    removeHome(home);
    return null;
  }
  const node = await startIn(home);
  const at = await getTip(node.url);
  if (at.height !== tip.height || at.hash !== tip.hash) {
    say(`the cached database reopened at ${at.height}, not ${tip.height}: feeding blocks instead`);
    await discard(node);
    return null;
  }
  const seconds = (performance.now() - t0) / 1000;
  return { node, fed: { how: 'copied', seconds, blocks: [] }, phases: null };
}

/** Stops the node, keeps its database for later runs, and starts it again on it. */
async function snapshotAndRestart(node: NodeProcess, key: ChainSize): Promise<NodeProcess> {
  const tip = await getTip(node.url);
  await node.stop();
  saveChainSnapshot(key, join(node.home, 'chain_data'), { height: tip.height, hash: tip.hash });
  return startIn(node.home);
}

async function fromBlocks(
  key: ChainSize,
  count: number,
  whole: boolean,
  say: Say,
): Promise<ChainOnNode | null> {
  const blocks = cachedBlocks(key, count);
  if (blocks === null) return null;
  let node = await startIn(tempHome());
  let fed: FedChain;
  try {
    fed = await replayChain(node.url, blocks, (d, t) => {
      if (d % 250 === 0 || d === t) say(`replayed ${d}/${t}`);
    });
  } catch (e) {
    say(`the cached blocks were refused (${String(e).slice(0, 300)}): mining again`);
    dropBlocks(key);
    await discard(node);
    return null;
  }
  if (whole) node = await snapshotAndRestart(node, key);
  return { node, fed, phases: null };
}

/** Mines, records the blocks, and after the whole plan saves the database and restarts on it. */
async function mined(
  src: PartsSource,
  key: ChainSize,
  count: number,
  say: Say,
): Promise<ChainOnNode> {
  const home = tempHome();
  let node = await startIn(home);
  try {
    const t0 = performance.now();
    const fed = await mineChain(
      node.url,
      count,
      src.get,
      (d, t) => {
        if (d % 100 === 0 || d === t) {
          const s = (performance.now() - t0) / 1000;
          say(`mined ${d}/${t} in ${s.toFixed(0)} s`);
        }
      },
      blockRecorder(key),
    );
    if (count === src.plan.blocks.length) node = await snapshotAndRestart(node, key);
    return { node, fed, phases: fed.phases };
  } catch (e) {
    await discard(node);
    throw e;
  }
}

export async function chainOnNode(
  src: PartsSource,
  key: ChainSize,
  count: number,
  say: Say,
): Promise<ChainOnNode> {
  const whole = count === src.plan.blocks.length;
  const ready = (await fromSnapshot(key, count, say)) ?? (await fromBlocks(key, count, whole, say));
  if (ready !== null) return ready;
  // Mining starts the cached record afresh: a shorter run must not cut the plan's chain short.
  if (!whole) throw new Error(`only the whole plan is mined; ${count} blocks are not cached yet`);
  return mined(src, key, count, say);
}
