// Conformance rows of the JSON-RPC layer (node-api reference §2.3, §2.5) on all three surfaces,
// and of the owner surface (§3) over a peer store seeded before the node starts.
import { join } from 'node:path';
import { type PeerAddr, parseSocketAddr } from '../../actors/peers/addr.js';
import { PeerStore } from '../../actors/peers/store.js';
import type { PeerRecord } from '../../actors/peers/types.js';
import type { JsonValue } from '../../core/json/value.js';
import {
  type Row,
  type RpcSurfaceName,
  rawRpcRow,
  rpcErrorText,
  rpcRow,
  v2Text,
} from './conformance_rows.js';
import { sortedKeys } from './sorted.js';

/** A stored, healthy peer (the one `get_peers(addr)` finds). */
export const KNOWN = '203.0.113.7:3414';
/** A stored peer the rows ban and unban. */
export const BANNABLE = '198.51.100.9:3414';
/** A stored peer the /v1 rows ban and unban. */
export const V1_BANNABLE = '198.51.100.10:3414';
/** No record. */
export const UNKNOWN = '192.0.2.1:3414';

const record = (addr: string, over: Partial<PeerRecord>): PeerRecord => ({
  addr: parseSocketAddr(addr) as PeerAddr,
  capabilities: 0,
  userAgent: '',
  flags: 0,
  lastBanned: 0,
  banReason: 0,
  lastConnected: 0,
  localTimestamp: 0,
  ...over,
});

/** Seeds the peer store of a home the node has not started in yet. */
export function seedPeers(home: string): void {
  const store = new PeerStore(join(home, 'chain_data'));
  store.save(
    record(KNOWN, {
      capabilities: 15,
      userAgent: 'MW/Epic 4.0.0',
      lastConnected: 1_700_000_000,
      localTimestamp: 1_700_000_001,
    }),
  );
  store.save(record(BANNABLE, { userAgent: 'MW/Epic 3.6.0' }));
  store.save(record(V1_BANNABLE, {}));
  store.close();
}

/** PeerData of the seeds, in Epic's declaration order (the /v1 order). */
export const KNOWN_PEER = {
  addr: KNOWN,
  capabilities: 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH',
  user_agent: 'MW/Epic 4.0.0',
  flags: 'Healthy',
  last_banned: 0,
  ban_reason: 'None',
  // Stored as 1_700_000_000; the seed loop's start resets it, as Epic's does.
  last_connected: 0,
  local_timestamp: 1_700_000_001,
};
export const V1_BANNABLE_PEER = {
  addr: V1_BANNABLE,
  capabilities: '',
  user_agent: '',
  flags: 'Healthy',
  last_banned: 0,
  ban_reason: 'None',
  last_connected: 0,
  local_timestamp: 0,
};
export const BANNABLE_PEER = {
  addr: BANNABLE,
  capabilities: '',
  user_agent: 'MW/Epic 3.6.0',
  flags: 'Healthy',
  last_banned: 0,
  ban_reason: 'None',
  last_connected: 0,
  local_timestamp: 0,
};

const NOT_JSON = '{"jsonrpc":';
const NOT_JSON_TEXT =
  'Request error: Invalid request body: EOF while parsing a value at line 1 column 11';

/** §2.3 (and §1.4's 500 for a body that is not JSON) on one surface. */
export function protocolRows(
  s: RpcSurfaceName,
  method: string,
  named: { readonly [k: string]: JsonValue },
): Row[] {
  const invalid = (id: JsonValue) =>
    v2Text({ error: { code: -32600, message: 'Invalid request' }, id });
  return [
    rawRpcRow(s, '-32700', '"abc"', 200, rpcErrorText(-32700, 'Parse error', null), '§2.3'),
    rawRpcRow(s, '-32700', '42', 200, rpcErrorText(-32700, 'Parse error', null), '§2.3'),
    rawRpcRow(s, '-32600', '{}', 200, invalid(null), '§2.3'),
    rawRpcRow(
      s,
      '-32600',
      `{"jsonrpc":"2.0","method":"${method}","params":[],"id":7,"x":1}`,
      200,
      invalid(7),
      '§2.3',
    ),
    rpcRow(s, 'nope', [], { code: -32601, message: 'Method not found' }, '§2.3'),
    // Every declared name present, one more: the extra one is named.
    rpcRow(
      s,
      method,
      { ...named, x: 1 },
      { code: -32602, message: 'ExtraNamedParameter x' },
      '§2.3',
    ),
    rawRpcRow(s, 'http-500', NOT_JSON, 500, NOT_JSON_TEXT, '§1.4'),
    {
      ...rpcRow(s, method, [], { code: -32000, message: 'Serialization error' }, '§2.3'),
      unreachable: 'every result is JSON by construction: nothing fails to serialize',
    },
  ];
}

