// What every part of the wallet service works with: the opened wallet (lifecycle), the node, the
// updater's message queue, the clock. The parts (owner_read.ts, owner_tx.ts, foreign_*.ts, …)
// each build a slice of WalletApi from one WalletEnv; service.ts joins the slices.
import type { WalletConfig } from '../../config/wallet_toml.js';
import type { ChainType } from '../../core/chain_type.js';
import type { JsonValue } from '../../core/json/value.js';
import type { WalletLifecycle } from './lifecycle.js';
import type { NodeClient } from './node_client.js';

/** Epic keeps at most this many updater messages (owner_updater.rs). */
export const MAX_STATUS_MESSAGES = 10_000;

/**
 * The updater's queue of `StatusMessage`s (reference §4.1 `get_updater_messages`): JSON values
 * already in Epic's externally tagged shape, e.g. `{"Scanning":["…", 40]}`.
 */
export class StatusQueue {
  private readonly items: JsonValue[] = [];

  /** `echo` sees each message as it is queued (a command's progress display). */
  constructor(private readonly echo: ((m: JsonValue) => void) | null = null) {}

  push(message: JsonValue): void {
    this.echo?.(message);
    this.items.push(message);
    if (this.items.length > MAX_STATUS_MESSAGES) this.items.shift();
  }

  /** Removes the `count` oldest messages and returns them newest first, as Epic does. */
  take(count: number): JsonValue[] {
    return this.items.splice(0, count).reverse();
  }

  get size(): number {
    return this.items.length;
  }
}

export interface WalletEnv {
  readonly chainType: ChainType;
  readonly config: WalletConfig;
  readonly lifecycle: WalletLifecycle;
  readonly node: NodeClient;
  readonly status: StatusQueue;
  /** The node last answered `get_status` with `no_sync` (foreign 503 rule; refresh result). */
  synced: boolean;
  readonly now: () => Date;
  /** Structured log; never give it secrets (passwords, seeds, tokens, blinding factors). */
  readonly log: (event: string, fields: Record<string, unknown>) => void;
  /**
   * Runs `fn` when no other wallet operation runs (Epic holds one wallet lock per call). API
   * calls go through it (service.ts); so must anything started by a timer, e.g. the updater.
   */
  readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** A FIFO lock: each `fn` starts after the previous one settled. */
export function exclusiveRunner(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
