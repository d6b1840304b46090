// Starts the `mwnode` executable compiled with this bench (test/support/node_process.ts runs the
// node of its own build) on the automated-testing chain in a temporary home.
import {
  type NodeProcess,
  spawnNode,
  tempHome,
  writeConfig,
} from '../../test/support/node_process.js';

/**
 * Runs the node and resolves once it logs `listening`; rejects with its stderr if it exits.
 * `p2pLines` go to `[server.p2p_config]` (loopback, port 0 unless they say otherwise); `home`
 * (default: a new temporary one) may hold a chain from an earlier start.
 */
export function startBenchNode(
  serverLines: readonly string[] = [],
  p2pLines: readonly string[] = [],
  stderrLimit = 65_536,
  home = tempHome(),
): Promise<NodeProcess> {
  const configFile = writeConfig(home, serverLines, true, 'automated', p2pLines);
  // Nobody reads the console of a long run, and only the start of its log (`stderrLimit`).
  return spawnNode({ home, configFile, stdout: 'ignore', timeoutMs: 30_000, stderrLimit });
}
