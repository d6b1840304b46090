// The local test miner as a pool's miner (`[server] test_miner_stratum`): it connects to this
// node's own stratum server, logs in, takes each job (pushed, or asked for once at the start),
// searches it slice by slice in the miner actor and submits what reaches the block's difficulty.
// A new job abandons the search at the next slice; a target beyond a CPU's reach is not searched.
// So `npm start` runs the whole pool path: jobs, proofs checked in the worker pool, blocks found.
import { connect, type Socket } from 'node:net';
import { fromHex } from '../../core/bytes.js';
import { parseJson } from '../../core/json/parse.js';
import { isJsonArray, isJsonInteger, isJsonObject, type JsonValue } from '../../core/json/value.js';
import { LineSplitter } from '../../core/stratum/lines.js';
import { powText } from '../../core/stratum/params.js';
import { type MinerEvent, minerFailure, OUT_OF_REACH } from './loop.js';
import type { MineAlgo, SolveReply, SolveRequest } from './messages.js';

/** Replies and jobs are short; a longer line is not the node's. */
const MAX_LINE = 64 * 1024;
const NONCE_BYTES = 8;
const RETRY_MS = 1_000;

export interface StratumJobWork {
  readonly height: bigint;
  readonly jobId: bigint;
  readonly algo: MineAlgo;
  readonly target: bigint;
  /** The job's pre-pow with room for the nonce, as the solver takes it. */
  readonly prePow: Uint8Array;
  readonly seed: Uint8Array;
}

const ALGOS: Readonly<Record<string, MineAlgo>> = {
  cuckoo: 'cuckatoo',
  randomx: 'randomx',
  progpow: 'progpow',
};

const big = (v: JsonValue | undefined): bigint | null => (isJsonInteger(v) ? BigInt(v) : null);

/** The seed of the epoch `height` falls in (Epic's `[start, end, seed]` triples). */
function seedOf(epochs: JsonValue | undefined, height: bigint): Uint8Array | null {
  if (!isJsonArray(epochs)) return null;
  for (const e of epochs) {
    if (!isJsonArray(e) || e.length !== 3 || !isJsonArray(e[2])) continue;
    const [start, end] = [big(e[0]), big(e[1])];
    if (start === null || end === null || height < start || height >= end) continue;
    return Uint8Array.from(e[2].map((b) => Number(b)));
  }
  return null;
}

/** A job's params as the miner needs them; null when they are not a job. */
export function jobWork(params: JsonValue | undefined): StratumJobWork | null {
  if (!isJsonObject(params)) return null;
  const algo = typeof params.algorithm === 'string' ? ALGOS[params.algorithm] : undefined;
  const height = big(params.height);
  const jobId = big(params.job_id);
  const pre = typeof params.pre_pow === 'string' ? fromHex(params.pre_pow) : null;
  const listed = isJsonArray(params.block_difficulty) ? params.block_difficulty : [];
  const entry = listed.find((d) => isJsonArray(d) && d[0] === params.algorithm);
  const target = isJsonArray(entry) ? big(entry[1]) : null;
  if (algo === undefined || height === null || jobId === null || pre === null || target === null)
    return null;
  const prePow = new Uint8Array(pre.length + NONCE_BYTES);
  prePow.set(pre);
  const seed = seedOf(params.epochs, height) ?? new Uint8Array(32);
  return { height, jobId, algo, target, prePow, seed };
}

export interface StratumMinerOptions {
  readonly host: string;
  readonly port: number;
  readonly sliceMs: number;
  readonly solve: (req: SolveRequest) => Promise<SolveReply>;
  readonly onEvent: (e: MinerEvent) => void;
  /** Transactions in an accepted block, for the report (0 when unknown). */
  readonly txsOf?: (hash: string) => Promise<number>;
}

export class StratumMiner {
  readonly #opts: StratumMinerOptions;
  readonly #socket: Socket;
  readonly #lines = new LineSplitter(MAX_LINE);
  readonly #replies = new Map<number, (result: JsonValue | undefined) => void>();
  #nextId = 1;
  #job: StratumJobWork | null = null;
  #jobArrived: (() => void) | null = null;
  #stopped = false;
  #done: Promise<void> = Promise.resolve();

