// Bounded big-endian reader over one byte array. Every read names what it reads, so a failure
// says which field was truncated or oversized.
import { SerError } from './errors.js';
import type { ProtocolVersion, WireParams } from './params.js';

/** A single fixed-size read above this is refused (Epic's `read_fixed_bytes` cap). */
export const MAX_FIXED_READ = 100_000;
/** Element count above which `multi` refuses (Epic's `read_multi` cap). */
export const MAX_MULTI_COUNT = 1_000_000n;

export class Reader {
  readonly version: ProtocolVersion;
  readonly params: WireParams;
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private pos = 0;

  constructor(buf: Uint8Array, version: ProtocolVersion, params: WireParams) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.version = version;
    this.params = params;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): number {
    if (this.buf.length - this.pos < n) {
      throw new SerError(
        'IOErr',
        `input ends at byte ${this.buf.length} while reading ${what} (${n} bytes at ${this.pos})`,
      );
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  u8(what: string): number {
    return this.buf[this.need(1, what)] as number;
  }

  u16(what: string): number {
    return this.view.getUint16(this.need(2, what));
  }

  u32(what: string): number {
    return this.view.getUint32(this.need(4, what));
  }

  i32(what: string): number {
    return this.view.getInt32(this.need(4, what));
  }

  u64(what: string): bigint {
    return this.view.getBigUint64(this.need(8, what));
  }

  i64(what: string): bigint {
    return this.view.getBigInt64(this.need(8, what));
  }

  /** A copy of the next `n` bytes. */
  fixed(n: number, what: string): Uint8Array {
    if (n > MAX_FIXED_READ)
      throw new SerError(
        'TooLargeReadErr',
        `${what}: ${n} bytes is over the ${MAX_FIXED_READ}-byte read cap`,
      );
    const at = this.need(n, what);
    return this.buf.slice(at, at + n);
  }

  /** u64 length prefix, then that many bytes. */
  lenPrefixed(what: string): Uint8Array {
    const len = this.u64(`${what} length`);
    if (len > BigInt(MAX_FIXED_READ))
      throw new SerError(
        'TooLargeReadErr',
        `${what}: length ${len} is over the ${MAX_FIXED_READ}-byte read cap`,
      );
    return this.fixed(Number(len), what);
  }

  /** `count` elements read by `read`; the count is checked before anything is allocated. */
  multi<T>(count: bigint, what: string, read: (r: Reader, i: number) => T): T[] {
    if (count > MAX_MULTI_COUNT)
      throw new SerError('TooLargeReadErr', `${what}: count ${count} is over ${MAX_MULTI_COUNT}`);
    const n = Number(count);
    const out: T[] = [];
    for (let i = 0; i < n; i++) {
      if (this.remaining === 0)
        throw new SerError('CountError', `${what}: ${count} announced, input ended after ${i}`);
      out.push(read(this, i));
    }
    return out;
  }

  /** Fails when bytes are left over after a complete value. */
  end(what: string): void {
    if (this.pos !== this.buf.length) {
      throw new SerError(
        'UnexpectedData',
        `${this.buf.length - this.pos} trailing byte(s) after ${what}`,
      );
    }
  }
}
