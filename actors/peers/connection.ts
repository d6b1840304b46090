// One peer's TCP stream in Epic's framing: incremental reads through FrameReader (which holds at
// most one header and one capped body), whole frames written in one `write` each, and a bounded
// send queue. Any bad frame, any error, or a send queue over its bound ends the connection; the
// owner hears of it once through `onClose`.
import type { Socket } from 'node:net';
import { FrameReader } from '../../core/p2p/frame_reader.js';
import { decodeMessage, encodeFrame, type MsgParams } from '../../core/p2p/msg.js';
import type { P2pMessage } from '../../core/p2p/types.js';

/** Frames queued for one peer and not yet handed to the kernel; Epic's `SEND_CHANNEL_CAP`. */
export const SEND_QUEUE_FRAMES = 1000;
/**
 * Bytes queued for one peer. Epic drops messages over its queue silently; a peer that cannot
 * take 16 MiB (a few full blocks) is too slow to keep, so we close it instead.
 */
export const SEND_QUEUE_BYTES = 16 * 1024 * 1024;

export interface ConnectionEvents {
  /** A decoded message; throwing from here closes the connection with that reason. */
  readonly onMessage: (m: P2pMessage) => void;
  /** Called once, whatever ended the connection. */
  readonly onClose: (reason: string) => void;
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

  constructor(socket: Socket, params: MsgParams, events: ConnectionEvents) {
    this.socket = socket;
    this.params = params;
    this.events = events;
    // No attachment was asked for (no TxHashSetRequest or KernelDataRequest is sent yet), so an
    // archive or kernel data arriving here is unsolicited: refused at its header.
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

  /** Queues one whole frame; closes the connection instead when the queue is over a bound. */
  send(m: P2pMessage): void {
    if (this.closed) return;
    const frame = encodeFrame(m, this.version, this.params);
    if (
      this.queuedFrames + 1 > SEND_QUEUE_FRAMES ||
      this.queuedBytes + frame.length > SEND_QUEUE_BYTES
    ) {
      this.close(`send queue full (${this.queuedFrames} frames, ${this.queuedBytes} bytes)`);
      return;
    }
    this.queuedFrames += 1;
    this.queuedBytes += frame.length;
    this.socket.write(frame, () => {
      this.queuedFrames -= 1;
      this.queuedBytes -= frame.length;
    });
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
        // Unknown types are skipped, as Epic does; attachments cannot occur (cap 0 above).
        if (ev.kind !== 'message') continue;
        this.events.onMessage(decodeMessage(ev.type, ev.body, this.version, this.params));
        if (this.closed) return;
      }
    } catch (e) {
      this.close(e instanceof Error ? e.message : String(e));
    }
  }
}
