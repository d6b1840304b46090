// The local test miner's loop, in the node's main thread: template → coinbase → finalize → solve
// (in the miner actor, slice by slice) → submit → repeat, as Epic's test miner
// (servers/src/mining/test_miner.rs) but for whatever algorithm the schedule asks. A new head
// abandons the attempt at the next slice; after `attemptSecs` on one template it is rebuilt
// (to pick up new transactions), reusing the coinbase while height and fees are unchanged. A
// target beyond a CPU's reach is not searched: the loop waits for another node's block.
import { randomBytes } from 'node:crypto';
import { equalBytes, toHex } from '../../core/bytes.js';
import { buildBlockBody } from '../../core/chain/block_build.js';
import { cuckooEdgeBits } from '../../core/chain/mining_algo.js';
import { CHAIN_PARAMS, type ChainParams, type ChainType } from '../../core/chain_type.js';
import { targetFor } from '../../core/pow/target.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { headerHash, prePow } from '../../core/ser/header.js';
import type {
  BlockTemplate,
  FinalizedBlockTemplate,
  MiningAlgorithm,
} from '../../core/serde/mining.js';
import type { Block, BlockHeader } from '../../core/types/block.js';
import type { Proof } from '../../core/types/pow.js';
import type { MineAlgo, SolveReply, SolveRequest } from './messages.js';
import { type CoinbasePort, type TemplatePort, type WalletBuild, WorkBuilder } from './work.js';

/** How often a miner held back by a sync looks again. */
const SYNC_WAIT_MS = 500;

/** The chain actor as the loop uses it (node/miner.ts wires the real one). */
export interface ChainPort extends TemplatePort {
  submitBlock(block: Uint8Array): Promise<{ readonly hash: Uint8Array; readonly status: string }>;
  /** The hash of the head as last published, null before the first `head` event. */
  headHash(): Uint8Array | null;
  /** Whether the node is syncing (Epic's miner mines only in no_sync); absent: never. */
  syncing?(): boolean;
}

/** The miner actor. */
export interface MinerPort extends CoinbasePort {
  solve(req: SolveRequest): Promise<SolveReply>;
}

export type MinerEvent =
  | {
      readonly kind: 'mined';
      readonly height: bigint;
      readonly algorithm: MineAlgo;
      readonly hash: string;
      readonly txs: number;
      readonly status: string;
      readonly ms: number;
    }
  | {
      readonly kind: 'rejected';
      readonly height: bigint;
      readonly algorithm: MineAlgo;
      readonly code: string;
      readonly message: string;
    }
  | { readonly kind: 'retry'; readonly code: string; readonly message: string }
  | {
      readonly kind: 'out_of_reach';
      readonly height: bigint;
      readonly algorithm: MineAlgo;
      readonly target: bigint;
    }
  | { readonly kind: 'stopped'; readonly code: string | null; readonly message: string | null };

export interface LoopOptions {
  readonly chainType: ChainType;
  /** `test_miner_wallet_url`; null: burn coinbases built by the miner actor. */
  readonly walletUrl: string | null;
  /** `attempt_time_per_block`: seconds on one template before rebuilding it. */
  readonly attemptSecs: number;
  /** Length of one search slice: the longest a new head waits to be noticed. */
  readonly sliceMs: number;
  readonly onEvent: (event: MinerEvent) => void;
  /** Build a coinbase through the wallet (tests may substitute it). */
  readonly wallet?: WalletBuild;
}

/** Errors that end the miner (the node keeps running); every other error is retried. */
const FATAL = new Set(['RandomXUnavailable', 'UnsupportedGraph']);
/** The actors are going away: stop without a fuss. */
const SHUTDOWN = new Set(['ShuttingDown', 'ActorStopped', 'ActorFailed']);
/** Epic waits 5 s before asking an unreachable wallet again. */
const WALLET_RETRY_MS = 5_000;
const RETRY_MS = 1_000;
/**
 * Hash-algorithm targets above this take the miner hours (ProgPoW light ≈ 8 nonces/s, RandomX
 * ≈ 3/s per core here): the loop says so once per height and idles until the head moves.
 */
export const OUT_OF_REACH = 10_000n;
const V2 = 2;

const codeOf = (e: unknown): string => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'Internal';
};
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What a miner does after a failed step: stop quietly, stop saying why, or try again. */
export function minerFailure(e: unknown): {
  readonly action: 'shutdown' | 'fatal' | 'retry';
  readonly code: string;
  readonly message: string;
} {
  const code = codeOf(e);
  const action = SHUTDOWN.has(code) ? 'shutdown' : FATAL.has(code) ? 'fatal' : 'retry';
  return { action, code, message: messageOf(e) };
}

/** Which solver a template's algorithm needs: "cuckoo" is mined as Cuckatoo (see decisions). */
export function mineAlgoOf(algorithm: MiningAlgorithm): MineAlgo {
  return algorithm === 'cuckoo' ? 'cuckatoo' : algorithm;
}

