// The header requests of a sync in flight at once (issue 18 item 2). Each peer with more work gets
// at most one request; request k asks for the 512 headers after our sync head + 512·k (Epic's
// GetHeadersFastSync offset), so several peers fill successive pages at the same time. Replies
// are untrusted and may come in any order: a page is held, keyed by its first height, until the
// page before it has been applied, and only then does the chain see it. Pages held and asked are
// bounded by `maxInFlight`, so a peer cannot make us hold more than that many pages.
import type { BlockHeader } from '../../core/types/block.js';

/** Headers per page, as Epic serves them. */
export const PAGE = 512n;
/** The offset travels as one byte. */
const MAX_OFFSET = 255;

/** A request sent and not yet answered. */
export interface HeaderAsk {
  readonly peer: string;
  readonly offset: number;
  /** The height its first header should have when the peer's chain contains our sync head. */
  readonly firstHeight: bigint;
  readonly at: number;
}

/** A page received ahead of its turn, with who sent it (for a ban if it proves invalid). */
export interface HeldPage<P> {
  readonly from: P;
  readonly headers: readonly BlockHeader[];
}

interface Held<P> extends HeldPage<P> {
  readonly at: number;
}

/** A page still to ask: its offset from the sync head and the first height it covers. */
export interface Gap {
  readonly offset: number;
  readonly firstHeight: bigint;
}

export class HeaderRequests<P> {
  private readonly asks = new Map<string, HeaderAsk>();
  private readonly held = new Map<bigint, Held<P>>();
  /** First heights of pages received and not yet held or applied: asked of nobody else. */
  private readonly arriving = new Map<bigint, number>();
  readonly maxInFlight: number;

  constructor(maxInFlight: number) {
    this.maxInFlight = Math.max(1, Math.min(maxInFlight, MAX_OFFSET + 1));
  }

  /**
   * Forgets requests unanswered for `timeoutMs`, and held pages that long without the page before
   * them (they came from a peer on another fork); returns the peers whose requests timed out.
   */
  expire(now: number, timeoutMs: number): Set<string> {
    for (const [first, page] of this.held) if (now - page.at >= timeoutMs) this.held.delete(first);
    const late = new Set<string>();
    for (const [peer, ask] of this.asks) {
      if (now - ask.at < timeoutMs) continue;
      this.asks.delete(peer);
      late.add(peer);
    }
    return late;
  }

  /** Whether `peer` has a request outstanding. */
  busy(peer: string): boolean {
    return this.asks.has(peer);
  }

  get pending(): number {
    return this.asks.size;
  }

  /** Pages above `base` up to `best` that nobody has been asked for and none is held, in order. */
  gaps(base: bigint, best: bigint): Gap[] {
    const asked = new Set<bigint>();
    for (const a of this.asks.values()) asked.add(a.firstHeight);
    for (const first of this.arriving.keys()) asked.add(first);
    const out: Gap[] = [];
    const room = this.maxInFlight - this.asks.size - this.held.size;
    for (let k = 0; k < this.maxInFlight && out.length < room; k++) {
      const firstHeight = base + 1n + PAGE * BigInt(k);
      if (firstHeight > best) break;
      if (!asked.has(firstHeight) && !this.held.has(firstHeight))
        out.push({ offset: k, firstHeight });
    }
    return out;
  }

  asked(ask: HeaderAsk): void {
    this.asks.set(ask.peer, ask);
  }

  /** The request `peer` answers, removed; null for an unsolicited page. */
  take(peer: string): HeaderAsk | null {
    const ask = this.asks.get(peer) ?? null;
    this.asks.delete(peer);
    return ask;
  }

  /** Keeps a page for later; one per first height, and no more than the book's bound. */
  hold(page: HeldPage<P>, now: number): void {
    const first = page.headers[0]?.height;
    if (first === undefined || this.held.has(first) || this.held.size >= this.maxInFlight) return;
    this.held.set(first, { ...page, at: now });
  }

  /**
   * Marks a page between its arrival and the end of its turn (held, applied or refused), so that
   * nobody is asked for it meanwhile; `done` ends the mark.
   */
  arrived(first: bigint): { done(): void } {
    this.arriving.set(first, (this.arriving.get(first) ?? 0) + 1);
    let ended = false;
    return {
      done: () => {
        if (ended) return;
        ended = true;
        const n = (this.arriving.get(first) ?? 1) - 1;
        if (n > 0) this.arriving.set(first, n);
        else this.arriving.delete(first);
      },
    };
  }

  /** Marks the page the chain is validating until `done`. */
  validating(page: HeldPage<P>): { done(): void } {
    return this.arrived(page.headers[0]?.height ?? -1n);
  }

  /** The held page that continues from `base`, removed; pages at or below `base` are dropped. */
  next(base: bigint): HeldPage<P> | undefined {
    for (const first of this.held.keys()) if (first <= base) this.held.delete(first);
    const page = this.held.get(base + 1n);
    this.held.delete(base + 1n);
    return page;
  }

  /** Drops held pages (a page proved bad, or the sync ended); requests stay to be answered. */
  dropHeld(): void {
    this.held.clear();
  }

  clear(): void {
    this.asks.clear();
    this.held.clear();
  }
}
