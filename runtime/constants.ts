// Every number the runtime picks on its own, with the reasoning, in one place.

/**
 * Requests an actor may hold at once (queued + handed to its thread) before `ask` answers
 * ActorBusyError. 1024 covers a burst of a few hundred RPC calls per actor while bounding the
 * memory held for callers to about 1024 encoded requests; past it the gateway answers 503.
 */
export const DEFAULT_MAILBOX = 1024;

/**
 * Requests handed to an actor's thread at once. 1 keeps an actor strictly one message at a time
 * (its state needs no locking). A handler that never awaits can take more: it still runs one
 * message at a time, and the next one is already waiting in the thread, saving a thread hop.
 */
export const DEFAULT_CONCURRENCY = 1;

/**
 * Default deadline of an `ask`. Long enough for any ordinary chain query under load, short
 * enough that a wedged actor surfaces as errors instead of hung HTTP requests. Long operations
 * (chain validation, compaction) pass their own deadline.
 */
export const DEFAULT_DEADLINE_MS = 30_000;

/**
 * Restarts allowed per window before an actor is marked failed. A thread that dies five times
 * in a minute is broken (bad database, bad config), not unlucky; restarting it forever would
 * only hide that and burn CPU on module loading.
 */
export const DEFAULT_RESTART_MAX = 5;
export const DEFAULT_RESTART_WINDOW_MS = 60_000;

/** How long `shutdown` lets accepted requests finish before failing them with ShuttingDown. */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 10_000;

/** How long each actor's `close()` may take (SQLite checkpoints) before its thread is ended. */
export const DEFAULT_CLOSE_DEADLINE_MS = 5_000;

/**
 * Largest number of items in one worker-pool job (lodestar uses 128 BLS sets). One job costs
 * about 50–100 µs of fixed overhead (two thread hops, copying the items into one buffer);
 * a kernel signature takes ~60 µs and a range proof ~1 ms to verify, so 64 signatures are
 * ~4 ms of work and the overhead stays around 2 %. A full Epic block (weight 40,000: at most
 * ~13,300 kernels or ~1,900 outputs) then splits into 30–200 jobs, enough to keep every core
 * busy. Callers with much costlier items (range proofs) may pass a smaller value per batch.
 */
export const MAX_ITEMS_PER_JOB = 64;

/**
 * Jobs that may wait for a pool worker (beyond one running per worker) before `runBatch`
 * answers PoolBusyError. 1024 jobs × 64 items is about five full blocks of signatures queued,
 * a few seconds of work on a small machine: more than that and the producer must slow down.
 */
export const DEFAULT_POOL_MAX_QUEUE = 1024;
