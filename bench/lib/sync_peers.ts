// Scripted Epic nodes that a syncing mwnode dials, for bench/sync.ts, in a process of their own
// so that their work neither runs in the node nor in the process that measures it:
// `node sync_peers.js CHAIN_FILE SERVE_HEIGHT COUNT`. Each of COUNT listeners on 127.0.0.1 holds
// the chain file's chain up to SERVE_HEIGHT and answers as Epic does (p2p.md §7.2 "Serving"):
// Shake with its head's total difficulty and FULL_NODE capabilities (HEADER_FASTSYNC among
// them) to a Hand, then a Ping at once (Epic's seed loop pings a new peer); Pong to Ping; empty
// PeerAddrs; Headers / FastHeaders after the locator's common ancestor, at most 512, starting
// 512 × offset further on; Block for a known GetBlock, silence for an unknown one. A header
// request it cannot serve closes the connection (what mwnode itself does; Epic's empty list
// would get it banned). Replies are slices of the file's bytes, never encoded on the way.
//
// Lines of JSON on stdout: `ready` with the ports, then `stats` (counters since the previous
// one) whenever stdin says `stats`. stdin's end closes everything and ends the process.
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { toHex } from '../../core/bytes.js';
import { type HeaderChainView, headerRangeFor } from '../../core/chain/locator.js';
import { chainParams } from '../../core/chain_type.js';
import { encodeFrameHeader } from '../../core/p2p/frame.js';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame, msgTypeCode } from '../../core/p2p/msg.js';
import { CAPABILITIES } from '../../core/p2p/primitives.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import type { ProtocolVersion } from '../../core/ser/params.js';
import {
  EPIC_PROTOCOL_VERSION,
  EPIC_USER_AGENT,
  genesisHashOf,
} from '../../test/support/epic_peer.js';
import { type ChainFile, hashAt, headerBytes, headerOf, readChainFile } from './chain_file.js';

const [file, serveArg, countArg] = process.argv.slice(2);
const SERVE = Number(serveArg);
const COUNT = Number(countArg);
if (file === undefined || !Number.isSafeInteger(SERVE) || !Number.isSafeInteger(COUNT))
  throw new Error('usage: sync_peers.js CHAIN_FILE SERVE_HEIGHT COUNT');
const PARAMS = chainParams('automated');
const chain: ChainFile = readChainFile(file);
if (SERVE > chain.tip) throw new Error(`${file} ends at ${chain.tip}, below ${SERVE}`);
const TD = headerOf(chain, SERVE).pow.totalDifficulty;
const HEIGHT = BigInt(SERVE);
const GENESIS = genesisHashOf('automated');

/** The served chain as the locator code reads it; heights of every hash, built once. */
const heights = new Map<string, number>();
for (let h = 0; h <= SERVE; h++) heights.set(toHex(hashAt(chain, h)), h);
const view: HeaderChainView = {
  headHeight: HEIGHT,
  hashAt: (height) => (height < 0n || height > HEIGHT ? null : hashAt(chain, Number(height))),
  heightOf: (hash) => {
    const h = heights.get(toHex(hash));
    return h === undefined ? undefined : BigInt(h);
  },
};

const counters = {
  connections: 0,
  getHeaders: 0,
  getHeadersFastSync: 0,
  headersServed: 0,
  getBlock: 0,
  blocksServed: 0,
  /** Header requests nothing could answer: the connection was closed. */
  unservable: 0,
};
/** How many GetHeadersFastSync came with each offset. */
let offsets = new Map<number, number>();
const sockets = new Set<Socket>();

function out(event: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
}

function pingLike(type: 'Ping' | 'Pong'): P2pMessage {
  return {
    type,
    totalDifficulty: TD,
    height: HEIGHT,
    timestamp: BigInt(Math.floor(Date.now() / 1000)),
  };
}