/** The template's difficulty entry a proof of this solver is checked against. */
export function targetOf(algo: MineAlgo, t: BlockTemplate, params: ChainParams): bigint {
  const probe: Proof =
    algo === 'cuckatoo'
      ? { kind: 'Cuckoo', edgeBits: cuckooEdgeBits('cuckatoo', params) ?? 0, nonces: [] }
      : algo === 'randomx'
        ? { kind: 'RandomX', hash: new Uint8Array(32) }
        : { kind: 'ProgPow', mix: new Uint8Array(32) };
  return targetFor(probe, t.blockDifficulty);
}

export class MinerLoop {
  private readonly params: ChainParams;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly work: WorkBuilder;
  private running: Promise<void> | null = null;
  private warnedAt: bigint | null = null;

  constructor(
    private readonly chain: ChainPort,
    private readonly miner: MinerPort,
    private readonly opts: LoopOptions,
  ) {
    this.params = CHAIN_PARAMS[opts.chainType];
    this.work = new WorkBuilder(chain, miner, opts);
  }

  start(): Promise<void> {
    this.running ??= this.run();
    return this.running;
  }

  /** Stops after the slice in flight; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.chain.syncing?.() === true) {
        // A block mined on a head we are still catching up from would be wasted work.
        await this.sleep(SYNC_WAIT_MS);
        continue;
      }
      try {
        await this.attempt();
      } catch (e) {
        const { action, code, message } = minerFailure(e);
        if (action === 'shutdown') break;
        if (action === 'fatal') {
          this.stopped = true;
          this.opts.onEvent({ kind: 'stopped', code, message });
          return;
        }
        this.opts.onEvent({ kind: 'retry', code, message });
        await this.sleep(code === 'WalletComm' ? WALLET_RETRY_MS : RETRY_MS);
      }
    }
    this.opts.onEvent({ kind: 'stopped', code: null, message: null });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** One template: build, search until solved, stale or timed out, submit a solution. */
  private async attempt(): Promise<void> {
    const started = performance.now();
    const work = await this.work.build();
    // The head moved between the chain's two steps: this header is not the template's.
    if (work === null) return;
    const { template, finalized } = work;
    const algo = mineAlgoOf(template.algorithm);
    const target = targetOf(algo, template, this.params);
    if (algo !== 'cuckatoo' && target > OUT_OF_REACH) {
      if (this.warnedAt !== template.height) {
        this.warnedAt = template.height;
        this.opts.onEvent({
          kind: 'out_of_reach',
          height: template.height,
          algorithm: algo,
          target,
        });
      }
      // Hashing for hours would only burn a core: wait for a block from elsewhere instead.
      await this.idleUntilNewHead(template.header.prevHash);
      return;
    }
    const header = await this.search(finalized.header, algo, target);
    if (header === null) return;
    await this.submit(finalized, header, algo, { started, txs: template.transactions.length });
  }

  /** Polls the published head once a slice until it is no longer `prevHash`, or stop. */
  private async idleUntilNewHead(prevHash: Uint8Array): Promise<void> {
    while (!this.stopped) {
      await this.sleep(this.opts.sliceMs);
      const head = this.chain.headHash();
      if (head !== null && !equalBytes(head, prevHash)) return;
    }
  }

  /** Slices until a solution, a new head, the attempt time or stop; the solved header or null. */
  private async search(
    header: BlockHeader,
    algo: MineAlgo,
    target: bigint,
  ): Promise<BlockHeader | null> {
    const until = performance.now() + this.opts.attemptSecs * 1000;
    const base = { algo, prePow: prePow(header, this.params), height: header.height, target };
    let nonce = randomBytes(8).readBigUInt64BE(0);
    while (!this.stopped && performance.now() < until) {
      const head = this.chain.headHash();
      if (head !== null && !equalBytes(head, header.prevHash)) return null;
      const reply = await this.miner.solve({
        ...base,
        seed: header.pow.seed,
        startNonce: nonce,
        budgetMs: this.opts.sliceMs,
      });
      const s = reply.solution;
      if (s !== null) return { ...header, pow: { ...header.pow, nonce: s.nonce, proof: s.proof } };
      nonce = reply.nextNonce;
    }
    return null;
  }

  private async submit(
    f: FinalizedBlockTemplate,
    header: BlockHeader,
    algorithm: MineAlgo,
    info: { readonly started: number; readonly txs: number },
  ): Promise<void> {
    const reward = { output: f.coinbaseOutput, kernel: f.coinbaseKernel };
    const block: Block = { header, body: buildBlockBody(f.transactions, [reward]).body };
    const height = header.height;
    try {
      const reply = await this.chain.submitBlock(encode(writeBlock, block, V2, this.params));
      this.work.spent();
      this.opts.onEvent({
        kind: 'mined',
        height,
        algorithm,
        hash: toHex(headerHash(header, this.params)),
        txs: info.txs,
        status: reply.status,
        ms: Math.round(performance.now() - info.started),
      });
    } catch (e) {
      if (SHUTDOWN.has(codeOf(e))) throw e;
      this.opts.onEvent({
        kind: 'rejected',
        height,
        algorithm,
        code: codeOf(e),
        message: messageOf(e),
      });
    }
  }
}
