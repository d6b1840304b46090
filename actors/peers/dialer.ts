// The dialing side of Epic's handshake: TCP connect within a deadline, our Hand at once, then
// exactly one Shake within another deadline (Epic's `initiate` waits forever; a silent peer must
// not hold a connection slot). The result is a connection ready for a live peer, or why not.
import { connect } from 'node:net';
import type { MsgParams } from '../../core/p2p/msg.js';
import type { Hand, Shake } from '../../core/p2p/types.js';
import { type PeerAddr, toWire } from './addr.js';
import { Connection } from './connection.js';
import { checkShake, handFor, negotiatedVersion } from './handshake.js';
import type { LocalHead } from './peer.js';

/** Epic's `connect_timeout` for outbound TCP connections. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface DialOptions {
  readonly params: MsgParams;
  readonly genesis: Uint8Array;
  readonly userAgent: string;
  readonly capabilities: number;
  /** Our listening address as the Hand's `sender_addr` (the receiver uses only its port). */
  readonly sender: PeerAddr;
  readonly head: LocalHead;
  readonly connectTimeoutMs: number;
  readonly handshakeTimeoutMs: number;
  /** Told the Hand's nonce before it is sent, so our own listener can recognise it. */
  readonly onNonce: (nonce: bigint) => void;
}

/**
 * Dials `addr`; resolves null once `ready` has taken the connection, else the reason it failed.
 * `ready` runs synchronously on the Shake, before any message after it is decoded, so the
 * caller's handlers see everything the peer sends next.
 */
export function dial(
  addr: PeerAddr,
  o: DialOptions,
  ready: (conn: Connection, shake: Shake) => void,
): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const socket = connect({ host: addr.ip, port: addr.port });
    let timer = setTimeout(() => {
      socket.destroy();
      finish(`no connection within ${o.connectTimeoutMs} ms`);
    }, o.connectTimeoutMs);
    socket.once('error', (e) => finish(`connect: ${e.message}`));
    socket.once('connect', () => {
      clearTimeout(timer);
      const c = new Connection(socket, o.params, {
        onMessage: (m) => {
          if (m.type !== 'Shake') throw new Error(`expected Shake, got ${m.type}`);
          const refusal = checkShake(m, o.genesis);
          if (refusal !== null) throw new Error(refusal);
          c.version = negotiatedVersion(m.version);
          finish(null);
          ready(c, m);
        },
        onClose: (reason) => finish(reason),
      });
      const hand = ourHand(addr, o);
      o.onNonce(hand.nonce);
      c.send(hand);
      timer = setTimeout(
        () => c.close(`no Shake within ${o.handshakeTimeoutMs} ms`),
        o.handshakeTimeoutMs,
      );
    });
  });
}

function ourHand(addr: PeerAddr, o: DialOptions): Hand {
  return handFor({
    capabilities: o.capabilities,
    totalDifficulty: o.head.totalDifficulty,
    sender: toWire(o.sender),
    receiver: toWire(addr),
    userAgent: o.userAgent,
    genesis: o.genesis,
  });
}
