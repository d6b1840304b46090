// What the P2P tests read back from the owner API: Epic's PeerData (get_peers) and
// PeerInfoDisplay (get_connected_peers) as JSON, and the JSON-RPC body the node prints.
import { sortedKeys } from './sorted.js';

/** Epic's FULL_NODE capabilities (0x1f) as bitflags print them. */
export const FULL_CAPABILITIES =
  'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC';

/** PeerData as get_peers lists it. */
export interface StoredPeerJson {
  readonly addr: string;
  readonly capabilities: string;
  readonly user_agent: string;
  readonly flags: string;
  readonly last_banned: number;
  readonly ban_reason: string;
  readonly last_connected: number;
  readonly local_timestamp: number;
}

/** The fields of PeerInfoDisplay the tests look at. */
export interface ConnectedPeerJson {
  readonly addr: string;
  readonly direction: string;
}

/** The node's /v2 reply text for `result`: keys sorted, pretty, id 1. */
export const rpcReply = (result: unknown): string =>
  JSON.stringify(sortedKeys({ id: 1, jsonrpc: '2.0', result }), null, 2);
