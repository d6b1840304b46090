import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capabilitiesText, peerDataJson } from '../../../actors/peers/types.js';
import { stringifyJson } from '../../../core/json/stringify.js';

test('capabilities print as bitflags 2 names them, unknown bits dropped', () => {
  const full = 'HEADER_HIST | TXHASHSET_HIST | PEER_LIST | TX_KERNEL_HASH | HEADER_FASTSYNC';
  assert.equal(capabilitiesText(0), '');
  assert.equal(capabilitiesText(31), full);
  assert.equal(capabilitiesText(63), `${full} | ONIONSTEM`);
  assert.equal(capabilitiesText(0x40 | 0x04), 'PEER_LIST');
});

test('PeerData prints in declaration order with state and reason names', () => {
  const json = peerDataJson({
    addr: { ip: '2001:db8::7', port: 3414 },
    capabilities: 0x20,
    userAgent: 'MW/Epic 4.0.0',
    flags: 1,
    lastBanned: 4_102_444_800,
    banReason: 7,
    lastConnected: 0,
    localTimestamp: -1,
  });
  assert.equal(
    stringifyJson(json),
    '{"addr":"[2001:db8::7]:3414","capabilities":"ONIONSTEM","user_agent":"MW/Epic 4.0.0",' +
      '"flags":"Banned","last_banned":4102444800,"ban_reason":"BadHandshake",' +
      '"last_connected":0,"local_timestamp":-1}',
  );
});
