// The accepting side of Epic's handshake (p2p reference §4) as pure checks: what a Hand must
// carry for us to answer it, the version both sides then speak, and the Shake we answer with.
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { Hand, Shake } from '../../core/p2p/types.js';
import type { Difficulty } from '../../core/types/pow.js';

/** Our protocol version, sent in Hand and Shake (Epic's `PROTOCOL_VERSION`). */
export const LOCAL_VERSION = 2;

/**
 * What we advertise: Epic's default FULL_NODE set (0x1f). The requests these bits invite are
 * not answered yet (later items of issue 17); see docs/decisions.md.
 */
export const LOCAL_CAPABILITIES = CAPABILITIES.FULL_NODE;

/** How many of our own Hand nonces are remembered for self-connection detection (Epic ~100). */
export const SELF_NONCES_KEPT = 100;

export type HandshakeRefusal = 'GenesisMismatch' | 'PeerWithSelf';

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
  readonly totalDifficulty: Difficulty;
  readonly userAgent: string;
  readonly genesis: Uint8Array;
}): Shake {
  return {
    type: 'Shake',
    version: LOCAL_VERSION,
    capabilities: LOCAL_CAPABILITIES,
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
