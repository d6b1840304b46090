// Body checks started ahead of a block's turn: the started verdicts are the ones the pipeline
// gets (the pool is asked once), a block not started is checked when asked, and a refused block
// whose verdicts nobody reads leaves no unhandled rejection behind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AheadVerifier,
  type BlockVerifier,
  type BodyVerdicts,
} from '../../../actors/chain/verifier.js';
import type { Block, BlockHeader } from '../../../core/types/block.js';

function counting(fail = false) {
  const asked: Block[] = [];
  const powBatches: number[] = [];
  const inner: BlockVerifier = {
    pow: async () => ({ ok: true, difficulty: 1n }) as never,
    pows: async (hs) => {
      powBatches.push(hs.length);
      return hs.map((_, i) => ({ ok: true, difficulty: BigInt(i) }) as never);
    },
    body: async (b) => {
      asked.push(b);
      if (fail) throw new Error('pool closed');
      return { rangeProofs: [null], kernels: [null] };
    },
  };
  return { inner, asked, powBatches };
}

const block = () => ({ header: {}, body: {} }) as unknown as Block;

describe('AheadVerifier', () => {
  it('a started block is checked once; the pipeline gets those verdicts', async () => {
    const { inner, asked } = counting();
    const v = new AheadVerifier(inner);
    const [a, b] = [block(), block()];
    v.start(a);
    v.start(a);
    assert.deepEqual(asked, [a]);
    const verdicts: BodyVerdicts = await v.body(a);
    assert.deepEqual(verdicts, { rangeProofs: [null], kernels: [null] });
    assert.deepEqual(asked, [a]);
    await v.body(b);
    assert.deepEqual(asked, [a, b], 'a block not started is checked when asked');
    await v.body(a);
    assert.deepEqual(asked, [a, b, a], 'verdicts are handed out once');
  });

  it('verdicts of a refused block that nobody reads do not reject unhandled', async () => {
    const { inner } = counting(true);
    const v = new AheadVerifier(inner);
    let unhandled = 0;
    const count = () => {
      unhandled++;
    };
    process.on('unhandledRejection', count);
    v.start(block());
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', count);
    assert.equal(unhandled, 0);
  });

  it("a page's proofs started ahead are the verdicts of any part of it the chain asks for", async () => {
    const { inner, powBatches } = counting();
    const v = new AheadVerifier(inner);
    const page = [{}, {}, {}] as unknown as BlockHeader[];
    v.startPows(page);
    const fresh = [page[1], page[2]] as BlockHeader[];
    assert.deepEqual(await v.pows(fresh), [
      { ok: true, difficulty: 1n },
      { ok: true, difficulty: 2n },
    ]);
    assert.deepEqual(powBatches, [3], 'one pool batch, at arrival');
    await v.pows(fresh);
    assert.deepEqual(powBatches, [3, 2], 'handed out once');
  });
});
