// Epic's handshake (p2p reference §4) as pure data and checks: the Hand we open with when we
// dial, what a Hand or Shake must carry for us to go on, the version both sides then speak, and
// the Shake we answer with.
import { randomBytes } from 'node:crypto';
import { CAPABILITIES, type WireAddr } from '../../core/p2p/primitives.js';
import type { Hand, Shake } from '../../core/p2p/types.js';
import type { Difficulty } from '../../core/types/pow.js';

/** Our protocol version, sent in Hand and Shake (Epic's `PROTOCOL_VERSION`). */
export const LOCAL_VERSION = 2;

/**
 * What we advertise by default: Epic's FULL_NODE set (0x1f), as `[server.p2p_config]
 * capabilities` defaults to. The header and archive requests these bits invite are served by
 * issues 18 and 19; see docs/decisions.md.
 */
export const LOCAL_CAPABILITIES = CAPABILITIES.FULL_NODE;

/** How many of our own Hand nonces are remembered for self-connection detection (Epic ~100). */
export const SELF_NONCES_KEPT = 100;

export type HandshakeRefusal = 'GenesisMismatch' | 'PeerWithSelf';

/** What one side tells the other in its Hand or Shake and we keep for the peer's life. */
export interface Hello {
  readonly capabilities: number;
  readonly userAgent: string;
  readonly totalDifficulty: Difficulty;
}

/** Our Hand when dialing: a fresh nonce, our head, our listening address, genesis last. */
export function handFor(s: {
  readonly capabilities: number;
  readonly totalDifficulty: Difficulty;
  readonly sender: WireAddr;
  readonly receiver: WireAddr;
  readonly userAgent: string;
  readonly genesis: Uint8Array;
}): Hand {
  return {
    type: 'Hand',
    version: LOCAL_VERSION,
    capabilities: s.capabilities,
    nonce: randomBytes(8).readBigUInt64BE(0),
    totalDifficulty: s.totalDifficulty,
    senderAddr: s.sender,
    receiverAddr: s.receiver,
    userAgent: s.userAgent,
    genesis: s.genesis,
  };
}

/** Null when a dialed peer's Shake lets the connection go on; else Epic's reason to drop it. */
export function checkShake(shake: Shake, genesis: Uint8Array): HandshakeRefusal | null {
  return equalBytes(shake.genesis, genesis) ? null : 'GenesisMismatch';
}

export interface HandCheck {
  readonly genesis: Uint8Array;
  /** Nonces of the Hands we sent lately (outbound): a Hand bearing one is ourselves. */
  readonly ownNonces: ReadonlySet<bigint>;
}

/** Null when the Hand may be answered; else Epic's reason to refuse it. */
export function checkHand(hand: Hand, c: HandCheck): HandshakeRefusal | null {
  if (!equalBytes(hand.genesis, c.genesis)) return 'GenesisMismatch';
  if (c.ownNonces.has(hand.nonce)) return 'PeerWithSelf';
  return null;
}

/** Epic's negotiation: the lower of the two versions, with no minimum. */
export function negotiatedVersion(theirs: number): number {
  return Math.min(LOCAL_VERSION, theirs);
}

/** Our Shake: Epic sends its local version here, not the negotiated one. */
export function shakeFor(s: {
  readonly capabilities: number;
  readonly totalDifficulty: Difficulty;
  readonly userAgent: string;
  readonly genesis: Uint8Array;
}): Shake {
  return {
    type: 'Shake',
    version: LOCAL_VERSION,
    capabilities: s.capabilities,
    totalDifficulty: s.totalDifficulty,
    userAgent: s.userAgent,
    genesis: s.genesis,
  };
}

/** A bounded record of our recent Hand nonces, oldest forgotten first. */
export class OwnNonces {
  private readonly kept = new Set<bigint>();

  add(nonce: bigint): void {
    this.kept.add(nonce);
    if (this.kept.size > SELF_NONCES_KEPT) {
      const oldest = this.kept.values().next().value as bigint;
      this.kept.delete(oldest);
    }
  }

  get set(): ReadonlySet<bigint> {
    return this.kept;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
