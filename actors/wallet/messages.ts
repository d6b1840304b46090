// The wallet actor's protocol. The whole Owner and Foreign API crosses as one kind: a method
// name and its decoded arguments (plain values: bigint, Uint8Array, JSON), answered with the
// `Ok` JSON or the wallet error's JSON, so the thread boundary never carries a class instance.
import type { WalletConfig } from '../../config/wallet_toml.js';
import type { JsonValue } from '../../core/json/value.js';
import { actorModule, type Plain } from '../../runtime/index.js';
import type { WalletApi } from './api.js';

/** Every API method but the synchronous sync flag (that one is an event). */
export type WalletMethod = Exclude<keyof WalletApi, 'isNodeSynced'>;

export type WalletReply = { readonly ok: JsonValue } | { readonly err: JsonValue };

export interface WalletProtocol {
  call: { req: { method: WalletMethod; args: Plain[] }; res: WalletReply };
}

export interface WalletEvents {
  /** The node's sync state as the wallet's poller last saw it. */
  synced: boolean;
}

export interface WalletInit {
  readonly config: WalletConfig;
  /** When given, the wallet is opened at start without a mask (`token: null` works). */
  readonly password: string | null;
  /**
   * How the node's sync state is followed: `poll` every `syncPollMs` (Epic: 10 s, listeners),
   * `once` before the first call (one-shot commands), `off` (commands that need no node).
   */
  readonly sync: 'poll' | 'once' | 'off';
  readonly syncPollMs?: number;
  /** Show the updater's messages on stderr as they come (commands run in a terminal). */
  readonly echoStatus?: boolean;
}

export const walletActor = actorModule<WalletProtocol, WalletInit, WalletEvents>(
  new URL('./index.js', import.meta.url),
  'createWallet',
);
