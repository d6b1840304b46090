// The accepting side's checks: genesis, our own nonces (bounded), version negotiation, and the
// Shake we answer with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkHand,
  LOCAL_CAPABILITIES,
  negotiatedVersion,
  OwnNonces,
  SELF_NONCES_KEPT,
  shakeFor,
} from '../../../actors/peers/handshake.js';
import type { Hand } from '../../../core/p2p/types.js';

const GENESIS = new Uint8Array(32).fill(7);
const HAND: Hand = {
  type: 'Hand',
  version: 2,
  capabilities: 0x1f,
  nonce: 42n,
  totalDifficulty: { randomx: 1n },
  senderAddr: { ip: Uint8Array.of(127, 0, 0, 1), port: 3414 },
  receiverAddr: { ip: Uint8Array.of(127, 0, 0, 1), port: 3414 },
  userAgent: 'MW/Epic 4.0.0',
  genesis: GENESIS,
};

describe('inbound handshake checks', () => {
  it('accepts our genesis, refuses another and our own nonce', () => {
    const own = new OwnNonces();
    assert.equal(checkHand(HAND, { genesis: GENESIS, ownNonces: own.set }), null);
    const other = { ...HAND, genesis: new Uint8Array(32).fill(8) };
    assert.equal(checkHand(other, { genesis: GENESIS, ownNonces: own.set }), 'GenesisMismatch');
    own.add(42n);
    assert.equal(checkHand(HAND, { genesis: GENESIS, ownNonces: own.set }), 'PeerWithSelf');
  });

  it('remembers only the latest nonces', () => {
    const own = new OwnNonces();
    for (let i = 0; i <= SELF_NONCES_KEPT; i++) own.add(BigInt(i));
    assert.equal(own.set.size, SELF_NONCES_KEPT);
    assert.equal(own.set.has(0n), false);
    assert.equal(own.set.has(BigInt(SELF_NONCES_KEPT)), true);
  });

  it('negotiates min(2, theirs) and sends the local version in Shake', () => {
    assert.equal(negotiatedVersion(1), 1);
    assert.equal(negotiatedVersion(2), 2);
    assert.equal(negotiatedVersion(7), 2);
    assert.deepEqual(
      shakeFor({
        capabilities: LOCAL_CAPABILITIES,
        totalDifficulty: { randomx: 3n },
        userAgent: 'u',
        genesis: GENESIS,
      }),
      {
        type: 'Shake',
        version: 2,
        capabilities: LOCAL_CAPABILITIES,
        totalDifficulty: { randomx: 3n },
        userAgent: 'u',
        genesis: GENESIS,
      },
    );
    assert.equal(LOCAL_CAPABILITIES, 0x1f);
  });
});
