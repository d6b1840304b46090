// The stratum server in the node process (`[server.stratum_mining_config]`
// enable_stratum_server): spawns the stratum actor linked to the chain and the pool, tells it of
// each new head and of sync changes, and logs where it listens. A listener that cannot start (its
// port taken) is logged and the node runs on without it, as Epic's node does.
import { stratumActor } from '../actors/stratum/messages.js';
import { formatSocketAddr } from '../config/addr.js';
import type { ServerConfig } from '../config/types.js';
import type { ActorSystem } from '../runtime/index.js';
import { log } from './log.js';

export interface StratumHandle {
  readonly port: number;
}

export async function startStratum(
  config: ServerConfig,
  system: ActorSystem,
  /** Registers a call at each new head. */
  onHead: (w: () => void) => void,
  syncing: { now: () => boolean; onChange: (f: (syncing: boolean) => void) => void },
): Promise<StratumHandle | null> {
  const s = config.stratum;
  if (!s.enableStratumServer) return null;
  try {
    const stratum = await system.spawn(stratumActor, {
      name: 'stratum',
      links: ['chain', 'pool'],
      init: {
        chainType: config.chainType,
        foundationPath: config.foundationPath,
        host: s.stratumServerAddr.host,
        port: s.stratumServerAddr.port,
        walletUrl: s.burnReward ? null : s.walletListenerUrl,
        attemptSecs: s.attemptTimePerBlock,
        minimums: {
          cuckatoo: s.cuckatooMinimumShareDifficulty,
          randomx: s.randomxMinimumShareDifficulty,
          progpow: s.progpowMinimumShareDifficulty,
        },
        verifierThreads: 1,
      },
    });
    const quiet = () => undefined;
    stratum.ask('setSyncing', { syncing: syncing.now() }).catch(quiet);
    syncing.onChange((now) => stratum.ask('setSyncing', { syncing: now }).catch(quiet));
    onHead(() => stratum.ask('headChanged', {}).catch(quiet));
    const port = await stratum.ask('port', {});
    log('stratum_listening', { addr: formatSocketAddr({ host: s.stratumServerAddr.host, port }) });
    return { port };
  } catch (e) {
    log('stratum_failed', { error: e instanceof Error ? e.message : String(e) });
    return null;
  }
}
