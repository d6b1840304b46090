// The WalletApi as the listeners and the CLI see it when the wallet runs as an actor: each
// method becomes one `call` message; an `err` reply becomes a WalletFailure again.
import type { JsonValue } from '../../core/json/value.js';
import { WalletFailure } from '../../core/wallet/errors.js';
import type { ActorRef, Plain } from '../../runtime/index.js';
import type { WalletApi } from './api.js';
import type { WalletEvents, WalletMethod, WalletProtocol } from './messages.js';

export function remoteWalletApi(ref: ActorRef<WalletProtocol, WalletEvents>): WalletApi {
  let synced = false;
  ref.watch('synced', (s) => {
    synced = s;
  });
  const call = async (method: WalletMethod, args: Plain[]): Promise<JsonValue> => {
    const reply = await ref.ask('call', { method, args });
    if ('err' in reply) throw new WalletFailure(reply.err);
    return reply.ok;
  };
  return new Proxy({} as WalletApi, {
    get(_target, name) {
      if (name === 'isNodeSynced') return () => synced;
      if (typeof name !== 'string') return undefined;
      return (...args: Plain[]) => call(name as WalletMethod, args);
    },
  });
}