/** §2.3's named-parameter error (the request forms themselves: request_forms.test.ts). */
export function namedParamRows(): Row[] {
  return [
    rpcRow(
      'foreign',
      'get_header',
      { height: 2, hash: null },
      { code: -32602, message: 'MissingNamedParameter commit' },
      '§2.3',
    ),
  ];
}

const storeNotFound = (op: string, addr: string) => ({
  Internal: `${op} error: Store(NotFoundErr("Peer at address: ${addr}"))`,
});

const o = (method: string, params: JsonValue | undefined, e: Parameters<typeof rpcRow>[3]) =>
  rpcRow('owner', method, params, e, '§3');

/** §3: the owner methods that change nothing (compact_chain is among the late rows). */
export function ownerReadRows(status: JsonValue): Row[] {
  // The store's key order: addresses as text ("…100.10" before "…100.9").
  const peers = sortedKeys([V1_BANNABLE_PEER, BANNABLE_PEER, KNOWN_PEER]) as JsonValue;
  const noArg = { code: -32602, message: 'WrongNumberOfArgs. Expected 1. Actual 0' };
  return [
    o('get_status', [], { ok: status }),
    {
      ...o('get_status', [], { err: { Internal: "can't get head: …" } }),
      unreachable: 'the head is in memory once the chain actor has started',
    },
    o('validate_chain', [], { ok: null }),
    {
      ...o('validate_chain', [], { err: { Internal: 'chain error' } }),
      unreachable: 'a chain the node accepted block by block validates',
    },
    {
      ...o('compact_chain', [], { err: { Internal: '<chain error>' } }),
      unreachable: 'compaction of a healthy store does not fail',
    },
    o('get_peers', [null], { ok: peers }),
    o('get_peers', [KNOWN], { ok: [sortedKeys(KNOWN_PEER) as JsonValue] }),
    o('get_peers', [UNKNOWN], { err: storeNotFound('get peer', UNKNOWN) }),
    o('get_peers', ['203.0.113.7'], {
      code: -32602,
      message: 'InvalidArgStructure "peer_addr" at position 0.',
    }),
    o('get_connected_peers', [], { ok: [] }),
    o('get_connected_peers', [1], noArg),
    o('get_onion_addresses', [], { ok: [] }),
    o('get_onion_addresses', [1], noArg),
  ];
}

/** §3: ban and unban, in this order (each row leaves the state the next one expects). */
export function ownerBanRows(): Row[] {
  return [
    {
      ...o('ban_peer', [KNOWN], { ok: null }),
      unreachable:
        'Ok needs a connected peer (Epic: PeerNotFound otherwise): test/e2e/p2p_bans.test.ts',
    },
    o('ban_peer', [UNKNOWN], { err: storeNotFound('ban peer', UNKNOWN) }),
    // Stored but not connected: the ban is kept and Epic still answers PeerNotFound.
    o('ban_peer', [BANNABLE], { err: { Internal: 'ban peer error: PeerNotFound' } }),
    o('unban_peer', [BANNABLE], { ok: null }),
    o('unban_peer', [BANNABLE], { err: { Internal: 'unban peer error: PeerNotBanned' } }),
    o('unban_peer', [UNKNOWN], { err: storeNotFound('unban peer', UNKNOWN) }),
    o('unban_peer', [null], {
      code: -32602,
      message: 'InvalidArgStructure "peer_addr" at position 0.',
    }),
  ];
}
