// Big replies without a copy per thread. An actor that answers with a large byte string (the
// chain's 180 KB get_outputs body) would otherwise encode it into a frame, and the owner's
// thread would receive a fresh 180 KB ArrayBuffer per reply: two copies, and external memory
// that forces a major GC in the owner every few megabytes. Here the actor writes the bytes once
// into memory both threads share, lends that slice to the owner by position, and the owner
// gives it back once written out. One producer thread (the actor) and one consumer (the owner);
// the producer alone moves the ring's ends, the consumer only flips a slice's ticket to zero.
//
// A slice the owner never gives back (its caller gave up before the reply came) would stop the
// ring for good, so the producer takes back any slice lent longer than `leaseMs`. The ticket
// makes a late give-back of a reclaimed slice a no-op instead of freeing someone else's.

/** Where a lent slice is: plain numbers, to travel in a reply. */
export interface RingSlice {
  /** Byte offset of the data in the shared memory. */
  readonly at: number;
  readonly length: number;
  /** Nonzero; names this lending of the slice (0 in the header means free). */
  readonly ticket: number;
}

// Control words (Float64, producer's only): head and tail as running byte counts, the next
// ticket. They live in the shared memory so that a restarted producer carries on where its
// predecessor stopped, with the consumer perhaps still holding slices of it.
const HEAD = 0;
const TAIL = 1;
const TICKET = 2;
const CONTROL_BYTES = 64;
// Per slice: Int32 size (header included), Int32 ticket, Float64 time lent (ms).
const HEADER_BYTES = 16;
const ALIGN = 16;

export const DEFAULT_LEASE_MS = 30_000;

function aligned(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

export class SharedRing {
  readonly memory: SharedArrayBuffer;
  readonly #capacity: number;
  readonly #control: Float64Array;
  readonly #words: Int32Array;
  readonly #times: Float64Array;
  readonly #leaseMs: number;
  readonly #now: () => number;

  /** Shared memory for a ring of `capacity` bytes (a multiple of 16), empty. */
  static allocate(capacity: number): SharedArrayBuffer {
    if (!Number.isInteger(capacity) || capacity <= 0 || capacity % ALIGN !== 0)
      throw new RangeError(`ring capacity ${capacity} is not a positive multiple of ${ALIGN}`);
    return new SharedArrayBuffer(CONTROL_BYTES + capacity);
  }

  constructor(memory: SharedArrayBuffer, leaseMs = DEFAULT_LEASE_MS, now: () => number = Date.now) {
    this.memory = memory;
    this.#capacity = memory.byteLength - CONTROL_BYTES;
    if (this.#capacity <= 0 || this.#capacity % ALIGN !== 0)
      throw new RangeError(`shared memory of ${memory.byteLength} bytes is not a ring`);
    this.#control = new Float64Array(memory, 0, 3);
    this.#words = new Int32Array(memory);
    this.#times = new Float64Array(memory);
    this.#leaseMs = leaseMs;
    this.#now = now;
  }

  /** Bytes lent and not yet taken back (headers and padding included): the producer's view. */
  get used(): number {
    return (this.#control[HEAD] as number) - (this.#control[TAIL] as number);
  }

  /**
   * Producer: `length` bytes to fill, lent once returned; undefined when the ring has no room
   * (the caller sends its bytes the ordinary way).
   */
  lend(length: number): { slice: RingSlice; bytes: Uint8Array } | undefined {
    const size = aligned(HEADER_BYTES + length);
    if (!Number.isInteger(length) || length < 0 || size > this.#capacity) return undefined;
    const now = this.#now();
    this.#reclaim(now);
    let head = this.#control[HEAD] as number;
    const free = this.#capacity - this.used;
    const toEnd = this.#capacity - (head % this.#capacity);
    // A slice never wraps: the end of the ring is skipped as a free slice of its own.
    const skip = toEnd < size ? toEnd : 0;
    if (skip + size > free) return undefined;
    if (skip > 0) {
      this.#writeHeader(head, skip, 0, now);
      head += skip;
    }
    const ticket = this.#nextTicket();
    this.#writeHeader(head, size, ticket, now);
    this.#control[HEAD] = head + size;
    const at = CONTROL_BYTES + (head % this.#capacity) + HEADER_BYTES;
    return { slice: { at, length, ticket }, bytes: new Uint8Array(this.memory, at, length) };
  }

  /** Consumer: the lent bytes of `slice`, or undefined if it is not (or no longer) lent. */
  borrow(slice: RingSlice): Uint8Array | undefined {
    const start = this.#headerOf(slice);
    const { at, length, ticket } = slice;
    if (start < 0 || !Number.isInteger(length) || length < 0) return undefined;
    if (Atomics.load(this.#words, start / 4 + 1) !== ticket) return undefined;
    const size = Atomics.load(this.#words, start / 4);
    if (HEADER_BYTES + length > size || start + size > this.memory.byteLength) return undefined;
    return new Uint8Array(this.memory, at, length);
  }

  /** Consumer: done with `slice`; giving back one already reclaimed does nothing. */
  giveBack(slice: RingSlice): void {
    const start = this.#headerOf(slice);
    if (start >= 0) Atomics.compareExchange(this.#words, start / 4 + 1, slice.ticket, 0);
  }

  /** Where the header of a slice said to be at `slice.at` would be; -1 if it cannot be one. */
  #headerOf(slice: RingSlice): number {
    const start = slice.at - HEADER_BYTES;
    if (!Number.isInteger(start) || start < CONTROL_BYTES || start % ALIGN !== 0) return -1;
    if (start + HEADER_BYTES > this.memory.byteLength || slice.ticket === 0) return -1;
    return start;
  }

  /** Moves the tail over every slice given back or lent too long, oldest first. */
  #reclaim(now: number): void {
    let tail = this.#control[TAIL] as number;
    const head = this.#control[HEAD] as number;
    while (tail < head) {
      const start = CONTROL_BYTES + (tail % this.#capacity);
      const ticket = Atomics.load(this.#words, start / 4 + 1);
      if (ticket !== 0) {
        if (now - (this.#times[start / 8 + 1] as number) < this.#leaseMs) break;
        Atomics.compareExchange(this.#words, start / 4 + 1, ticket, 0);
      }
      tail += Atomics.load(this.#words, start / 4);
    }
    this.#control[TAIL] = tail;
  }

  #writeHeader(position: number, size: number, ticket: number, now: number): void {
    const start = CONTROL_BYTES + (position % this.#capacity);
    Atomics.store(this.#words, start / 4, size);
    this.#times[start / 8 + 1] = now;
    // Last: a consumer that sees the ticket sees the size and time with it.
    Atomics.store(this.#words, start / 4 + 1, ticket);
  }

  #nextTicket(): number {
    const next = ((this.#control[TICKET] as number) % 0x7fff_ffff) + 1;
    this.#control[TICKET] = next;
    return next;
  }
}
