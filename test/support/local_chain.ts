// A chain service in this thread over a temporary SQLite database, verifying in a real worker
// pool: for tests of the chain's own behaviour (compaction, state) that need many blocks
// quickly, without a node process and HTTP in between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubmitReply } from '../../actors/chain/messages.js';
import { ChainService, type ChainServiceOptions } from '../../actors/chain/service.js';
import { poolVerifier } from '../../actors/chain/verifier.js';
import { writeBlock } from '../../core/ser/block.js';
import { encode } from '../../core/ser/codec.js';
import { writeKernel, writeOutput, writeTransaction } from '../../core/ser/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import { WorkPool } from '../../runtime/index.js';
import { AUTO, mineWith, type TemplateSource } from './miner.js';
import { standInVerifier } from './stand_ins.js';

export interface LocalChain {
  readonly dbRoot: string;
  readonly service: ChainService;
  /** Mines the next block with `txs` (coinbase m/2/0/height) and submits it. */
  mineNext(txs?: readonly Transaction[]): Promise<SubmitReply>;
  /** Mines the next block on this chain's head without submitting it. */
  mineBlock(txs?: readonly Transaction[]): Promise<Block>;
  submit(block: Block): Promise<SubmitReply>;
  /** Closes the service and the pool; the database is deleted unless `keep`. */
  close(keep?: boolean): Promise<void>;
}

export interface LocalChainOptions extends ChainServiceOptions {
  readonly archiveMode?: boolean;
  /**
   * Fast long chains (stand_ins.ts): blocks 60 s apart (difficulty stays at the floor, no
   * timestamp runs into the future), stand-in proofs of work and coinbase range proofs that
   * this chain's verifier accepts unchecked; everything else is validated as usual.
   */
  readonly standIns?: boolean;
  /** A directory a closed (kept) local chain used: its database is opened again. */
  readonly dbRoot?: string;
  /** Real proofs, but blocks 60 s apart so difficulty stays at the floor (miner.ts). */
  readonly templateTime?: boolean;
}

/** A chain on automated testing; `opts` also reach the service (foundation, compaction, log). */
export function localChain(opts: LocalChainOptions = {}): LocalChain {
  const { archiveMode, standIns, dbRoot: reused, templateTime, ...serviceOptions } = opts;
  const fast = standIns === true;
  const mineOpts = { templateTime: fast || templateTime === true, standIns: fast };
  const dbRoot = reused ?? mkdtempSync(join(tmpdir(), 'mwnode-chain-'));
  const pool = new WorkPool({ threads: 1 });
  const service = new ChainService(
    {
      chainType: 'automated',
      dbRoot: join(dbRoot, 'chain_data'),
      foundationPath: null,
      powPolicy: { cuckatoo: 100 },
      archiveMode: archiveMode ?? false,
    },
    fast ? standInVerifier(poolVerifier(pool, 'automated')) : poolVerifier(pool, 'automated'),
    serviceOptions,
  );
  const sourceWith = (txs: readonly Transaction[]): TemplateSource => {
    const bytes = txs.map((tx) => encode(writeTransaction, tx, 2, AUTO));
    return {
      template: async () => service.blockTemplate(bytes),
      finalize: async (cb) =>
        service.finalizeTemplate(
          encode(writeOutput, cb.output, 2, AUTO),
          encode(writeKernel, cb.kernel, 2, AUTO),
          bytes,
        ),
    };
  };
  const submit = (block: Block) =>
    service.submitBlock(encode(writeBlock, block, 2, AUTO), () => undefined);
  return {
    dbRoot,
    service,
    submit,
    mineNext: async (txs = []) => submit(await mineWith(sourceWith(txs), mineOpts)),
    mineBlock: (txs = []) => mineWith(sourceWith(txs), mineOpts),
    close: async (keep = false) => {
      service.close();
      await pool.close();
      if (!keep) rmSync(dbRoot, { recursive: true, force: true });
    },
  };
}

/**
 * `height` real blocks mined in this process on a fresh archive chain (template timestamps),
 * the chain closed and kept: its directory, for a node to start on, and the blocks.
 */
export async function minedChain(height: number): Promise<{ dbRoot: string; blocks: Block[] }> {
  const local = localChain({ archiveMode: true, templateTime: true });
  const blocks: Block[] = [];
  for (let i = 0; i < height; i++) {
    const block = await local.mineBlock();
    const r = await local.submit(block);
    if (!('hash' in r)) throw new Error(`block ${i + 1} refused: ${JSON.stringify(r)}`);
    blocks.push(block);
  }
  await local.close(true);
  return { dbRoot: local.dbRoot, blocks };
}
