// Verification jobs as they cross into a pool worker: a kind and its items as bytes. The items
// of one job are copied into one buffer plus an end-offset table and both are transferred, so
// a job costs one copy however many items it has, and a caller's views into a larger block
// buffer never drag that whole buffer along.
import type { WireError } from './errors.js';

/** One item's outcome, index-aligned with the items. */
export type JobResult =
  | { readonly ok: true; readonly value?: Uint8Array | number | boolean }
  | { readonly ok: false; readonly code: string };

/**
 * A job kind, run in a pool worker on one chunk of a batch. It returns one result per item,
 * in order. Items are views into one shared buffer (do not use `item.buffer` as the item). If
 * it throws, every item of the chunk fails with the thrown `code` (or 'Internal').
 */
export type JobKind = (items: readonly Uint8Array[]) => JobResult[] | Promise<JobResult[]>;

/** What a kind module exports as `kinds`. */
export type KindTable = Readonly<Record<string, JobKind>>;

export interface JobRequest {
  readonly kind: string;
  readonly bytes: Uint8Array;
  /** `ends[i]` is where item i ends in `bytes`; item i starts where item i − 1 ends. */
  readonly ends: Uint32Array;
}

/** A job-level fault (unknown kind, wrong result count) fails the batch, never single items. */
export type JobReply =
  | { readonly ok: true; readonly results: JobResult[] }
  | { readonly ok: false; readonly error: WireError };

export interface PackedItems {
  readonly request: JobRequest;
  /** The two buffers to transfer. */
  readonly transfer: ArrayBuffer[];
}

/** Packs `items[start, end)` of a batch into one job. */
export function packItems(
  kind: string,
  items: readonly Uint8Array[],
  start: number,
  end: number,
): PackedItems {
  const endsBuffer = new ArrayBuffer(4 * (end - start));
  const ends = new Uint32Array(endsBuffer);
  let total = 0;
  for (let i = start; i < end; i++) {
    total += (items[i] as Uint8Array).byteLength;
    ends[i - start] = total;
  }
  const bytesBuffer = new ArrayBuffer(total);
  const bytes = new Uint8Array(bytesBuffer);
  let at = 0;
  for (let i = start; i < end; i++) {
    const item = items[i] as Uint8Array;
    bytes.set(item, at);
    at += item.byteLength;
  }
  return { request: { kind, bytes, ends }, transfer: [bytesBuffer, endsBuffer] };
}

export function unpackItems(request: JobRequest): Uint8Array[] {
  const items: Uint8Array[] = new Array(request.ends.length);
  let start = 0;
  for (let i = 0; i < request.ends.length; i++) {
    const end = request.ends[i] as number;
    items[i] = request.bytes.subarray(start, end);
    start = end;
  }
  return items;
}

/**
 * Cuts n items into the fewest chunks of at most `max`, sized evenly (100 items, max 64 →
 * 50 + 50, not 64 + 36) so parallel workers finish together. Returns [start, end) pairs.
 */
export function chunkRanges(n: number, max: number): Array<readonly [number, number]> {
  if (n === 0) return [];
  const count = Math.ceil(n / max);
  const base = Math.floor(n / count);
  const bigger = n % count;
  const ranges: Array<readonly [number, number]> = [];
  let start = 0;
  for (let c = 0; c < count; c++) {
    const end = start + base + (c < bigger ? 1 : 0);
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}
