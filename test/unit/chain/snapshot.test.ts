// A read replica's snapshot (actors/chain/snapshot.ts) answers every chain read exactly as the
// chain actor's own store does, from SQLite alone; it refuses a head that is not the database's;
// and one read transaction keeps seeing one state while another connection writes. The chain
// says when it is busy with a block (the replicas' reads wait then).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ChainRead, ReadResult } from '../../../actors/chain/messages.js';
import { ChainQueries } from '../../../actors/chain/queries.js';
import { ChainSnapshot, MOVED } from '../../../actors/chain/snapshot.js';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import type { Block } from '../../../core/types/block.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { spendCoinbase } from '../../support/spend.js';

const HEIGHT = 12;
/** The block that spends the coinbases of blocks 1 and 2. */
const SPENDING = 10;

describe('chain snapshot (read replicas)', { timeout: 120_000 }, () => {
  let chain: LocalChain;
  let snapshot: ChainSnapshot;
  let queries: ChainQueries;
  let head: Uint8Array;
  const blocks: Block[] = [];
  const busy: boolean[] = [];

  before(async () => {
    chain = localChain({ onBusy: (b) => busy.push(b) });
    for (let h = 1; h <= HEIGHT; h++) {
      const block = await chain.mineBlock(
        h === SPENDING ? [spendCoinbase(1), spendCoinbase(2)] : [],
      );
      assert.equal((await chain.submit(block)).status, 'next');
      blocks.push(block);
    }
    head = chain.service.getTip().lastBlockPushed;
    snapshot = new ChainSnapshot(join(chain.dbRoot, 'chain_data'), CHAIN_PARAMS.automated);
    queries = new ChainQueries(snapshot);
  });
  after(async () => {
    snapshot?.close();
    await chain?.close();
  });

  const replica = (q: ChainRead): ReadResult | typeof MOVED =>
    snapshot.at(head, () => queries.run(q));

  it('answers every read as the chain actor does', async () => {
    const block = (h: number) => blocks[h - 1] as Block;
    const coinbase = (h: number) => block(h).body.outputs[0]?.commit as Uint8Array;
    const spent = coinbase(1);
    const kernel = block(5).body.kernels[0]?.excess as Uint8Array;
    const reads: ChainRead[] = [
      { kind: 'header', by: { height: 7n } },
      { kind: 'header', by: { hash: head } },
      { kind: 'header', by: { commit: coinbase(4) } },
      { kind: 'header', by: { commit: spent } },
      { kind: 'header', by: { height: 13n } },
      { kind: 'block', by: { height: BigInt(SPENDING) } },
      { kind: 'block', by: { height: 3n }, includeProof: false, includeMerkleProof: true },
      { kind: 'blocks', start: 0n, end: 20n },
      { kind: 'kernel', excess: kernel, minHeight: null, maxHeight: null },
      { kind: 'kernel', excess: kernel, minHeight: 5n, maxHeight: 5n },
      { kind: 'kernel', excess: kernel, minHeight: 6n, maxHeight: null },
      { kind: 'kernel', excess: kernel, minHeight: 1n, maxHeight: 99n },
      { kind: 'lastKernels', n: 5n },
      { kind: 'unspentOutputs', start: 1n, end: null, max: 100n, includeProof: true },
      { kind: 'unspentOutputs', start: 2n, end: 9n, max: 3n, includeProof: false },
      { kind: 'pmmrIndices', start: 3n, end: 8n },
      { kind: 'pmmrIndices', start: 3n, end: null },
      { kind: 'roots' },
      { kind: 'lastLeafHashes', mmr: 'output', n: 6n },
      { kind: 'lastLeafHashes', mmr: 'rangeproof', n: 6n },
      { kind: 'lastLeafHashes', mmr: 'kernel', n: 6n },
      { kind: 'currentMerkleProof', commit: coinbase(6) },
      { kind: 'currentMerkleProof', commit: spent },
      {
        kind: 'outputs',
        commits: [coinbase(3), spent, coinbase(11)],
        heights: { start: 9n, end: 10n },
        includeProof: true,
        includeMerkleProof: true,
      },
    ];
    for (const q of reads)
      assert.deepEqual(replica(q), await chain.service.read(q), `${q.kind} ${toHex(head)}`);
    // Not only equal, but what the chain holds: every block's outputs (coinbases, foundation
    // outputs, the spends' outputs) less the two coinbases spent; a spent output has no header.
    const listing = replica({
      kind: 'unspentOutputs',
      start: 1n,
      end: null,
      max: 100n,
      includeProof: false,
    });
    assert.ok(listing !== MOVED && 'ok' in listing);
    const outputs = (listing.ok as { outputs: { commit: string }[] }).outputs;
    const created = blocks.reduce((n, b) => n + b.body.outputs.length, 0);
    assert.equal(outputs.length, created - 2);
    assert.ok(!outputs.some((o) => o.commit === toHex(spent)));
    assert.deepEqual(replica({ kind: 'header', by: { commit: spent } }), { err: 'NotFound' });
  });

  it('the chain says when it starts and ends processing each block (replicas hold reads)', () => {
    assert.deepEqual(
      busy,
      blocks.flatMap(() => [true, false]),
    );
  });

  it('refuses a head that is not the database head', () => {
    const parent = chain.service.getTip().prevBlockToLast;
    assert.equal(
      snapshot.at(parent, () => queries.run({ kind: 'roots' })),
      MOVED,
    );
  });

  it('one read transaction sees one state while another connection writes', async () => {
    const listing: ChainRead = {
      kind: 'unspentOutputs',
      start: 1n,
      end: null,
      max: 100n,
      includeProof: false,
    };
    const before = replica(listing);
    const writer = new Database(join(chain.dbRoot, 'chain_data', 'chain.sqlite'));
    try {
      const during = snapshot.at(head, () => {
        const roots = queries.run({ kind: 'roots' }); // the transaction's snapshot starts here
        writer.exec('DELETE FROM mmr_output_leaf; DELETE FROM mmr_rangeproof_leaf');
        return { roots, listing: queries.run(listing) };
      });
      assert.ok(during !== MOVED);
      assert.deepEqual(during.listing, before);
      // The next read transaction sees the write: no unspent output left.
      const afterWrite = replica(listing);
      assert.ok(afterWrite !== MOVED && 'ok' in afterWrite);
      assert.deepEqual((afterWrite.ok as { outputs: unknown[] }).outputs, []);
    } finally {
      writer.close();
    }
  });
});
