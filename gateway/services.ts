// What the gateway may ask of the actors: one typed `ask` per actor. The node wires these to
// the runtime; tests may wire them to in-thread actors.
import type { ChainProtocol } from '../actors/chain/messages.js';

/** An actor protocol: message kind → request and reply types. */
export type ProtocolShape<P> = { readonly [K in keyof P]: { req: unknown; res: unknown } };

export type Ask<P extends ProtocolShape<P>> = <K extends keyof P & string>(
  kind: K,
  body: P[K]['req'],
) => Promise<P[K]['res']>;

export interface Services {
  readonly chain: Ask<ChainProtocol>;
}

/** Facts about this build that answers include. */
export const NODE_INFO = {
  /** `get_version.node_version`: the Epic release whose interface we serve (clients compare it). */
  epicVersion: '4.0.0',
  /** Peer protocol version (`Status.protocol_version`). */
  protocolVersion: 2,
} as const;