/** A Headers or FastHeaders frame: the count, then the file's bytes for the range as they are. */
function headersFrame(type: 'Headers' | 'FastHeaders', first: number, last: number): Buffer[] {
  const bytes = headerBytes(chain, first, last);
  const count = Buffer.alloc(2);
  count.writeUInt16BE(last - first + 1);
  const head = encodeFrameHeader(msgTypeCode(type), 2 + bytes.length, PARAMS);
  return [Buffer.from(head), count, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)];
}

function blockFrame(height: number): Buffer[] | null {
  if (chain.blockAt === null || chain.blocks === null) return null;
  const body = chain.blocks.subarray(chain.blockAt[height], chain.blockAt[height + 1]);
  if (body.length === 0) return null;
  const head = encodeFrameHeader(msgTypeCode('Block'), body.length, PARAMS);
  return [Buffer.from(head), Buffer.from(body.buffer, body.byteOffset, body.length)];
}

function writeAll(socket: Socket, parts: readonly Buffer[]): void {
  socket.cork();
  for (const p of parts) socket.write(p);
  socket.uncork();
}

function serve(socket: Socket): void {
  counters.connections++;
  sockets.add(socket);
  socket.setNoDelay(true);
  const reader = new FrameReader(PARAMS);
  let version: ProtocolVersion = EPIC_PROTOCOL_VERSION;
  const send = (m: P2pMessage) => socket.write(encodeFrame(m, version, PARAMS));
  const headers = (
    type: 'Headers' | 'FastHeaders',
    locator: readonly Uint8Array[],
    offset: number,
  ) => {
    const range = headerRangeFor(locator, offset, view);
    if (range === null) {
      counters.unservable++;
      socket.destroy();
      return;
    }
    const first = Number(range.first);
    const last = Number(range.last);
    counters.headersServed += last - first + 1;
    writeAll(socket, headersFrame(type, first, last));
  };
  const onMessage = (m: P2pMessage): void => {
    switch (m.type) {
      case 'Hand':
        version = Math.min(EPIC_PROTOCOL_VERSION, m.version) as ProtocolVersion;
        send({
          type: 'Shake',
          version: EPIC_PROTOCOL_VERSION,
          capabilities: CAPABILITIES.FULL_NODE,
          totalDifficulty: TD,
          userAgent: EPIC_USER_AGENT,
          genesis: GENESIS,
        });
        send(pingLike('Ping'));
        break;
      case 'Ping':
        send(pingLike('Pong'));
        break;
      case 'GetPeerAddrs':
        send({ type: 'PeerAddrs', peers: [] });
        break;
      case 'GetHeaders':
        counters.getHeaders++;
        headers('Headers', m.locator, 0);
        break;
      case 'GetHeadersFastSync':
        counters.getHeadersFastSync++;
        offsets.set(m.offset, (offsets.get(m.offset) ?? 0) + 1);
        headers('FastHeaders', m.locator, m.offset);
        break;
      case 'GetBlock': {
        counters.getBlock++;
        const h = heights.get(toHex(m.hash));
        const frame = h === undefined ? null : blockFrame(h);
        if (frame !== null) {
          counters.blocksServed++;
          writeAll(socket, frame);
        }
        break;
      }
      default:
        break; // Pong, announcements: nothing to answer
    }
  };
  socket.on('data', (chunk: Buffer) => {
    try {
      for (const ev of reader.push(chunk))
        if (ev.kind === 'message') onMessage(decodeMessage(ev.type, ev.body, version, PARAMS));
    } catch (e) {
      socket.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => sockets.delete(socket));
}

function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer(serve);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      if (a === null || typeof a === 'string') reject(new Error('not bound'));
      else resolve({ server, port: a.port });
    });
  });
}

const servers = await Promise.all(Array.from({ length: COUNT }, listen));
out('ready', { ports: servers.map((s) => s.port), tip: SERVE });

const commands = createInterface({ input: process.stdin });
commands.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  out('stats', { ...counters, offsets: Object.fromEntries(offsets), connected: sockets.size });
  for (const k of Object.keys(counters) as (keyof typeof counters)[]) counters[k] = 0;
  offsets = new Map();
});
commands.on('close', () => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.server.close();
  process.exit(0);
});
