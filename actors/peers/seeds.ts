// Where the seed loop's seeds come from, by `seeding_type` (Epic's `seed.rs`): none; the
// configured `seeds` list; or the addresses of Epic's DNS seed for the network, resolved each
// time they are needed (floonet's name, Epic notes, does not exist yet). Programmatic seeds are
// an in-process hook in Epic's tests; a node started from a config has none.
import { lookup } from 'node:dns/promises';
import type { SeedingType } from '../../config/types.js';
import type { ChainType } from '../../core/chain_type.js';
import { type PeerAddr, parseIp } from './addr.js';

const DNS_SEEDS: Readonly<Record<'mainnet' | 'floonet', string>> = {
  mainnet: 'node.epiccash.com',
  floonet: 'floonet.epiccash.com',
};

/** Resolves a name to its addresses (node:dns's `lookup` with `all`; a fake in unit tests). */
export type Resolve = (name: string) => Promise<readonly { readonly address: string }[]>;

const dnsResolve: Resolve = (name) => lookup(name, { all: true });

export function seedSource(
  type: SeedingType,
  list: readonly PeerAddr[],
  chain: ChainType,
  log: (event: string, fields: Record<string, unknown>) => void,
  resolve: Resolve = dnsResolve,
): () => Promise<PeerAddr[]> {
  if (type === 'List') return async () => [...list];
  if (type !== 'DNSSeed') return async () => [];
  // Epic resolves the mainnet name for every network but floonet.
  const floonet = chain === 'floonet';
  const name = floonet ? DNS_SEEDS.floonet : DNS_SEEDS.mainnet;
  const port = floonet ? 13_414 : 3414;
  return async () => {
    try {
      const found = await resolve(name);
      return found.flatMap((a) => {
        const ip = parseIp(a.address);
        return ip === null ? [] : [{ ip, port }];
      });
    } catch (e) {
      log('p2p_seed_lookup_failed', { name, error: e instanceof Error ? e.message : String(e) });
      return [];
    }
  };
}
