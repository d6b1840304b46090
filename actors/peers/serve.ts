// Answering a peer's requests for chain and pool data (p2p reference §3.1, issue 18 item 3):
// headers for a locator (GetHeaders → Headers, GetHeadersFastSync → FastHeaders), blocks and
// compact blocks by hash, transactions by kernel hash. The data comes from the chain and pool
// actors, asynchronously; replies go out in the order the requests came, one request of a peer
// at a time, as Epic's single reader thread per peer answers them. Unknown blocks and
// transactions get no reply (Epic's silence); a header request we cannot answer closes the
// connection instead of sending an empty list, which Epic would ban us for.
import type { P2pMessage } from '../../core/p2p/types.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';

/** What the other actors answer; every call may fail (busy, crashed): the request is dropped. */
export interface ServeSources {
  headersForLocator(locator: readonly Uint8Array[], offset: number): Promise<BlockHeader[]>;
  block(hash: Uint8Array): Promise<Block | null>;
  compactBlock(hash: Uint8Array): Promise<CompactBlock | null>;
  /** The txpool transaction holding a kernel with this hash. */
  transaction(kernelHash: Uint8Array): Promise<Transaction | null>;
}

/**
 * Requests of one peer waiting for an answer; more are dropped. A syncing peer asks for a whole
 * window of blocks at once (ours: 64), so this holds two windows.
 */
export const SERVE_QUEUE = 128;

export type ServeOutcome =
  | { readonly reply: P2pMessage }
  | { readonly silence: true }
  /** Close the connection with this reason. */
  | { readonly close: string };

/** The answer to one request, or null when `m` is not a request this module serves. */
export function serveRequest(m: P2pMessage, sources: ServeSources): Promise<ServeOutcome> | null {
  switch (m.type) {
    case 'GetHeaders':
      return headers(sources, m.locator, 0, 'Headers');
    case 'GetHeadersFastSync':
      return headers(sources, m.locator, m.offset, 'FastHeaders');
    case 'GetBlock':
      return sources
        .block(m.hash)
        .then((block) => (block === null ? SILENCE : reply({ type: 'Block', block })));
    case 'GetCompactBlock':
      return sources
        .compactBlock(m.hash)
        .then((block) => (block === null ? SILENCE : reply({ type: 'CompactBlock', block })));
    case 'GetTransaction':
      return sources
        .transaction(m.hash)
        .then((tx) => (tx === null ? SILENCE : reply({ type: 'Transaction', tx })));
    default:
      return null;
  }
}

const SILENCE: ServeOutcome = { silence: true };
const reply = (m: P2pMessage): ServeOutcome => ({ reply: m });

async function headers(
  sources: ServeSources,
  locator: readonly Uint8Array[],
  offset: number,
  type: 'Headers' | 'FastHeaders',
): Promise<ServeOutcome> {
  const found = await sources.headersForLocator(locator, offset);
  if (found.length === 0)
    return {
      close: `no headers to answer ${type === 'Headers' ? 'GetHeaders' : 'GetHeadersFastSync'} with`,
    };
  return reply({ type, headers: found });
}

/**
 * One peer's requests, answered one at a time in arrival order. `send` and `close` act on the
 * peer's connection; a source failure drops that request (the peer asks again elsewhere).
 */
export class ServeQueue {
  private readonly sources: ServeSources;
  private readonly send: (m: P2pMessage) => void;
  private readonly close: (reason: string) => void;
  private readonly fits: (m: P2pMessage) => boolean;
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  /** Requests dropped because the queue was full or a source failed. */
  dropped = 0;

  /** `fits`: whether a message is within its type's size cap for this peer. */
  constructor(
    sources: ServeSources,
    send: (m: P2pMessage) => void,
    close: (reason: string) => void,
    fits: (m: P2pMessage) => boolean = () => true,
  ) {
    this.sources = sources;
    this.send = send;
    this.close = close;
    this.fits = fits;
  }

  /**
   * A compact block over its type's cap (a block with several full outputs, e.g. a foundation
   * block on a test chain, which Epic cannot send either) goes as the full Block instead: an
   * unsolicited Block is accepted by Epic and by us.
   */
  private async sendable(reply: P2pMessage, request: P2pMessage): Promise<P2pMessage> {
    if (request.type !== 'GetCompactBlock' || this.fits(reply)) return reply;
    const block = await this.sources.block(request.hash);
    return block === null ? reply : { type: 'Block', block };
  }

  /** True when `m` is a request this queue serves (taken or dropped); false otherwise. */
  offer(m: P2pMessage): boolean {
    if (!isServed(m)) return false;
    if (this.waiting >= SERVE_QUEUE) {
      this.dropped += 1;
      return true;
    }
    this.waiting += 1;
    this.tail = this.tail.then(async () => {
      try {
        const outcome = await serveRequest(m, this.sources);
        if (outcome === null) return;
        if ('reply' in outcome) this.send(await this.sendable(outcome.reply, m));
        else if ('close' in outcome) this.close(outcome.close);
      } catch {
        this.dropped += 1;
      } finally {
        this.waiting -= 1;
      }
    });
    return true;
  }
}

const SERVED = new Set<P2pMessage['type']>([
  'GetHeaders',
  'GetHeadersFastSync',
  'GetBlock',
  'GetCompactBlock',
  'GetTransaction',
]);

function isServed(m: P2pMessage): boolean {
  return SERVED.has(m.type);
}
