// Incremental framing over a byte stream: feed chunks as they arrive, get whole messages back.
// Memory stays bounded: a header is buffered (11 bytes), then one body of at most its type's
// cap; unknown types' bodies and the attachments of types 17 and 22 are never buffered, they
// pass through as counts and views of the caller's chunks.
import { SerError } from '../ser/errors.js';
import { P2pError } from './errors.js';
import { decodeFrameHeader, FRAME_HEADER_SIZE, type FrameParams } from './frame.js';

export type FrameEvent =
  /** A complete body of a known type; `attachment` raw bytes follow it on the stream. */
  | {
      readonly kind: 'message';
      readonly type: number;
      readonly body: Uint8Array;
      readonly attachment: number;
    }
  /** An unknown type's header; its `length` body bytes are dropped as they arrive. */
  | { readonly kind: 'skip'; readonly type: number; readonly length: number }
  /** Part of an attachment (a view of the pushed chunk); `remaining` bytes are still to come. */
  | {
      readonly kind: 'attachment';
      readonly type: number;
      readonly chunk: Uint8Array;
      readonly remaining: number;
    };

/** Where the attachment length sits in a body: TxHashSetArchive after hash and height. */
const ATTACHMENT_LENGTH_AT: ReadonlyMap<number, number> = new Map([
  [17, 40],
  [22, 0],
]);

type State =
  | { readonly at: 'header' }
  | { readonly at: 'body'; readonly type: number; readonly body: Uint8Array }
  | { readonly at: 'skip'; readonly type: number; left: number }
  | { readonly at: 'attachment'; readonly type: number; left: number };

export class FrameReader {
  private readonly params: FrameParams;
  private maxAttachment: number;
  private readonly head = new Uint8Array(FRAME_HEADER_SIZE);
  /** Bytes filled in `head` or the body being read. */
  private filled = 0;
  private state: State = { at: 'header' };
  private largest = FRAME_HEADER_SIZE;
  private failure: Error | null = null;

  constructor(params: FrameParams, maxAttachment = Number.MAX_SAFE_INTEGER) {
    this.params = params;
    this.maxAttachment = maxAttachment;
  }

  /**
   * The largest attachment accepted from the next frame on (0: none). A connection raises it
   * only while it waits for an archive it asked for, so an unsolicited one fails at its header.
   */
  setMaxAttachment(max: number): void {
    this.maxAttachment = max;
  }

  /** Largest buffer this reader has allocated (for tests of the memory bound). */
  get largestBuffer(): number {
    return this.largest;
  }

  /** True between whole messages (a stream may end here cleanly). */
  get idle(): boolean {
    return this.state.at === 'header' && this.filled === 0;
  }

  /**
   * Consumes all of `chunk`; throws P2pError/SerError on the first bad frame. The stream cannot
   * be resynchronised after that, so every later push throws the same error.
   */
  push(chunk: Uint8Array): FrameEvent[] {
    if (this.failure !== null) throw this.failure;
    const events: FrameEvent[] = [];
    let pos = 0;
    try {
      while (pos < chunk.length) pos = this.step(chunk, pos, events);
    } catch (e) {
      this.failure = e as Error;
      throw e;
    }
    return events;
  }

  private step(chunk: Uint8Array, pos: number, events: FrameEvent[]): number {
    const s = this.state;
    switch (s.at) {
      case 'header': {
        const n = Math.min(FRAME_HEADER_SIZE - this.filled, chunk.length - pos);
        this.head.set(chunk.subarray(pos, pos + n), this.filled);
        this.filled += n;
        if (this.filled === FRAME_HEADER_SIZE) this.startFrame(events);
        return pos + n;
      }
      case 'body': {
        const n = Math.min(s.body.length - this.filled, chunk.length - pos);
        s.body.set(chunk.subarray(pos, pos + n), this.filled);
        this.filled += n;
        if (this.filled === s.body.length) this.finishBody(events);
        return pos + n;
      }
      case 'skip': {
        const n = Math.min(s.left, chunk.length - pos);
        s.left -= n;
        if (s.left === 0) this.state = { at: 'header' };
        return pos + n;
      }
      case 'attachment': {
        const n = Math.min(s.left, chunk.length - pos);
        s.left -= n;
        events.push({
          kind: 'attachment',
          type: s.type,
          chunk: chunk.subarray(pos, pos + n),
          remaining: s.left,
        });
        if (s.left === 0) this.state = { at: 'header' };
        return pos + n;
      }
    }
  }

  private startFrame(events: FrameEvent[]): void {
    const h = decodeFrameHeader(this.head, this.params);
    this.filled = 0;
    if (!h.known) {
      events.push({ kind: 'skip', type: h.type, length: h.length });
      this.state = h.length === 0 ? { at: 'header' } : { at: 'skip', type: h.type, left: h.length };
      return;
    }
    // The cap was checked by decodeFrameHeader, so this allocation is bounded by it.
    this.largest = Math.max(this.largest, h.length);
    this.state = { at: 'body', type: h.type, body: new Uint8Array(h.length) };
    if (h.length === 0) this.finishBody(events);
  }

  private finishBody(events: FrameEvent[]): void {
    const s = this.state;
    if (s.at !== 'body') return;
    const attachment = this.attachmentLength(s.type, s.body);
    events.push({ kind: 'message', type: s.type, body: s.body, attachment });
    this.filled = 0;
    this.state =
      attachment > 0 ? { at: 'attachment', type: s.type, left: attachment } : { at: 'header' };
  }

  private attachmentLength(type: number, body: Uint8Array): number {
    const at = ATTACHMENT_LENGTH_AT.get(type);
    if (at === undefined) return 0;
    if (body.length !== at + 8) {
      // The body codec would refuse it too; framing cannot continue without the length.
      throw new SerError(
        body.length < at + 8 ? 'IOErr' : 'UnexpectedData',
        `type ${type}: body of ${body.length} bytes, expected ${at + 8}`,
      );
    }
    const len = new DataView(body.buffer, body.byteOffset, body.byteLength).getBigUint64(at);
    if (len > BigInt(this.maxAttachment)) {
      throw new P2pError(
        'AttachmentTooLarge',
        `type ${type}: attachment of ${len} bytes, max ${this.maxAttachment}`,
      );
    }
    return Number(len);
  }
}
