// The Foreign listener's view of the node's sync state (epic-wallet controller.rs runs a thread
// that asks the node for its status every 10 s). `env.synced` is true only while the last answer
// said `no_sync`; any failure counts as not synced, so the 503 rule errs on the safe side.
import type { WalletEnv } from './env.js';

export const SYNC_POLL_MS = 10_000;

/** One poll: asks `get_status` and records whether the node reported `no_sync`. */
export async function pollSyncOnce(env: WalletEnv): Promise<boolean> {
  try {
    const status = await env.node.getStatus();
    env.synced = status.syncStatus === 'no_sync';
  } catch (e) {
    env.synced = false;
    env.log('wallet.sync_poll_failed', { error: e instanceof Error ? e.message : String(e) });
  }
  return env.synced;
}

/**
 * Polls at once and then every `periodMs`; returns a function that stops the poller. Polls
 * never overlap: the next one is scheduled when the previous one has finished.
 */
export function startSyncPoller(env: WalletEnv, periodMs: number = SYNC_POLL_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = (): void => {
    void pollSyncOnce(env).then(() => {
      if (stopped) return;
      timer = setTimeout(tick, periodMs);
      timer.unref();
    });
  };
  tick();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
