// One peer's TCP stream in Epic's framing: incremental reads through FrameReader (which holds at
// most one header and one capped body), whole frames written in one `write` each, and a bounded
// send queue. Any bad frame, any error, a send queue over its bound or a peer over Epic's abuse
// rate ends the connection; the owner hears of it once through `onClose`. Our own sending is
// kept under a per-minute budget well below that rate, so an Epic peer never finds us abusive.
// An attachment (the zip after TxHashSetArchive) is read only while one was asked of this peer,
// and goes out with backpressure while every frame queued meanwhile waits behind it.
import type { Socket } from 'node:net';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame, type MsgParams } from '../../core/p2p/msg.js';
import type { P2pMessage } from '../../core/p2p/types.js';
import { MinuteCounter } from './rate.js';

/** Frames queued for one peer and not yet handed to the kernel; Epic's `SEND_CHANNEL_CAP`. */
export const SEND_QUEUE_FRAMES = 1000;
/**
 * Bytes queued for one peer. Epic drops messages over its queue silently; a peer that cannot
 * take 16 MiB (a few full blocks) is too slow to keep, so we close it instead.
 */
export const SEND_QUEUE_BYTES = 16 * 1024 * 1024;

/** Epic bans a peer that sends or receives more than this many messages a minute. */
export const ABUSE_MESSAGES_PER_MINUTE = 5000;
/** What we send one peer a minute at most; more is dropped (a relay is repeated later anyway). */
export const SEND_MESSAGES_PER_MINUTE = 2000;
/** How long a closing connection may take to flush its last message (a BanReason). */
const FLUSH_MS = 1000;
/** An attachment the peer takes nothing of for this long ends the connection. */
export const ATTACHMENT_DRAIN_MS = 60_000;

export interface ConnectionEvents {
  /** A decoded message; throwing from here closes the connection with that reason. */
  readonly onMessage: (m: P2pMessage) => void;
  /** Called once, whatever ended the connection. */
  readonly onClose: (reason: string) => void;
  /**
   * Bytes of the attachment after the last message (a view of the received chunk, valid until
   * the handler returns unless kept); `remaining` bytes are still to come. Throwing closes.
   */
  readonly onAttachment?: (type: number, chunk: Uint8Array, remaining: number) => void;
}

interface Held {
  readonly frame: Uint8Array;
}

export class Connection {
  readonly socket: Socket;
  private readonly params: MsgParams;
  private readonly reader: FrameReader;
  /** Who hears this connection's messages and its end: the handshake, then the live peer. */
  events: ConnectionEvents;
  /** Version for everything after Hand: set to the negotiated one by the handshake. */
  version = 2;
  private queuedFrames = 0;
  private queuedBytes = 0;
  private closed = false;
  private readonly received = new MinuteCounter();
  private readonly sent = new MinuteCounter();
  /** Messages not sent because the minute's budget was spent. */
  droppedSends = 0;
  /** Set when the connection ended because the peer went over the abuse rate. */
  abusive = false;
  /** Frames sent while an attachment streams: written after it, in order. */
  private held: Held[] | null = null;

