// Epic's stratum job loop: work built on the head (the test miner's WorkBuilder), numbered per
// height, rebuilt when the head moves (job id 0 again) and every min(attempt_time_per_block, 30)
// seconds on the same head (job id + 1, picking up new transactions), each new job handed to
// `onJob` for the miners. One rebuild runs at a time; asks that come meanwhile are folded into
// one more.

import { announcedEpochs } from '../../core/consensus/seed.js';
import { type ShareMinimums, type StratumJob, stratumJob } from '../../core/stratum/job.js';
import { JobVersions } from '../../core/stratum/shares.js';
import type { Work, WorkBuilder } from '../miner/work.js';

export interface StratumWork {
  readonly work: Work;
  readonly job: StratumJob;
}

export interface JobsOptions {
  readonly minimums: ShareMinimums;
  /** The hash of the header-chain block at a height (the next RandomX seed). */
  readonly hashAt: (height: bigint) => Promise<Uint8Array>;
  readonly onJob: (job: StratumJob) => void;
}

/** Epic never waits longer than this before rebuilding the work on one head. */
export const MAX_ATTEMPT_SECS = 30;

export class StratumJobs {
  readonly #builder: WorkBuilder;
  readonly #opts: JobsOptions;
  readonly #versions = new JobVersions<StratumWork>();
  #running: Promise<void> | null = null;
  #again = false;

  constructor(builder: WorkBuilder, opts: JobsOptions) {
    this.#builder = builder;
    this.#opts = opts;
  }

  /** The latest job, or null before the first. */
  current(): StratumJob | null {
    return this.#versions.latest()?.job ?? null;
  }

  /** The work a solution names; undefined when stale. */
  work(height: bigint, jobId: bigint): StratumWork | undefined {
    return this.#versions.get(height, jobId);
  }

  /** A block was accepted: its coinbase is spent. */
  spent(): void {
    this.#builder.spent();
  }

  /** Builds a new version on the head (now, or right after the one being built). */
  rebuild(): Promise<void> {
    if (this.#running !== null) {
      this.#again = true;
      return this.#running;
    }
    const run = async () => {
      try {
        do {
          this.#again = false;
          await this.#buildOne();
        } while (this.#again);
      } finally {
        this.#running = null;
      }
    };
    this.#running = run();
    return this.#running;
  }

  async #buildOne(): Promise<void> {
    // The RandomX seeds are asked for as soon as the template's height is known, beside the
    // coinbase and the finalize step rather than after them.
    const early: { seeds?: Promise<Map<bigint, Uint8Array>> } = {};
    const work = await this.#builder.build((height) => {
      early.seeds = this.#seedsFor(height);
      early.seeds.catch(() => {}); // awaited below, unless the build fails first
    });
    if (work === null) {
      this.#again = true; // the head moved under it: build on the new one
      return;
    }
    const header = work.finalized.header;
    const seedAt = await (early.seeds ?? this.#seedsFor(header.height));
    const source = {
      header,
      algorithm: work.template.algorithm,
      blockDifficulty: work.template.blockDifficulty,
      minimums: this.#opts.minimums,
      hashAt: (h: bigint) => seedAt.get(h) as Uint8Array,
    };
    const params = this.#builder.params;
    const { job } = this.#versions.add(header.height, (jobId) => ({
      work,
      job: stratumJob({ ...source, jobId }, params),
    }));
    this.#opts.onJob(job);
    // Once the job is on its way: the next height's coinbase, made while miners work on this one.
    setImmediate(() => {
      this.#builder.prepareNext(header.height + 1n).catch(() => {
        // Made again when needed, at build time.
      });
    });
  }

  /** The header hashes at the seed heights the job at `height` announces, asked at once. */
  async #seedsFor(height: bigint): Promise<Map<bigint, Uint8Array>> {
    const heights = [...new Set(announcedEpochs(height).map((e) => e.seedHeight))];
    const hashes = await Promise.all(heights.map((h) => this.#opts.hashAt(h)));
    return new Map(heights.map((h, i) => [h, hashes[i] as Uint8Array]));
  }
}
