// What the stratum sessions ask of the node: the current job, the sync state, and the verdict on
// a submitted solution, in Epic's order — stale, Cuckoo size, the proof verified (in the worker
// pool) and its difficulty judged against the share minimum and the block's target; a block is
// built from the job's own work and handed to the chain, which decides it.

import { toHex } from '../../core/bytes.js';
import { buildBlockBody } from '../../core/chain/block_build.js';
import type { ChainParams } from '../../core/chain_type.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import type { StratumJob } from '../../core/stratum/job.js';
import type { SubmitParams } from '../../core/stratum/params.js';
import { STRATUM_ERRORS } from '../../core/stratum/rpc.js';
import { edgeBitsAccepted, judgeShare } from '../../core/stratum/shares.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import type { PowVerdict } from '../../jobs/pow.js';
import type { StratumJobs, StratumWork } from './jobs.js';
import type { SessionBackend, SubmitOutcome } from './session.js';

const V2 = 2;

export interface BackendPorts {
  readonly params: ChainParams;
  readonly jobs: StratumJobs;
  /** The proof of `header` verified (no target): its difficulty, or why it fails. */
  readonly verify: (header: BlockHeader) => Promise<PowVerdict>;
  /** Hands a block to the chain; its hash once accepted, throws when refused. */
  readonly submitBlock: (block: Uint8Array) => Promise<{ readonly hash: Uint8Array }>;
  readonly syncing: () => boolean;
}

const rejected = (error: (typeof STRATUM_ERRORS)[keyof typeof STRATUM_ERRORS]): SubmitOutcome => ({
  kind: 'rejected',
  error,
});

export class StratumBackend implements SessionBackend {
  constructor(private readonly ports: BackendPorts) {}

  job(): StratumJob | null {
    return this.ports.jobs.current();
  }

  syncing(): boolean {
    return this.ports.syncing();
  }

  async submit(p: SubmitParams): Promise<SubmitOutcome> {
    const { jobs } = this.ports;
    const work = jobs.work(p.height, p.jobId);
    if (work === undefined) return { kind: 'stale' };
    if (!edgeBitsAccepted(p.pow, this.ports.params)) return rejected(STRATUM_ERRORS.cannotValidate);
    const base = work.work.finalized.header;
    const header: BlockHeader = { ...base, pow: { ...base.pow, nonce: p.nonce, proof: p.pow } };
    const verdict = await this.ports.verify(header).catch(() => null);
    if (verdict === null || !verdict.ok) return rejected(STRATUM_ERRORS.cannotValidate);
    switch (judgeShare(p.pow, verdict.difficulty, work.job)) {
      case 'low':
        return rejected(STRATUM_ERRORS.lowDifficulty);
      case 'share':
        return { kind: 'share' };
      case 'block':
        return this.#block(work, header);
    }
  }

  async #block(work: StratumWork, header: BlockHeader): Promise<SubmitOutcome> {
    const f = work.work.finalized;
    const reward = { output: f.coinbaseOutput, kernel: f.coinbaseKernel };
    const block: Block = { header, body: buildBlockBody(f.transactions, [reward]).body };
    try {
      const reply = await this.ports.submitBlock(encode(writeBlock, block, V2, this.ports.params));
      this.ports.jobs.spent();
      return { kind: 'block', hash: toHex(reply.hash) };
    } catch {
      return rejected(STRATUM_ERRORS.cannotValidate);
    }
  }
}
