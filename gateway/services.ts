// What the gateway may ask of the actors: one typed `ask` per actor, and the latest state they
// publish. The node wires these to the runtime; tests may wire them to in-thread actors.
import type {
  ChainHeadInfo,
  ChainProtocol,
  ChainRead,
  ReadResult,
} from '../actors/chain/messages.js';
import type { ConnectedPeer, PeersProtocol } from '../actors/peers/messages.js';
import type { SyncStatus } from '../actors/peers/sync.js';
import type { PoolProtocol } from '../actors/pool/messages.js';
import type { SharedRing, YieldFlag } from '../runtime/index.js';

/** An actor protocol: message kind → request and reply types. */
export type ProtocolShape<P> = { readonly [K in keyof P]: { req: unknown; res: unknown } };

export type Ask<P extends ProtocolShape<P>> = <K extends keyof P & string>(
  kind: K,
  body: P[K]['req'],
) => Promise<P[K]['res']>;

export interface Services {
  readonly chain: Ask<ChainProtocol>;
  readonly pool: Ask<PoolProtocol>;
  readonly peers: Ask<PeersProtocol>;
  /** The pool's published generation: changes whenever its transactions do (0 before any). */
  readonly poolGeneration: () => number;
  /**
   * The head as the chain actor last published it (its `head` event), or null before the first
   * one. Events reach the gateway before the reply of the request that caused them, so a
   * client that saw its block accepted reads the new head here.
   */
  readonly head: () => ChainHeadInfo | null;
  /**
   * Chain reads through the read replicas (replica_reads.ts), answered from the published head;
   * absent: the chain actor answers them all.
   */
  readonly chainRead?: (q: ChainRead) => Promise<ReadResult>;
  /**
   * The connected peers as the peers actor last published them (its `connected` event); a new
   * array at every change, so reply caches may key on it. Empty before the first event.
   */
  readonly connectedPeers: () => readonly ConnectedPeer[];
  /**
   * The sync state as the peers actor last published it (its `sync` event), a new object at every
   * change; absent (tests without a P2P layer) means `no_sync`.
   */
  readonly syncStatus?: () => SyncStatus;
  /**
   * Registers a listener called after every published head and pool generation (the template
   * feed's cue, template_feed.ts); absent: templates are only looked at when asked for.
   */
  readonly onStateChange?: (listener: () => void) => void;
  /**
   * The ring the chain actor lends get_outputs bodies in (its spawn's `shared` memory); absent:
   * they come inside its replies.
   */
  readonly replyRing?: SharedRing;
  /**
   * Raised by the chain while it processes blocks: the gateway waits at its next request (a few
   * milliseconds at most, yield_flag.ts) so that the block gets the cores. Absent: never waits.
   */
  readonly blockFlag?: YieldFlag;
}

/** Before the first `sync` event: one shared object, so caches keyed on it stay put. */
export const NO_SYNC: SyncStatus = Object.freeze({ status: 'no_sync' });

/** Facts about this build that answers include. */
export const NODE_INFO = {
  /** `get_version.node_version`: the Epic release whose interface we serve (clients compare it). */
  epicVersion: '4.0.0',
  /** Peer protocol version (`Status.protocol_version`). */
  protocolVersion: 2,
} as const;

/** The connected list before any peer: one shared array, so caches keyed on it stay put. */
export const NO_PEERS: readonly ConnectedPeer[] = Object.freeze([]);
