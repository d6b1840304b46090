// The verification pool: batches of items cut into jobs of at most maxItemsPerJob, spread over
// Piscina workers, results put back in item order. Bounded: a batch the queue cannot take
// whole is refused at once with PoolBusyError, so producers slow down instead of piling up.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { secondsSince } from '../metrics/thread.js';
import { DEFAULT_POOL_MAX_QUEUE, MAX_ITEMS_PER_JOB } from './constants.js';
import { PoolBusyError, PoolError, WorkerCrashedError } from './errors.js';
import { chunkRanges, type JobReply, type JobRequest, type JobResult, packItems } from './job.js';
import type { PoolWorkerData } from './pool_worker.js';
import { jobSeconds, trackPool } from './workpool_metrics.js';

const POOL_WORKER = new URL('./pool_worker.js', import.meta.url);
const DEFAULT_KINDS = new URL('./pool_kinds.js', import.meta.url);

export interface WorkPoolOptions {
  /** Modules exporting `kinds` (a KindTable), loaded by every worker. Default: pool_kinds.js. */
  readonly kindModules?: readonly (URL | string)[];
  /** Worker threads; default one per CPU. */
  readonly threads?: number;
  /** Jobs that may wait beyond one running per worker; default DEFAULT_POOL_MAX_QUEUE. */
  readonly maxQueue?: number;
  /** Default chunk size; see MAX_ITEMS_PER_JOB. */
  readonly maxItemsPerJob?: number;
  /** A nice value for the workers' threads (thread_priority.ts); absent: as this thread's. */
  readonly nice?: number;
}

export interface BatchOptions {
  /** Chunk size for this batch, for kinds much costlier per item than the default assumes. */
  readonly maxItemsPerJob?: number;
}

function positiveInt(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer ≥ ${min}`);
  return v;
}

export class WorkPool {
  readonly threads: number;
  readonly maxQueue: number;
  readonly maxItemsPerJob: number;
  readonly #piscina: Piscina<JobRequest, JobReply>;
  #outstanding = 0;
  #closed = false;
  readonly #untrack: () => void;

  constructor(opts: WorkPoolOptions = {}) {
    this.threads = positiveInt('threads', opts.threads ?? availableParallelism(), 1);
    this.maxQueue = positiveInt('maxQueue', opts.maxQueue ?? DEFAULT_POOL_MAX_QUEUE, 0);
    this.maxItemsPerJob = positiveInt(
      'maxItemsPerJob',
      opts.maxItemsPerJob ?? MAX_ITEMS_PER_JOB,
      1,
    );
    const workerData: PoolWorkerData = {
      kindModules: (opts.kindModules ?? [DEFAULT_KINDS]).map((u) =>
        typeof u === 'string' ? u : u.href,
      ),
      ...(opts.nice !== undefined ? { nice: opts.nice } : {}),
    };
    this.#piscina = new Piscina<JobRequest, JobReply>({
      filename: POOL_WORKER.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      concurrentTasksPerWorker: 1,
      // Only a backstop: our own check below refuses first. The slack covers a worker being
      // replaced after a crash, when fewer jobs run and more wait.
      maxQueue: this.maxQueue + this.threads,
      workerData,
    });
    // Piscina reports a worker error that hit no task as an 'error' event, which would
    // otherwise crash the process; the worker is replaced either way.
    this.#piscina.on('error', () => {});
    this.#untrack = trackPool({
      queued: () => this.#piscina.queueSize,
      outstanding: () => this.#outstanding,
    });
  }

  /** Most jobs the pool holds at once: one running per worker plus maxQueue waiting. */
  get capacity(): number {
    return this.threads + this.maxQueue;
  }

  /** Jobs submitted and not yet finished. */
  get outstandingJobs(): number {
    return this.#outstanding;
  }

  /**
   * Runs `kind` over `items` and resolves with one result per item, in order. Rejects at once
   * with PoolBusyError when the jobs would not fit, with WorkerCrashedError when a worker died
   * running one of them, with PoolError for job-level faults (e.g. 'UnknownKind'), and throws
   * RangeError for a batch that could not fit even into an idle pool.
   */
  runBatch(
    kind: string,
    items: readonly Uint8Array[],
    opts: BatchOptions = {},
  ): Promise<JobResult[]> {
    if (this.#closed) return Promise.reject(new PoolError('PoolClosed', 'worker pool is closed'));
    const max = positiveInt('maxItemsPerJob', opts.maxItemsPerJob ?? this.maxItemsPerJob, 1);
    const ranges = chunkRanges(items.length, max);
    if (ranges.length === 0) return Promise.resolve([]);
    if (ranges.length > this.capacity)
      return Promise.reject(
        new RangeError(`a batch of ${ranges.length} jobs can never fit a pool of ${this.capacity}`),
      );
    if (this.#outstanding + ranges.length > this.capacity)
      return Promise.reject(
        new PoolBusyError(
          `${ranges.length} more jobs would exceed its ${this.capacity} (${this.#outstanding} held)`,
        ),
      );
    const jobs = ranges.map(([start, end]) => this.#runJob(kind, items, start, end));
    return Promise.all(jobs).then((parts) => parts.flat());
  }

  /** Ends every worker; jobs still running fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#untrack();
    await this.#piscina.destroy();
  }

  async #runJob(
    kind: string,
    items: readonly Uint8Array[],
    start: number,
    end: number,
  ): Promise<JobResult[]> {
    this.#outstanding++;
    const started = performance.now();
    let reply: JobReply;
    try {
      const { request, transfer } = packItems(kind, items, start, end);
      reply = await this.#piscina.run(request, { transferList: transfer });
    } catch (e) {
      throw fromPiscina(e);
    } finally {
      this.#outstanding--;
      jobSeconds.observe({ kind }, secondsSince(started));
    }
    if (!reply.ok) throw new PoolError(reply.error.code, reply.error.message);
    if (reply.results.length !== end - start)
      throw new PoolError(
        'BadResults',
        `job ${kind} gave ${reply.results.length} results for ${end - start} items`,
      );
    return reply.results;
  }
}

/** Piscina fails a task only for infrastructure reasons: a full queue, or its worker died. */
function fromPiscina(e: unknown): Error {
  const message = e instanceof Error ? e.message : String(e);
  if (message === 'Task queue is at limit') return new PoolBusyError('its task queue is at limit');
  return new WorkerCrashedError(message);
}
