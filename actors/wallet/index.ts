// The wallet actor: owns the opened wallet (seed, keychain, SQLite store) and runs every API
// method one at a time on its own thread, so proving and rewinding range proofs never stall the
// listeners. It publishes the node's sync state for the Foreign listener's 503 rule.
import { readApiSecretIfPresent } from '../../config/secrets.js';
import type { JsonValue } from '../../core/json/value.js';
import { isWalletFailure } from '../../core/wallet/errors.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { installSecpBackend } from '../../jobs/secp_addon.js';
import { log } from '../../node/log.js';
import { type ActorContext, type ActorFactory, actorFromHandlers } from '../../runtime/index.js';
import type { WalletApi } from './api.js';
import { exclusiveRunner, StatusQueue, type WalletEnv } from './env.js';
import { WalletLifecycle } from './lifecycle.js';
import type { WalletEvents, WalletInit, WalletProtocol, WalletReply } from './messages.js';
import { measureWallet } from './metrics.js';
import { NodeClient } from './node_client.js';
import { echoStatus } from './progress.js';
import { walletService } from './service.js';
import { pollSyncOnce, startSyncPoller } from './sync.js';

function walletEnv(init: WalletInit, ctx: ActorContext<WalletEvents>): WalletEnv {
  const { config } = init;
  let synced = false;
  return {
    chainType: config.chainType,
    config,
    lifecycle: new WalletLifecycle({
      topDir: config.topDir,
      dataDir: config.dataFileDir,
      isFloonet: config.chainType === 'floonet',
    }),
    node: new NodeClient({
      url: config.checkNodeApiHttpAddr,
      secret: readApiSecretIfPresent(config.nodeApiSecretPath),
      username: config.nodeApiUsername,
    }),
    status: new StatusQueue(init.echoStatus === true ? (m) => echoStatus(m) : null),
    get synced() {
      return synced;
    },
    set synced(value: boolean) {
      if (value !== synced) ctx.publish('synced', value);
      synced = value;
    },
    now: () => new Date(),
    log,
    exclusive: exclusiveRunner(),
  };
}

/** Runs one API method; a wallet error is an answer (`Err`), anything else a crash to report. */
async function callMethod(
  env: WalletEnv,
  api: WalletApi,
  method: keyof WalletApi,
  args: readonly unknown[],
): Promise<WalletReply> {
  const fn = api[method] as (...a: readonly unknown[]) => unknown;
  try {
    return { ok: (await env.exclusive(async () => fn(...args))) as JsonValue };
  } catch (e) {
    if (isWalletFailure(e)) return { err: e.err };
    throw e;
  }
}

export const createWallet: ActorFactory<WalletProtocol, WalletInit, WalletEvents> = async (
  init,
  ctx,
) => {
  installSecpBackend();
  installNativeBlake2b();
  const env = walletEnv(init, ctx);
  measureWallet(env);
  if (init.password !== null) env.lifecycle.openWallet(init.password, false);
  const api = walletService(env);
  ctx.publish('synced', false);
  // A one-shot command asks once, as Epic's command line checks the node before it runs.
  if (init.sync === 'once') await pollSyncOnce(env);
  const stopPoller = init.sync === 'poll' ? startSyncPoller(env, init.syncPollMs) : () => undefined;
  return actorFromHandlers<WalletProtocol>(
    { call: (req) => callMethod(env, api, req.method, req.args) },
    () => {
      stopPoller();
      env.lifecycle.closeWallet();
    },
  );
};
