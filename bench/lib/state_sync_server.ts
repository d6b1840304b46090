// The serving peer of the state-sync bench's download, in a worker thread of its own (as the
// peers actor has its own thread in a node): our peers layer (Network) with our ArchiveServer,
// dialling the asking node on loopback and advertising more work, so the asker's state sync
// requests the archive of it; the archive file is streamed from disk as a node serves it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { ArchiveServer } from '../../actors/peers/serve_archive.js';
import { PeerStore } from '../../actors/peers/store.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { loopbackNetwork } from '../../test/support/loopback_network.js';

export interface ServerJob {
  /** The asking node's listening port on 127.0.0.1. */
  readonly port: number;
  readonly file: string;
  readonly size: number;
  readonly hash: Uint8Array;
  readonly height: bigint;
  /** Total Cuckatoo work advertised (above the asker's header head: it asks the most-work peer). */
  readonly work: number;
}

/** What the worker posts: every archive log line, and 'closed' once told to stop. */
export type ServerEvent =
  | { readonly event: string; readonly fields: Record<string, unknown> }
  | { readonly event: 'closed' };

if (parentPort !== null) {
  const port = parentPort;
  const job = workerData as ServerJob;
  installNativeBlake2b();
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-bench-archive-server-'));
  const store = new PeerStore(dir);
  const post = (event: string, fields: Record<string, unknown>) => {
    if (event.includes('archive') || event.includes('dial')) port.postMessage({ event, fields });
  };
  const network = loopbackNetwork(
    {
      userAgent: 'MW/mwnode bench archive server',
      handshakeTimeoutMs: 5_000,
      head: {
        totalDifficulty: { cuckaroo: 0n, cuckatoo: BigInt(job.work), randomx: 0n, progpow: 0n },
        height: job.height + 1000n,
      },
      archives: new ArchiveServer(
        async () => ({ hash: job.hash, height: job.height, path: job.file, size: job.size }),
        post,
      ),
      log: post,
    },
    store,
  );
  port.on('message', (m: unknown) => {
    if (m !== 'close') return;
    network.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    port.postMessage({ event: 'closed' });
  });
  void network.connect({ ip: '127.0.0.1', port: job.port });
}
