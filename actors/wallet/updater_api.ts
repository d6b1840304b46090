// The Owner API's updater methods (epic-wallet api/src/owner.rs, api_impl/owner_updater.rs):
// start_updater runs update_wallet_state every `frequency` ms until stop_updater; messages go to
// env.status, which get_updater_messages drains. While it runs, retrieve_* ignore
// `refresh_from_node` (isUpdaterRunning).
//
// The Epicbox and Tor methods answer a GenericError naming the missing feature (issue 10 item 3;
// docs/wallet.md "Decisions").
import type { JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type { Token, WalletApi } from './api.js';
import type { WalletEnv } from './env.js';
import { updateWalletState } from './updater.js';

export type UpdaterKeys =
  | 'startUpdater'
  | 'stopUpdater'
  | 'getUpdaterMessages'
  | 'getPublicAddress'
  | 'setTorConfig'
  | 'setEpicboxConfig'
  | 'proofAddressFromOnionV3';

export const EPICBOX_UNSUPPORTED = 'Epicbox is not supported by mwwallet';
export const TOR_UNSUPPORTED = 'Tor is not supported by mwwallet';

interface UpdaterState {
  running: boolean;
  timer: NodeJS.Timeout | null;
  /** Bumped by every start/stop so a stale loop ends. */
  generation: number;
}

const states = new WeakMap<WalletEnv, UpdaterState>();

function stateOf(env: WalletEnv): UpdaterState {
  let s = states.get(env);
  if (s === undefined) {
    s = { running: false, timer: null, generation: 0 };
    states.set(env, s);
  }
  return s;
}

/** True while a start_updater loop runs for this wallet environment. */
export function isUpdaterRunning(env: WalletEnv): boolean {
  return states.get(env)?.running === true;
}

/**
 * One loop per start: update, then sleep `frequency`, until stopped. An update that fails
 * ends the loop, as Epic's thread returns on the first error (it is only logged); unlike Epic,
 * the wallet then counts as not running, so retrieve_* refresh again when asked.
 */
function startLoop(env: WalletEnv, token: Token, frequency: number): void {
  const s = stateOf(env);
  if (s.timer !== null) clearTimeout(s.timer);
  s.generation += 1;
  const generation = s.generation;
  s.running = true;
  const tick = async (): Promise<void> => {
    s.timer = null;
    try {
      await env.exclusive(async () => {
        const keychain = env.lifecycle.keychain(token);
        return updateWalletState(env, keychain, false);
      });
    } catch (e) {
      if (s.generation === generation) s.running = false;
      env.log('wallet.updater_failed', { error: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (s.generation !== generation || !s.running) return;
    s.timer = setTimeout(() => void tick(), frequency);
    s.timer.unref();
  };
  s.timer = setTimeout(() => void tick(), 0);
  s.timer.unref();
}

function stopLoop(env: WalletEnv): void {
  const s = stateOf(env);
  s.running = false;
  s.generation += 1;
  if (s.timer !== null) clearTimeout(s.timer);
  s.timer = null;
}

function unsupported(message: string): Promise<JsonValue> {
  return Promise.reject(WalletFailure.genericError(message));
}

export function updaterApi(env: WalletEnv): Pick<WalletApi, UpdaterKeys> {
  return {
    startUpdater: async (token, frequency) => {
      // Epic lets a bad token start a thread that dies at once; we refuse it up front.
      env.lifecycle.keychain(token);
      startLoop(env, token, frequency);
      return null;
    },
    stopUpdater: async () => {
      stopLoop(env);
      return null;
    },
    getUpdaterMessages: async (count) => env.status.take(count),
    getPublicAddress: () => unsupported(EPICBOX_UNSUPPORTED),
    setTorConfig: () => unsupported(TOR_UNSUPPORTED),
    setEpicboxConfig: () => unsupported(EPICBOX_UNSUPPORTED),
    proofAddressFromOnionV3: () => unsupported(TOR_UNSUPPORTED),
  };
}
