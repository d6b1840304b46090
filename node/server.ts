// The node process: loads secrets and TLS, starts the actors and the gateway, and runs until a
// signal asks it to stop. Filled in with the gateway; the CLI calls `runNode`.
import type { ServerConfig } from '../config/types.js';

/** Runs the node until SIGINT/SIGTERM; resolves with the process exit code. */
export async function runNode(config: ServerConfig): Promise<number> {
  process.stderr.write(
    `mwnode: would start on ${config.apiHttpAddr.host}:${config.apiHttpAddr.port}\n`,
  );
  return 1;
}