  constructor(socket: Socket, params: MsgParams, events: ConnectionEvents) {
    this.socket = socket;
    this.params = params;
    this.events = events;
    // No attachment is accepted until one is asked for (expectAttachment): an archive or kernel
    // data arriving unasked is refused at its header, which ends the connection.
    this.reader = new FrameReader(params, 0);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.close(`socket error: ${e.message}`));
    socket.on('close', () => this.close('closed by peer'));
    socket.on('end', () => this.close('ended by peer'));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Queues one whole frame; false when it was dropped (closed, or over the minute's budget).
   * A queue over its bound closes the connection instead.
   */
  send(m: P2pMessage): boolean {
    if (this.closed) return false;
    const now = Date.now();
    if (this.sent.count(now) >= SEND_MESSAGES_PER_MINUTE) {
      this.droppedSends += 1;
      return false;
    }
    let frame: Uint8Array;
    try {
      frame = encodeFrame(m, this.version, this.params);
    } catch {
      // Over its type's cap (e.g. a compact block with several full outputs on a test chain):
      // Epic cannot send it either; the peer falls back to asking for the full block.
      this.droppedSends += 1;
      return false;
    }
    if (
      this.queuedFrames + 1 > SEND_QUEUE_FRAMES ||
      this.queuedBytes + frame.length > SEND_QUEUE_BYTES
    ) {
      this.close(`send queue full (${this.queuedFrames} frames, ${this.queuedBytes} bytes)`);
      return false;
    }
    this.sent.add(now);
    this.queuedFrames += 1;
    this.queuedBytes += frame.length;
    if (this.held !== null) this.held.push({ frame });
    else this.write(frame);
    return true;
  }

  private write(frame: Uint8Array): void {
    this.socket.write(frame, () => {
      this.queuedFrames -= 1;
      this.queuedBytes -= frame.length;
    });
  }

  /** Accepts an attachment of at most `max` bytes after the next frames (0: none, the default). */
  expectAttachment(max: number): void {
    this.reader.setMaxAttachment(max);
  }

  /** Stops reading the socket (the consumer of an attachment is behind), or reads again. */
  pauseReading(paused: boolean): void {
    if (this.closed) return;
    if (paused) this.socket.pause();
    else this.socket.resume();
  }

  /** Whether an attachment is being sent now. */
  get streaming(): boolean {
    return this.held !== null;
  }

  /**
   * Sends `m` (counted as one message of the minute's budget) and then `size` bytes from
   * `chunks` as its attachment, waiting for the socket to drain whenever it is full. Frames sent
   * meanwhile wait and follow the attachment. False when nothing was sent (closed, budget spent,
   * another attachment streaming); a source that fails or does not give exactly `size` bytes, or
   * a peer that takes nothing for ATTACHMENT_DRAIN_MS, ends the connection (the stream cannot be
   * resynchronised).
   */
  async sendAttachment(
    m: P2pMessage,
    size: number,
    chunks: AsyncIterable<Uint8Array>,
  ): Promise<boolean> {
    if (this.closed || this.held !== null) return false;
    const now = Date.now();
    if (this.sent.count(now) >= SEND_MESSAGES_PER_MINUTE) {
      this.droppedSends += 1;
      return false;
    }
    const frame = encodeFrame(m, this.version, this.params);
    this.sent.add(now);
    this.held = [];
    let sent = 0;
    try {
      this.socket.write(frame);
      for await (const chunk of chunks) {
        if (this.closed) return false;
        if (sent + chunk.length > size) throw new Error('attachment source gave too many bytes');
        sent += chunk.length;
        if (!this.socket.write(chunk)) await this.drained();
      }
      if (this.closed) return false;
      if (sent !== size) throw new Error(`attachment source gave ${sent} of ${size} bytes`);
      return true;
    } catch (e) {
      this.close(`attachment not sent: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    } finally {
      const held = this.held;
      this.held = null;
      if (!this.closed) for (const h of held ?? []) this.write(h.frame);
    }
  }

  /** Resolves at the socket's next 'drain'; rejects when it ends or takes nothing for long. */
  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (e: Error | null) => {
        clearTimeout(timer);
        this.socket.off('drain', onDrain);
        this.socket.off('close', onClose);
        if (e === null) resolve();
        else reject(e);
      };
      const onDrain = () => done(null);
      const onClose = () => done(new Error('closed'));
      const timer = setTimeout(
        () => done(new Error(`peer took nothing for ${ATTACHMENT_DRAIN_MS} ms`)),
        ATTACHMENT_DRAIN_MS,
      );
      this.socket.on('drain', onDrain);
      this.socket.on('close', onClose);
      if (this.closed) done(new Error('closed'));
    });
  }

  /** Whether `m` is within its type's size cap in this connection's version. */
  fits(m: P2pMessage): boolean {
    try {
      encodeFrame(m, this.version, this.params);
      return true;
    } catch {
      return false;
    }
  }

  /** Sends `m`, then ends the connection once it is written (or after a second at most). */
  sendAndClose(m: P2pMessage, reason: string): void {
    if (this.closed) return;
    this.send(m);
    this.closed = true;
    const timer = setTimeout(() => this.socket.destroy(), FLUSH_MS);
    timer.unref();
    this.socket.end(() => clearTimeout(timer));
    this.events.onClose(reason);
  }

  /** Ends the connection (idempotent); the reason reaches `onClose`. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    this.events.onClose(reason);
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    try {
      for (const ev of this.reader.push(chunk)) {
        if (ev.kind === 'attachment') {
          // Part of a message already counted; only read when one was expected.
          const sink = this.events.onAttachment;
          if (sink === undefined) throw new Error(`unexpected attachment of type ${ev.type}`);
          sink(ev.type, ev.chunk, ev.remaining);
          if (this.closed) return;
          continue;
        }
        // Unknown types count, then are skipped.
        const rate = this.received.add(Date.now());
        if (rate > ABUSE_MESSAGES_PER_MINUTE) {
          this.abusive = true;
          this.close(`abusive: ${rate} messages in a minute`);
          return;
        }
        if (ev.kind !== 'message') continue;
        this.events.onMessage(decodeMessage(ev.type, ev.body, this.version, this.params));
        if (this.closed) return;
      }
    } catch (e) {
      this.close(e instanceof Error ? e.message : String(e));
    }
  }
}
