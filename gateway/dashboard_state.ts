// What the status page shows (dashboard.ts), as one JSON object built from what the actors
// publish — head, sync state, connected peers — plus the pool's sizes, the last blocks' headers
// and the gateway's request rate. Every u64 is sent as a decimal string: the page's JavaScript
// parses JSON into doubles, and a total difficulty must show the digits get_status prints.
import type { ChainRead, ReadResult } from '../actors/chain/messages.js';
import { formatPeerAddr } from '../actors/peers/addr.js';
import { apiSyncStatus, syncInfo } from '../actors/peers/sync.js';
import { capabilitiesText } from '../actors/peers/types.js';
import { toHex } from '../core/bytes.js';
import { algoOfProof, type Difficulty, POW_ALGOS, type Proof } from '../core/types/pow.js';
import type { RequestRateView } from './request_rate.js';
import { NO_PEERS, NO_SYNC, NODE_INFO, type Services } from './services.js';

/** Blocks listed, newest first. */
export const LAST_BLOCKS = 10;
/** Peers listed (the count shows them all): keeps a snapshot small on a node with many. */
export const MAX_PEERS_SHOWN = 64;
/** Rows kept by block hash: the listed ones and a reorg's worth more. */
const BLOCK_CACHE = 4 * LAST_BLOCKS;

export interface BlockRow {
  readonly height: string;
  readonly hash: string;
  readonly algorithm: string;
  /** RFC 3339, as get_header prints it. */
  readonly timestamp: string;
  readonly previous: string;
}

export interface PeerRow {
  readonly addr: string;
  readonly direction: 'Inbound' | 'Outbound';
  readonly height: string;
  readonly total_difficulty: Readonly<Record<string, string>>;
  /** As get_connected_peers prints them (`HEADER_HIST | PEER_LIST …`). */
  readonly capabilities: string;
  readonly user_agent: string;
  readonly version: number;
}

export interface Snapshot {
  readonly node: { readonly user_agent: string; readonly protocol_version: number };
  readonly tip: {
    readonly height: string;
    readonly hash: string;
    readonly total_difficulty: Readonly<Record<string, string>>;
  } | null;
  /** Epic's `sync_status`, and `sync_info` (numbers as strings) when the state has one. */
  readonly sync: {
    readonly status: string;
    readonly info: Readonly<Record<string, string>> | null;
  };
  readonly connections: number;
  readonly peers: readonly PeerRow[];
  readonly pool: { readonly pool: number; readonly stempool: number } | null;
  readonly blocks: readonly BlockRow[];
  readonly requests: { readonly total: number; readonly per_second: number };
  /** When the snapshot was taken, Unix milliseconds. */
  readonly at: number;
}

function difficultyText(d: Difficulty): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of POW_ALGOS) {
    const v = d[a];
    if (v !== undefined) out[a] = v.toString();
  }
  return out;
}

/** The algorithm a printed header's proof stands for (its `proof` and `edge_bits`). */
export function algorithmOfPrinted(proof: string, edgeBits: number): string {
  const kinds: Readonly<Record<string, Proof>> = {
    Cuckoo: { kind: 'Cuckoo', edgeBits, nonces: [] },
    MD5: { kind: 'MD5', edgeBits, proof: '' },
    RandomX: { kind: 'RandomX', hash: new Uint8Array(0) },
    ProgPow: { kind: 'ProgPow', mix: new Uint8Array(0) },
  };
  const p = kinds[proof];
  return p === undefined ? proof : algoOfProof(p);
}

function rowOf(header: unknown): BlockRow | null {
  if (typeof header !== 'object' || header === null) return null;
  const h = header as Record<string, unknown>;
  const { hash, height, timestamp, previous, proof, edge_bits } = h;
  if (typeof hash !== 'string' || typeof timestamp !== 'string') return null;
  if (typeof previous !== 'string' || typeof proof !== 'string') return null;
  if (typeof height !== 'bigint' && typeof height !== 'number') return null;
  const edges = typeof edge_bits === 'number' ? edge_bits : 0;
  const algorithm = algorithmOfPrinted(proof, edges);
  return { height: height.toString(), hash, algorithm, timestamp, previous };
}

export interface SnapshotSources {
  readonly services: Services;
  readonly userAgent: string;
  readonly requests: () => RequestRateView;
}

/** Builds snapshots; remembers the block rows it read, by hash (a header never changes). */
export class SnapshotBuilder {
  readonly #src: SnapshotSources;
  readonly #rows = new Map<string, BlockRow>();

  constructor(src: SnapshotSources) {
    this.#src = src;
  }

  async build(): Promise<Snapshot> {
    const s = this.#src.services;
    const head = s.head() ?? (await s.chain('getHead', {}));
    const sync = s.syncStatus?.() ?? NO_SYNC;
    const peers = s.connectedPeers() ?? NO_PEERS;
    const [pool, blocks] = await Promise.all([this.#poolSizes(), this.#lastBlocks(head.tip)]);
    const info = syncInfo(sync);
    const r = this.#src.requests();
    return {
      node: { user_agent: this.#src.userAgent, protocol_version: NODE_INFO.protocolVersion },
      tip: {
        height: head.tip.height.toString(),
        hash: toHex(head.tip.lastBlockPushed),
        total_difficulty: difficultyText(head.tip.totalDifficulty),
      },
      sync: {
        status: apiSyncStatus(sync),
        info:
          info === null
            ? null
            : Object.fromEntries(Object.entries(info).map(([k, v]) => [k, v.toString()])),
      },
      connections: peers.length,
      peers: peers.slice(0, MAX_PEERS_SHOWN).map((p) => ({
        addr: formatPeerAddr(p.addr),
        direction: p.direction,
        height: p.height.toString(),
        total_difficulty: difficultyText(p.totalDifficulty),
        capabilities: capabilitiesText(p.capabilities),
        user_agent: p.userAgent,
        version: p.version,
      })),
      pool,
      blocks,
      requests: { total: r.total, per_second: r.perSecond },
      at: Date.now(),
    };
  }

  /** Null when the pool cannot answer now (busy): the page keeps its last figures. */
  async #poolSizes(): Promise<Snapshot['pool']> {
    try {
      return await this.#src.services.pool('sizes', {});
    } catch {
      return null;
    }
  }

  async #header(hash: string): Promise<BlockRow | null> {
    const known = this.#rows.get(hash);
    if (known !== undefined) return known;
    const s = this.#src.services;
    const q: ChainRead = { kind: 'header', by: { hash: Buffer.from(hash, 'hex') } };
    let r: ReadResult;
    try {
      r = await (s.chainRead ? s.chainRead(q) : s.chain('read', q));
    } catch {
      return null;
    }
    const row = 'ok' in r ? rowOf(r.ok) : null;
    if (row === null) return null;
    if (this.#rows.size >= BLOCK_CACHE) {
      const oldest = this.#rows.keys().next().value;
      if (oldest !== undefined) this.#rows.delete(oldest);
    }
    this.#rows.set(hash, row);
    return row;
  }

  /** Walks back from the tip by previous hash, so a reorg shows the chain as it now is. */
  async #lastBlocks(tip: { height: bigint; lastBlockPushed: Uint8Array }): Promise<BlockRow[]> {
    const rows: BlockRow[] = [];
    let hash = toHex(tip.lastBlockPushed);
    let height = tip.height;
    while (rows.length < LAST_BLOCKS && height >= 0n) {
      const row = await this.#header(hash);
      if (row === null) break;
      rows.push(row);
      hash = row.previous;
      height--;
    }
    return rows;
  }
}
