// Serving Epic's txhashset archive (issue 19 item 2, p2p reference §7.4 "Serving"): a
// TxHashSetRequest — whose hash and height are ignored, as Epic's — is answered with the
// chain's own archive, TxHashSetArchive{hash, height, bytes} followed by the zip's bytes read
// from disk in chunks and written with backpressure. The chain may take a while to build the
// archive (off its event loop); meanwhile and during the stream the peer's other traffic goes
// on, and frames queued during the stream follow it (connection.ts). At most one archive per
// peer and MAX_ARCHIVE_STREAMS in all at once; further requests are ignored with a log line. A
// chain error is logged and gets no reply (the asker's stall detection moves on).
import { open } from 'node:fs/promises';
import type { P2pMessage } from '../../core/p2p/types.js';

/** Archives being prepared or sent at once, over all peers. */
export const MAX_ARCHIVE_STREAMS = 2;
/** Bytes read from the zip and written to the socket at a time. */
export const ARCHIVE_CHUNK = 256 * 1024;

/** The chain's archive for peers (chain actor `txhashsetArchive`). */
export interface ArchiveFile {
  readonly hash: Uint8Array;
  readonly height: bigint;
  readonly path: string;
  readonly size: number;
}

/** What the server needs of a peer's connection. */
export interface ArchiveConn {
  readonly isClosed: boolean;
  sendAttachment(m: P2pMessage, size: number, chunks: AsyncIterable<Uint8Array>): Promise<boolean>;
}

export type ArchiveLog = (event: string, fields: Record<string, unknown>) => void;

export class ArchiveServer {
  private readonly archive: () => Promise<ArchiveFile>;
  private readonly log: ArchiveLog;
  private readonly max: number;
  private readonly chunk: number;
  /** Peers with an archive being prepared or sent. */
  private readonly busy = new Set<string>();

  constructor(
    archive: () => Promise<ArchiveFile>,
    log: ArchiveLog,
    opts: { readonly maxStreams?: number; readonly chunkBytes?: number } = {},
  ) {
    this.archive = archive;
    this.log = log;
    this.max = opts.maxStreams ?? MAX_ARCHIVE_STREAMS;
    this.chunk = opts.chunkBytes ?? ARCHIVE_CHUNK;
  }

  /** Archives being prepared or sent now. */
  get streams(): number {
    return this.busy.size;
  }

  /**
   * A peer's TxHashSetRequest: answered in the background; the promise (for tests) settles when
   * the answer is sent, refused or dropped, never rejecting.
   */
  request(key: string, addr: string, conn: ArchiveConn): Promise<void> {
    if (this.busy.has(key)) {
      this.log('p2p_archive_ignored', { addr, reason: 'one archive per peer at a time' });
      return Promise.resolve();
    }
    if (this.busy.size >= this.max) {
      this.log('p2p_archive_ignored', { addr, reason: `${this.max} archives already in flight` });
      return Promise.resolve();
    }
    this.busy.add(key);
    return this.serve(addr, conn).finally(() => this.busy.delete(key));
  }

  private async serve(addr: string, conn: ArchiveConn): Promise<void> {
    let file: ArchiveFile;
    try {
      file = await this.archive();
    } catch (e) {
      this.log('p2p_archive_failed', { addr, error: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (conn.isClosed) return;
    const started = Date.now();
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file.path, 'r');
    } catch (e) {
      this.log('p2p_archive_failed', { addr, error: e instanceof Error ? e.message : String(e) });
      return;
    }
    try {
      const sent = await conn.sendAttachment(
        {
          type: 'TxHashSetArchive',
          hash: file.hash,
          height: file.height,
          bytes: BigInt(file.size),
        },
        file.size,
        readChunks(handle, file.size, this.chunk),
      );
      this.log(sent ? 'p2p_archive_sent' : 'p2p_archive_not_sent', {
        addr,
        height: Number(file.height),
        bytes: file.size,
        ms: Date.now() - started,
      });
    } finally {
      await handle.close().catch(() => {});
    }
  }
}

/** `size` bytes of the file in fresh buffers of `chunk` bytes (the socket keeps each until sent). */
async function* readChunks(
  handle: Awaited<ReturnType<typeof open>>,
  size: number,
  chunk: number,
): AsyncGenerator<Uint8Array> {
  let pos = 0;
  while (pos < size) {
    const buf = Buffer.allocUnsafe(Math.min(chunk, size - pos));
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) throw new Error(`archive ended at ${pos} of ${size} bytes`);
    pos += bytesRead;
    yield buf.subarray(0, bytesRead);
  }
}
