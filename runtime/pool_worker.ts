// Entry point of a pool worker (loaded by Piscina): merges the `kinds` tables of the configured
// modules, then runs one job per call. It never throws for a job: failures of a kind become
// per-item results, faults of the job itself a JobReply error.
import { workerData } from 'node:worker_threads';
import { toWireError } from './errors.js';
import {
  type JobKind,
  type JobReply,
  type JobRequest,
  type JobResult,
  unpackItems,
} from './job.js';
import { lowerThreadPriority } from './thread_priority.js';

export interface PoolWorkerData {
  readonly kindModules: readonly string[];
  /** This worker's thread nice value, when the pool gives way to other threads. */
  readonly nice?: number;
}

async function loadKinds(urls: readonly string[]): Promise<Map<string, JobKind>> {
  const table = new Map<string, JobKind>();
  for (const url of urls) {
    const mod = (await import(url)) as { kinds?: Record<string, unknown> };
    if (typeof mod.kinds !== 'object' || mod.kinds === null)
      throw new Error(`${url} has no kinds table`);
    for (const [kind, fn] of Object.entries(mod.kinds)) {
      if (typeof fn !== 'function') throw new Error(`${url}: kind ${kind} is not a function`);
      if (table.has(kind)) throw new Error(`${url}: kind ${kind} is registered twice`);
      table.set(kind, fn as JobKind);
    }
  }
  return table;
}

const data = workerData as PoolWorkerData;
if (data.nice !== undefined) lowerThreadPriority(data.nice);

// Started at load, awaited per job: a module that fails to load fails each job with the reason
// instead of killing the worker over and over.
const kinds = loadKinds(data.kindModules);
kinds.catch(() => {});

export default async function runJob(job: JobRequest): Promise<JobReply> {
  let table: Map<string, JobKind>;
  try {
    table = await kinds;
  } catch (e) {
    return { ok: false, error: { code: 'KindsUnavailable', message: toWireError(e).message } };
  }
  const fn = table.get(job.kind);
  if (fn === undefined)
    return { ok: false, error: { code: 'UnknownKind', message: `no job kind ${job.kind}` } };
  const items = unpackItems(job);
  let results: JobResult[];
  try {
    results = await fn(items);
  } catch (e) {
    const { code } = toWireError(e);
    return { ok: true, results: items.map(() => ({ ok: false, code })) };
  }
  if (!Array.isArray(results) || results.length !== items.length)
    return {
      ok: false,
      error: {
        code: 'BadResults',
        message: `kind ${job.kind} gave a result count unlike its items`,
      },
    };
  return { ok: true, results };
}