  private constructor(opts: StratumMinerOptions, socket: Socket) {
    this.#opts = opts;
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      for (const line of this.#lines.push(chunk)) if (typeof line === 'string') this.#onLine(line);
    });
    socket.on('close', () => this.#stop());
    socket.on('error', () => this.#stop());
  }

  /** Connects, logs in and starts mining; rejects when the server cannot be reached. */
  static start(opts: StratumMinerOptions): Promise<StratumMiner> {
    return new Promise((resolve, reject) => {
      const socket = connect(opts.port, opts.host, () => {
        socket.off('error', reject);
        const miner = new StratumMiner(opts, socket);
        // Never an unhandled rejection: a miner that fails says so and stops.
        miner.#done = miner.#run().catch((e: unknown) => {
          const { code, message } = minerFailure(e);
          opts.onEvent({ kind: 'stopped', code, message });
          miner.#stop();
          socket.destroy();
        });
        resolve(miner);
      });
      socket.once('error', reject);
    });
  }

  /** Ends the search after the slice in flight, and the connection. */
  async stop(): Promise<void> {
    this.#stop();
    this.#socket.destroy();
    await this.#done;
  }

  #stop(): void {
    this.#stopped = true;
    this.#jobArrived?.();
    for (const answer of this.#replies.values()) answer(undefined);
    this.#replies.clear();
  }

  #onLine(line: string): void {
    let msg: JsonValue;
    try {
      msg = parseJson(line);
    } catch {
      return;
    }
    if (!isJsonObject(msg)) return;
    if (msg.method === 'job') {
      this.#setJob(jobWork(msg.params));
      return;
    }
    const id = typeof msg.id === 'number' ? msg.id : null;
    const answer = id === null ? undefined : this.#replies.get(id);
    if (id === null || answer === undefined) return;
    this.#replies.delete(id);
    answer(msg.error === null ? msg.result : undefined);
  }

  #setJob(job: StratumJobWork | null): void {
    if (job === null) return;
    this.#job = job;
    this.#jobArrived?.();
  }

  /** Sends a request; its result, or undefined on an error reply or a closed connection. */
  #ask(method: string, params: string): Promise<JsonValue | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    const id = this.#nextId++;
    this.#socket.write(`{"id":${id},"jsonrpc":"2.0","method":"${method}","params":${params}}\n`);
    return new Promise((resolve) => this.#replies.set(id, resolve));
  }

  async #run(): Promise<void> {
    await this.#ask('login', '{"login":"test_miner","pass":"","agent":"mwnode test miner"}');
    this.#setJob(jobWork(await this.#ask('getjobtemplate', '{"algorithm":"cuckoo"}')));
    let nonce = BigInt(Math.floor(Math.random() * 2 ** 48));
    let reported: StratumJobWork | null = null;
    let solved: StratumJobWork | null = null;
    while (!this.#stopped) {
      const job = this.#job;
      const reachable = job !== null && (job.algo === 'cuckatoo' || job.target <= OUT_OF_REACH);
      // A height whose block we found is done, whatever job for it comes next (a rebuild of the
      // same height can be pushed after our block): another solution would fork our own block.
      const done = job !== null && solved !== null && job.height <= solved.height;
      if (job === null || done || !reachable) {
        if (job !== null && !reachable && job !== reported) this.#outOfReach(job);
        reported = job;
        await new Promise<void>((r) => {
          this.#jobArrived = r;
        });
        continue;
      }
      const started = performance.now();
      const reply = await this.#solve(job, nonce);
      if (reply === null) continue;
      const { solution, nextNonce } = reply;
      nonce = nextNonce;
      if (solution === null || job !== this.#job) continue;
      const params = `{"height":${job.height},"job_id":${job.jobId},"nonce":${solution.nonce},"pow":${powText(solution.proof)}}`;
      if (await this.#found(job, await this.#ask('submit', params), performance.now() - started))
        solved = job;
    }
  }

  /** One slice; null after a failure (retried after a pause, or the miner stopped, as loop.ts). */
  async #solve(job: StratumJobWork, startNonce: bigint): Promise<SolveReply | null> {
    const { algo, prePow, height, seed, target } = job;
    const budgetMs = this.#opts.sliceMs;
    try {
      return await this.#opts.solve({ algo, prePow, height, seed, target, startNonce, budgetMs });
    } catch (e) {
      const { action, code, message } = minerFailure(e);
      if (action === 'retry') {
        this.#opts.onEvent({ kind: 'retry', code, message });
        await new Promise((r) => setTimeout(r, RETRY_MS));
        return null;
      }
      if (action === 'fatal') this.#opts.onEvent({ kind: 'stopped', code, message });
      this.#stop();
      this.#socket.destroy();
      return null;
    }
  }

  /** Reports a block found; false when the submission was a share, stale or refused. */
  async #found(job: StratumJobWork, result: JsonValue | undefined, ms: number): Promise<boolean> {
    const hash =
      typeof result === 'string' ? /^blockfound - ([0-9a-f]{64})$/.exec(result)?.[1] : null;
    if (hash === null || hash === undefined) return false;
    const txs = (await this.#opts.txsOf?.(hash).catch(() => 0)) ?? 0;
    const { height, algo } = job;
    const status = 'stratum';
    this.#opts.onEvent({
      kind: 'mined',
      height,
      algorithm: algo,
      hash,
      txs,
      status,
      ms: Math.round(ms),
    });
    return true;
  }

  #outOfReach(job: StratumJobWork): void {
    const { height, algo, target } = job;
    this.#opts.onEvent({ kind: 'out_of_reach', height, algorithm: algo, target });
  }
}
