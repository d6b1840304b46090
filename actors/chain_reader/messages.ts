// A chain read replica's protocol: the node API's chain reads, each answered from the head the
// gateway names, off the chain actor's thread (gateway/replica_reads.ts routes them).
import type { ChainType } from '../../core/chain_type.js';
import { actorModule } from '../../runtime/index.js';
import type { ChainRead, ReadResult } from '../chain/messages.js';

/** The answer, or `moved`: the database's head is not the one named (ask again once it is). */
export type ReplicaReply = { readonly result: ReadResult } | { readonly moved: true };

export interface ChainReaderProtocol {
  /** `read` answered from one read transaction whose head is `head` (the published head). */
  read: { req: { head: Uint8Array; read: ChainRead }; res: ReplicaReply };
}

export interface ChainReaderInit {
  readonly chainType: ChainType;
  /** The chain actor's database directory; it must exist already. */
  readonly dbRoot: string;
}

export const chainReaderActor = actorModule<ChainReaderProtocol, ChainReaderInit>(
  new URL('./index.js', import.meta.url),
  'createChainReader',
);
