// A worker thread that writes one txhashset archive (archive_snapshot.ts) from a read-only
// connection to the chain database, so neither the chain actor's thread nor any event loop
// spends the time. The zip goes to `<out>.tmp` first and is renamed into place whole: a reader
// never sees a partial archive, and a crash leaves only a .tmp file that the next build
// replaces.
import { renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { CHAIN_PARAMS, type ChainType } from '../../core/chain_type.js';
import { installNativeBlake2b } from '../../jobs/hash_addon.js';
import { snapshotArchive } from './archive_snapshot.js';

/** What the chain actor hands the worker. */
export interface ArchiveJob {
  readonly dbFile: string;
  readonly hash: Uint8Array;
  readonly chainType: ChainType;
  readonly out: string;
}

function run(job: ArchiveJob): number {
  installNativeBlake2b();
  const db = new Database(job.dbFile, { readonly: true, fileMustExist: true });
  try {
    const zip = snapshotArchive(db, job.hash, CHAIN_PARAMS[job.chainType]);
    const tmp = `${job.out}.tmp`;
    writeFileSync(tmp, zip, { mode: 0o644 });
    renameSync(tmp, job.out);
    return zip.length;
  } finally {
    db.close();
  }
}

if (parentPort !== null) {
  try {
    parentPort.postMessage({ ok: true, size: run(workerData as ArchiveJob) });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}
