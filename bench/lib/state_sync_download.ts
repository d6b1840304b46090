// The download half of the state-sync bench, through our real peers code on both ends over
// loopback TCP: the asking node here (Listener, Network, SyncClient with its StateSyncClient,
// which streams the attachment to a file with backpressure) and the serving node in a worker
// thread (bench/lib/state_sync_server.ts: Network + ArchiveServer reading the zip from disk).
// The asker's chain is played by the bench, as in the peers' own network test: its body head is
// far behind its header head and it says a txhashset is needed; its `write` (where the node's
// chain would validate) records the time and keeps the file for the validation runs.

import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_STATE_SYNC, StateSyncClient } from '../../actors/peers/state_sync.js';
import { PeerStore } from '../../actors/peers/store.js';
import { DEFAULT_SYNC, SyncClient } from '../../actors/peers/sync.js';
import {
  fixedHeadsChain,
  loopbackListener,
  loopbackNetwork,
} from '../../test/support/loopback_network.js';
import type { ServerEvent, ServerJob } from './state_sync_server.js';

const work = (n: number) => ({ cuckaroo: 0n, cuckatoo: BigInt(n), randomx: 0n, progpow: 0n });
/** The whole download may take this long before the bench gives up. */
const DOWNLOAD_LIMIT_MS = 300_000;

export interface DownloadRun {
  readonly bytes: number;
  /** From the TxHashSetRequest sent to the complete file handed to the chain. */
  readonly fromRequestSeconds: number;
  /** From the TxHashSetArchive message (the attachment's first bytes follow it) to the file. */
  readonly transferSeconds: number;
  readonly mbPerSecond: number;
  /** The server's own figure (p2p_archive_sent: from the request to the last byte written). */
  readonly serverMs: number | null;
  /** Where the downloaded archive was kept. */
  readonly path: string;
  readonly progressReports: number;
}

/**
 * Downloads `file` (the archive for `hash` at `height`) from a serving peer; resolves once the
 * asking side's StateSyncClient has handed the complete file to the chain.
 */
export async function downloadArchive(
  file: string,
  size: number,
  hash: Uint8Array,
  height: bigint,
  keepAs: string,
): Promise<DownloadRun> {
  const dir = mkdtempSync(join(tmpdir(), 'mwnode-bench-archive-asker-'));
  const downloads = join(dir, 'downloads');
  const store = new PeerStore(dir);
  const marks: Record<string, number> = {};
  let progressReports = 0;
  let needed = true;
  let handed: (() => void) | null = null;
  const done = new Promise<void>((resolve) => {
    handed = resolve;
  });
  const state = new StateSyncClient(
    {
      target: async () => ({ needed, hash, height }),
      write: async (req) => {
        marks.written = performance.now();
        renameSync(req.path, keepAs);
        needed = false;
        handed?.();
        return { ok: true };
      },
      downloadDir: async () => {
        mkdirSync(downloads, { recursive: true, mode: 0o700 });
        return downloads;
      },
    },
    (event) => {
      if (event === 'p2p_state_sync_request') marks.request = performance.now();
      if (event === 'p2p_state_sync_archive') marks.archive = performance.now();
    },
    DEFAULT_STATE_SYNC,
  );
  // Header head well ahead of the body head, with the serving peer's work: no header sync, and
  // the body is far enough behind for a txhashset.
  const headerHead = { height: height + 1000n, totalDifficulty: work(1000) };
  const sync = new SyncClient(
    fixedHeadsChain({ height: 0n, totalDifficulty: work(1) }, headerHead),
    (s) => {
      if (s.status === 'txhashset_download') progressReports++;
    },
    DEFAULT_SYNC,
    Date.now,
    state,
  );
  const network = loopbackNetwork(
    {
      userAgent: 'MW/mwnode bench',
      handshakeTimeoutMs: 5_000,
      head: { totalDifficulty: work(1), height: 0n },
      sync,
    },
    store,
  );
  const listener = await loopbackListener(network, 5_000);
  // The peers actor steps its sync every second; so does the bench.
  const ticker = setInterval(() => void network.syncStep().catch(() => undefined), 1_000);
  const job: ServerJob = { port: listener.port, file, size, hash, height, work: 1000 };
  const server = new Worker(new URL('./state_sync_server.js', import.meta.url), {
    workerData: job,
  });
  let serverMs: number | null = null;
  const serverClosed = new Promise<void>((resolve) => {
    server.on('message', (m: ServerEvent) => {
      if (m.event === 'closed') resolve();
      else if (m.event === 'p2p_archive_sent' && 'fields' in m) serverMs = Number(m.fields.ms);
    });
    server.once('exit', () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      done,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no archive within ${DOWNLOAD_LIMIT_MS / 1000} s`)),
          DOWNLOAD_LIMIT_MS,
        );
      }),
      new Promise((_, reject) => server.once('error', reject)),
    ]);
    await state.verdict;
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
    server.postMessage('close');
    await Promise.race([serverClosed, new Promise((r) => setTimeout(r, 5_000))]);
    await server.terminate();
    network.close();
    await listener.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const { request = Number.NaN, archive = Number.NaN, written = Number.NaN } = marks;
  const transferSeconds = (written - archive) / 1000;
  return {
    bytes: size,
    fromRequestSeconds: (written - request) / 1000,
    transferSeconds,
    mbPerSecond: size / 1e6 / transferSeconds,
    serverMs,
    path: keepAs,
    progressReports,
  };
}
