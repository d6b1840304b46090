// One miner's connection, as Epic's stratum server answers it: login, keepalive, status,
// getjobtemplate and submit, each reply echoing the request's id and method; counters per
// connection (Epic's WorkerStats). Where Epic closes the connection without a word (a line
// that is not a request) this answers -32600 with a null id and method and goes on, as issue 21
// asks; and answers go out in the order of their requests, where Epic's may not. What a job is and whether a share holds are the backend's business (jobs, shares).

import type { JsonValue } from '../../core/json/value.js';
import { jobJson, type StratumJob, statusJson } from '../../core/stratum/job.js';
import { type Line, OVERLONG } from '../../core/stratum/lines.js';
import {
  jobParams,
  loginParams,
  type SubmitParams,
  submitParams,
} from '../../core/stratum/params.js';
import {
  parseRequest,
  replyLine,
  STRATUM_ERRORS,
  type StratumError,
  type StratumRequest,
} from '../../core/stratum/rpc.js';

/** How a submitted solution fared: a share, a block (its hash, hex), or one of Epic's errors. */
export type SubmitOutcome =
  | { readonly kind: 'share' }
  | { readonly kind: 'block'; readonly hash: string }
  | { readonly kind: 'stale' }
  | { readonly kind: 'rejected'; readonly error: StratumError };

/** What a session needs from the server around it. */
export interface SessionBackend {
  /** The latest job, or null before the first one is built. */
  job(): StratumJob | null;
  syncing(): boolean;
  submit(params: SubmitParams): Promise<SubmitOutcome>;
}

export interface WorkerStats {
  login: string | null;
  agent: string | null;
  accepted: bigint;
  rejected: bigint;
  stale: bigint;
  blocks: bigint;
}

type Outcome = { readonly result: JsonValue } | { readonly error: StratumError };
type Handler = (s: StratumSession, params: JsonValue | undefined) => Outcome | Promise<Outcome>;

const OK: Outcome = { result: 'ok' };
const invalid: Outcome = { error: STRATUM_ERRORS.invalidRequest };

/** A line that is not a request: no id or method to echo. */
const BAD_LINE = replyLine({ id: null, method: null }, invalid);

const METHODS: Readonly<Record<string, Handler>> = {
  login: (s, params) => {
    const p = loginParams(params);
    if (p === undefined) return invalid;
    s.stats.login = p.login;
    s.stats.agent = p.agent;
    return OK;
  },
  keepalive: () => OK,
  status: (s) => ({
    result: statusJson({ id: s.id, height: s.backend.job()?.height ?? 0n, ...s.stats }),
  }),
  // Epic checks the sync state before the params, and ignores the algorithm asked for.
  getjobtemplate: (s, params) => {
    if (s.backend.syncing()) return { error: STRATUM_ERRORS.syncing };
    if (jobParams(params) === undefined) return invalid;
    const job = s.backend.job();
    return job === null ? { error: STRATUM_ERRORS.syncing } : { result: jobJson(job) };
  },
  submit: async (s, params) => {
    const p = submitParams(params);
    return p === undefined ? invalid : s.counted(await s.backend.submit(p));
  },
};

export class StratumSession {
  readonly id: number;
  readonly backend: SessionBackend;
  readonly stats: WorkerStats = {
    login: null,
    agent: null,
    accepted: 0n,
    rejected: 0n,
    stale: 0n,
    blocks: 0n,
  };
  readonly #write: (line: string) => void;
  /** The last answer's write: the next waits for it. */
  #written: Promise<void> = Promise.resolve();

  /** `write` sends one line (without its newline) to the miner. */
  constructor(id: number, backend: SessionBackend, write: (line: string) => void) {
    this.id = id;
    this.backend = backend;
    this.#write = write;
  }

  /**
   * Answers one line. Answers are worked out side by side but written in the order of their
   * lines (Epic lets a slow submit's answer come after later ones; ours never do).
   */
  onLine(line: Line): Promise<void> {
    const request = line === OVERLONG || typeof line !== 'string' ? null : parseRequest(line);
    const text =
      request === null
        ? Promise.resolve(BAD_LINE)
        : this.#answer(request).then((o) => replyLine(request, o));
    this.#written = this.#written.then(async () => this.#write(await text));
    return this.#written;
  }

  async #answer(r: StratumRequest): Promise<Outcome> {
    const handler = Object.hasOwn(METHODS, r.method) ? METHODS[r.method] : undefined;
    if (handler === undefined) return { error: STRATUM_ERRORS.methodNotFound };
    try {
      return await handler(this, r.params);
    } catch {
      return { error: STRATUM_ERRORS.internal };
    }
  }

  /** Epic's counters: a found block is also an accepted share. */
  counted(o: SubmitOutcome): Outcome {
    switch (o.kind) {
      case 'share':
        this.stats.accepted++;
        return OK;
      case 'block':
        this.stats.accepted++;
        this.stats.blocks++;
        return { result: `blockfound - ${o.hash}` };
      case 'stale':
        this.stats.stale++;
        return { error: STRATUM_ERRORS.tooLate };
      case 'rejected':
        this.stats.rejected++;
        return { error: o.error };
    }
  }
}
