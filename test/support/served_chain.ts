// A long automated-testing chain written straight into a node home's SQLite database by the
// chain service the node itself runs, for end-to-end tests of what a node process serves and
// relays. Mining 2,000 blocks over HTTP costs a coinbase range proof and a node-side proof
// check per block (minutes); here the stored blocks carry local_chain's stand-in proofs of work
// and coinbase range proofs (~12 ms a block), which the node never checks again once stored.
// Everything else — kernels, sums, MMRs, roots, difficulty — is the chain code's own. The block
// after the head is mined for real (solved proof, proved coinbase) but not stored, so the node
// process, which checks every proof it receives, accepts it from a peer.
import { encode } from '../../core/ser/codec.js';
import { writeKernel, writeOutput, writeTransaction } from '../../core/ser/transaction.js';
import type { Block } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import { localChain } from './local_chain.js';
import { AUTO, mineWith, type TemplateSource } from './miner.js';

export interface ServedChain {
  /** `blocks[h]` is the block at height h, 1…head; index 0 is unused (genesis is built in). */
  readonly blocks: readonly Block[];
  /** `hashes[h]` is the hash at height h, genesis included. */
  readonly hashes: readonly Uint8Array[];
  /** The block at head + 1 with `nextTxs`, with a real proof of work; not stored. */
  readonly next: Block;
}

export interface ServedChainOptions {
  /** The node home the database goes to (its `chain_data` directory, as the node's db_root). */
  readonly home: string;
  readonly head: number;
  /** Transactions to mine at given heights. */
  readonly txsAt?: ReadonlyMap<number, readonly Transaction[]>;
  readonly nextTxs?: readonly Transaction[];
}

export async function buildServedChain(o: ServedChainOptions): Promise<ServedChain> {
  const chain = localChain({
    dbRoot: o.home,
    standIns: true,
    archiveMode: true,
    compactionRoll: () => false,
  });
  try {
    const blocks: Block[] = [];
    const hashes: Uint8Array[] = [chain.service.getTip().lastBlockPushed];
    for (let h = 1; h <= o.head; h++) {
      const block = await chain.mineBlock(o.txsAt?.get(h) ?? []);
      const reply = await chain.submit(block);
      if (reply.status !== 'next') throw new Error(`block ${h}: ${reply.status}`);
      blocks[h] = block;
      hashes.push(reply.hash);
    }
    const txs = (o.nextTxs ?? []).map((tx) => encode(writeTransaction, tx, 2, AUTO));
    const real: TemplateSource = {
      template: async () => chain.service.blockTemplate(txs),
      finalize: async (cb) =>
        chain.service.finalizeTemplate(
          encode(writeOutput, cb.output, 2, AUTO),
          encode(writeKernel, cb.kernel, 2, AUTO),
          txs,
        ),
    };
    // The template's timestamp (head + 60 s, as every stored block): difficulty stays where the
    // stored chain left it, so a 9-bit graph solves it.
    const next = await mineWith(real, { templateTime: true });
    return { blocks, hashes, next };
  } finally {
    await chain.close(true);
  }
}
