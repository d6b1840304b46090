// The real `mwnode` on the automated-testing chain with the Cuckatoo-only policy the test miner
// solves for, in a home that survives restarts (reorg, crash and chain-read tests).
import { type NodeProcess, spawnNode, tempHome, writeConfig } from './node_process.js';

/** The policy the test miner (miner.ts) solves for. */
export const CUCKATOO_ONLY = 'pow_policy = { cuckatoo = 100 }';

/** A node process that can also be killed abruptly (all of them can). */
export type KillableNode = NodeProcess;

/** Starts the node in `home` (a new temporary one by default); resolves once it listens. */
export function startKillable(
  home: string = tempHome(),
  timeoutMs = 20_000,
  p2pLines: readonly string[] = [],
): Promise<KillableNode> {
  const configFile = writeConfig(home, [CUCKATOO_ONLY], true, 'automated', p2pLines);
  return spawnNode({ home, configFile, timeoutMs });
}
