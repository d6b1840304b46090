// A scripted Epic node that holds a chain and serves it as Epic does: Shake with its head's total
// difficulty, a Ping at once (Epic's seed loop pings a new peer), Pong to Ping, FastHeaders /
// Headers after the locator's common ancestor (at most 512), Block (v2) for GetBlock, empty
// PeerAddrs. Limits make it a peer that stalls part way — it advertises the whole chain but
// serves headers or blocks only up to a height — for tests of a sync that is interrupted.
import { toHex } from '../../core/bytes.js';
import { type HeaderChainView, headerRangeFor } from '../../core/chain/locator.js';
import type { ChainType } from '../../core/chain_type.js';
import type { MsgParams } from '../../core/p2p/msg.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import { EpicListener, type EpicPeer } from './epic_peer.js';

/** A chain as the scripted node holds it: headers by height (genesis first), blocks by hash. */
export class HeldChain implements HeaderChainView {
  readonly headers: BlockHeader[];
  readonly blocks = new Map<string, Block>();
  private readonly heights = new Map<string, bigint>();
  private readonly params: MsgParams;

  /** `headers[i]` at height i; `blocks` the bodies above genesis. */
  constructor(params: MsgParams, headers: readonly BlockHeader[], blocks: readonly Block[]) {
    this.params = params;
    this.headers = [...headers];
    headers.forEach((h, i) => {
      this.heights.set(toHex(headerHash(h, params)), BigInt(i));
    });
    for (const b of blocks) this.blocks.set(toHex(headerHash(b.header, params)), b);
  }

  get headHeight(): bigint {
    return BigInt(this.headers.length - 1);
  }

  get tip(): BlockHeader {
    return this.headers[this.headers.length - 1] as BlockHeader;
  }

  hashAt(height: bigint): Uint8Array | null {
    const h = this.headers[Number(height)];
    return h === undefined ? null : headerHash(h, this.params);
  }

  heightOf(hash: Uint8Array): bigint | undefined {
    return this.heights.get(toHex(hash));
  }

  /** Epic's `locate_headers`: an unknown locator gets an empty list, as Epic's does. */
  headersFor(locator: readonly Uint8Array[], offset: number): BlockHeader[] {
    const range = headerRangeFor(locator, offset, this);
    return range === null ? [] : this.headers.slice(Number(range.first), Number(range.last) + 1);
  }
}

/** What the scripted node was asked, for the assertions. */
export interface Served {
  readonly requests: string[];
  readonly blocks: Set<string>;
}

/** How far a stalling node serves: past these heights requests go unanswered. */
export interface ServeLimits {
  readonly headersUpTo?: bigint;
  readonly blocksUpTo?: bigint;
  /** Advertises this header's work and height instead of its tip's (a node that says less). */
  readonly advertise?: BlockHeader;
  /** The answer to TxHashSetRequest (none: left unanswered, as by a node without archives). */
  readonly archive?: ServedArchive;
}

/** A TxHashSetArchive as a scripted node sends it: its header, then `sendBytes` of `bytes`. */
export interface ServedArchive {
  readonly hash: Uint8Array;
  readonly height: bigint;
  readonly bytes: Uint8Array;
  /** Stops after this many bytes of the attachment (a stalled transfer); default: all. */
  readonly sendBytes?: number;
}

/** Answers one connection as Epic does until it closes. */
export async function serveChain(
  peer: EpicPeer,
  chain: HeldChain,
  served: Served,
  limits: ServeLimits = {},
): Promise<void> {
  const td = (limits.advertise ?? chain.tip).pow.totalDifficulty;
  const height = limits.advertise?.height ?? chain.headHeight;
  const hand = await peer.expect('Hand', 10_000);
  peer.version = Math.min(2, hand.message.version);
  peer.sendShake({ totalDifficulty: td });
  peer.sendPing(td, height);
  for (;;) {
    const r = await peer.next(60_000);
    if (r === null) {
      if (peer.closed) return;
      continue;
    }
    served.requests.push(r.message.type);
    // A node that stopped half way through an archive says nothing more (its socket stays open).
    if (answer(peer, r.message, chain, served, limits) === 'silent') break;
  }
  await peer.closedWithin(600_000).catch(() => undefined);
}

function answer(
  peer: EpicPeer,
  m: P2pMessage,
  chain: HeldChain,
  served: Served,
  limits: ServeLimits,
): 'silent' | undefined {
  const td = (limits.advertise ?? chain.tip).pow.totalDifficulty;
  const upTo = limits.headersUpTo ?? chain.headHeight;
  // Epic sends an empty list when it finds no common header; a stalling node sends nothing.
  const headers = (offset: number, locator: readonly Uint8Array[]) => {
    const all = chain.headersFor(locator, offset);
    const kept = all.filter((h) => h.height <= upTo);
    return all.length > 0 && kept.length === 0 ? null : kept;
  };
  switch (m.type) {
    case 'Ping':
      peer.sendPing(td, limits.advertise?.height ?? chain.headHeight, 'Pong');
      return;
    case 'GetPeerAddrs':
      peer.send({ type: 'PeerAddrs', peers: [] });
      return;
    case 'GetHeaders': {
      const hs = headers(0, m.locator);
      if (hs !== null) peer.send({ type: 'Headers', headers: hs });
      return;
    }
    case 'GetHeadersFastSync': {
      const hs = headers(m.offset, m.locator);
      if (hs !== null) peer.send({ type: 'FastHeaders', headers: hs });
      return;
    }
    case 'GetBlock': {
      // Epic leaves a GetBlock for a block it lacks unanswered.
      const block = chain.blocks.get(toHex(m.hash));
      if (block === undefined || block.header.height > (limits.blocksUpTo ?? block.header.height))
        return;
      served.blocks.add(toHex(m.hash));
      peer.send({ type: 'Block', block });
      return;
    }
    case 'TxHashSetRequest': {
      const a = limits.archive;
      if (a === undefined) return;
      peer.send({
        type: 'TxHashSetArchive',
        hash: a.hash,
        height: a.height,
        bytes: BigInt(a.bytes.length),
      });
      peer.sendRaw(a.bytes.subarray(0, a.sendBytes ?? a.bytes.length));
      return a.sendBytes === undefined ? undefined : 'silent';
    }
    default:
      return; // Pong, announcements: nothing to answer
  }
}

/** A listener that serves every connection made to it (a redial after a drop included). */
export class ChainServer {
  readonly served: Served = { requests: [], blocks: new Set() };
  private stopped = false;
  private readonly accepting: Promise<void>;

  private constructor(
    readonly listener: EpicListener,
    private readonly chain: HeldChain,
    limits: ServeLimits,
  ) {
    this.accepting = (async () => {
      while (!this.stopped) {
        const peer = await listener.accept(1_000).catch(() => null);
        if (peer !== null) void serveChain(peer, chain, this.served, limits).catch(() => undefined);
      }
    })();
  }

  static async start(
    chain: HeldChain,
    chainType: ChainType,
    limits: ServeLimits = {},
  ): Promise<ChainServer> {
    return new ChainServer(await EpicListener.start('127.0.0.1', chainType), chain, limits);
  }

  get port(): number {
    return this.listener.port;
  }

  /** The tip header of the chain it serves. */
  get chainTip(): BlockHeader {
    return this.chain.tip;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.listener.close();
    await this.accepting;
  }
}
