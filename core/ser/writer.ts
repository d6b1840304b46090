// Growable big-endian writer. In `hash` mode types leave out the fields Epic does not hash.
import type { ProtocolVersion, WireParams } from './params.js';

export type SerMode = 'full' | 'hash';

export class Writer {
  readonly mode: SerMode;
  readonly version: ProtocolVersion;
  readonly params: WireParams;
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(mode: SerMode, version: ProtocolVersion, params: WireParams, capacity = 512) {
    this.mode = mode;
    this.version = version;
    this.params = params;
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): number {
    if (this.pos + n > this.buf.length) {
      let cap = this.buf.length * 2;
      while (cap < this.pos + n) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(0, this.pos));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.pos;
    this.pos += n;
    return at;
  }

  // room() may replace buf and view, so it is always called before they are read.
  u8(v: number): void {
    const at = this.room(1);
    this.buf[at] = v;
  }

  u16(v: number): void {
    const at = this.room(2);
    this.view.setUint16(at, v);
  }

  u32(v: number): void {
    const at = this.room(4);
    this.view.setUint32(at, v);
  }

  u64(v: bigint): void {
    const at = this.room(8);
    this.view.setBigUint64(at, v);
  }

  /** u64 from a non-negative safe integer, avoiding a BigInt on hot paths (counts, lengths). */
  u64n(v: number): void {
    const at = this.room(8);
    this.view.setUint32(at, Math.floor(v / 0x1_0000_0000));
    this.view.setUint32(at + 4, v >>> 0);
  }

  i64(v: bigint): void {
    const at = this.room(8);
    this.view.setBigInt64(at, v);
  }

  fixed(bytes: Uint8Array): void {
    const at = this.room(bytes.length);
    this.buf.set(bytes, at);
  }

  lenPrefixed(bytes: Uint8Array): void {
    this.u64n(bytes.length);
    this.fixed(bytes);
  }

  /** The bytes written so far (a view; copy it if the writer is reused). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
