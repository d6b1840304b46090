// Scripted Epic peers for bench/p2p.ts, in a process of their own so that 500 sockets' work
// neither runs in the node nor in the process that drives the load: `node p2p_peers.js PORT
// COUNT FIRST_SENDER_PORT PING_MS`. Each peer connects to 127.0.0.1:PORT, sends Epic's Hand
// (sender port FIRST_SENDER_PORT + i: on loopback Epic keys peers by IP and that port, so each
// peer is a distinct peer), reads Shake, then pings every PING_MS (first one at a random point
// of the first period, so 500 peers do not ping in step) and answers each of the node's Pings
// with a Pong. Lines of JSON on stdout: `ready` once every peer is through its handshake (or
// failed), then `stats` (counters since the previous `stats`) each time stdin says `stats`.
// stdin's end closes every peer and ends the process.
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { chainParams } from '../../core/chain_type.js';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame } from '../../core/p2p/msg.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { Hand, P2pMessage } from '../../core/p2p/types.js';
import type { Difficulty } from '../../core/types/pow.js';
import {
  EPIC_PROTOCOL_VERSION,
  EPIC_USER_AGENT,
  genesisHashOf,
  randomNonce,
  wireAddr,
} from '../../test/support/epic_peer.js';

const [port, count, firstSenderPort, pingMs] = process.argv.slice(2).map(Number);
if (![port, count, firstSenderPort, pingMs].every((n) => Number.isSafeInteger(n) && n > 0))
  throw new Error('usage: p2p_peers.js PORT COUNT FIRST_SENDER_PORT PING_MS');
const PORT = port as number;
const PING_MS = pingMs as number;
const HANDSHAKE_MS = 15_000;
/** Handshakes in flight at once: the node's accept backlog and Hand deadline stay comfortable. */
const CONCURRENCY = 50;
const PARAMS = chainParams('automated');
const GENESIS = genesisHashOf('automated');
// Constant, as a peer's at a steady chain head: the node republishes a peer only on a change.
const DIFF: Difficulty = { cuckaroo: 0n, cuckatoo: 0n, randomx: 1n, progpow: 1n };
const HEIGHT = 0n;

const counters = { pingsSent: 0, pongsReceived: 0, pingsReceived: 0, pongsSent: 0, closed: 0 };
/** Node's Pong to each of our Pings, ms. */
let rtts: number[] = [];
const sockets = new Set<Socket>();
let stopping = false;

function out(event: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
}

function send(socket: Socket, m: P2pMessage): void {
  socket.write(encodeFrame(m, EPIC_PROTOCOL_VERSION, PARAMS));
}

function pingLike(type: 'Ping' | 'Pong'): P2pMessage {
  return {
    type,
    totalDifficulty: DIFF,
    height: HEIGHT,
    timestamp: BigInt(Math.floor(Date.now() / 1000)),
  };
}

/** One peer: resolves once its Shake arrived, rejects when the handshake fails. */
function startPeer(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: PORT, noDelay: true });
    const reader = new FrameReader(PARAMS, 0);
    let live = false;
    let pingAt = 0;
    let timers: NodeJS.Timeout[] = [];
    const deadline = setTimeout(() => socket.destroy(new Error('no Shake in time')), HANDSHAKE_MS);
    const ping = (): void => {
      pingAt = performance.now();
      counters.pingsSent++;
      send(socket, pingLike('Ping'));
    };
    const onMessage = (m: P2pMessage): void => {
      if (m.type === 'Shake' && !live) {
        live = true;
        clearTimeout(deadline);
        const first = setTimeout(() => {
          ping();
          timers.push(setInterval(ping, PING_MS));
        }, Math.random() * PING_MS);
        timers.push(first);
        resolve();
      } else if (m.type === 'Ping') {
        counters.pingsReceived++;
        counters.pongsSent++;
        send(socket, pingLike('Pong'));
      } else if (m.type === 'Pong') {
        counters.pongsReceived++;
        if (pingAt > 0) rtts.push(performance.now() - pingAt);
        pingAt = 0;
      }
    };
    socket.on('connect', () => {
      sockets.add(socket);
      const hand: Hand = {
        type: 'Hand',
        version: EPIC_PROTOCOL_VERSION,
        capabilities: CAPABILITIES.FULL_NODE,
        nonce: randomNonce(),
        totalDifficulty: DIFF,
        senderAddr: wireAddr('127.0.0.1', (firstSenderPort as number) + i),
        receiverAddr: wireAddr('127.0.0.1', PORT),
        userAgent: EPIC_USER_AGENT,
        genesis: GENESIS,
      };
      send(socket, hand);
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const ev of reader.push(chunk))
          if (ev.kind === 'message')
            onMessage(decodeMessage(ev.type, ev.body, EPIC_PROTOCOL_VERSION, PARAMS));
      } catch (e) {
        socket.destroy(e instanceof Error ? e : new Error(String(e)));
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(deadline);
      for (const t of timers) clearTimeout(t);
      timers = [];
      sockets.delete(socket);
      if (!live) reject(new Error(`peer ${i}: closed before its Shake`));
      else if (!stopping) counters.closed++;
    });
  });
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const v = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
  return Math.round(v * 1000) / 1000;
}

function stats(): void {
  const sorted = rtts.sort((a, b) => a - b);
  out('stats', {
    ...counters,
    connected: sockets.size,
    rtt_p50_ms: percentile(sorted, 50),
    rtt_p99_ms: percentile(sorted, 99),
    rtt_max_ms: percentile(sorted, 100),
  });
  for (const k of Object.keys(counters) as (keyof typeof counters)[]) counters[k] = 0;
  rtts = [];
}

const started = performance.now();
let next = 0;
let failed = 0;
let firstError: string | null = null;
async function worker(): Promise<void> {
  while (next < (count as number)) {
    const i = next++;
    await startPeer(i).catch((e: unknown) => {
      failed++;
      firstError ??= e instanceof Error ? e.message : String(e);
    });
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
out('ready', {
  peers: sockets.size,
  failed,
  first_error: firstError,
  ms: Math.round(performance.now() - started),
});

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  if (line.trim() === 'stats') stats();
});
commands.on('close', () => {
  stopping = true;
  for (const s of sockets) s.destroy();
  process.exit(0);
});
