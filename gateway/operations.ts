// Each API operation once, shared by its `/v1` route and its `/v2` method: ask the actor,
// shape the reply with a view. "Same payloads on /v1 and /v2" holds by construction.
import type { JsonValue } from '../core/json/value.js';
import { ROUTE_INDEX } from './routes.js';
import type { Services } from './services.js';
import { statusView, tipView, versionView } from './views.js';

export interface Operations {
  routeIndex(): Promise<JsonValue>;
  status(): Promise<JsonValue>;
  tip(): Promise<JsonValue>;
  version(): Promise<JsonValue>;
}

export interface NodeIdentity {
  readonly userAgent: string;
}

export function operations(services: Services, identity: NodeIdentity): Operations {
  return {
    routeIndex: async () => [...ROUTE_INDEX],
    // Until the peers actor exists the node has no connections and nothing to sync from.
    status: async () =>
      statusView({
        head: await services.chain('getHead', {}),
        userAgent: identity.userAgent,
        connections: 0,
        syncStatus: 'no_sync',
      }),
    tip: async () => tipView(await services.chain('getTip', {})),
    version: async () => versionView(await services.chain('getHead', {})),
  };
}
