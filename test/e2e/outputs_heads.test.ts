// get_outputs while blocks are processed, on real nodes: A holds its own three blocks, then takes
// B's longer chain (a reorg) and B's blocks after it, one by one, while wallets ask about the
// coinbases of both chains without pause. Every reply is the unspent set of one head A had:
// never outputs of both forks, never a head half applied. The same for get_unspent_outputs,
// which A's read replicas answer, and neither they nor get_header show a block before get_tip
// does.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import type { Block } from '../../core/types/block.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { foreignOk, foreignRpc, mineBlock, submit } from '../support/miner.js';
import { removeHome } from '../support/node_process.js';

const coinbase = (b: Block): string => toHex((b.body.outputs[0] as { commit: Uint8Array }).commit);

describe('get_outputs under concurrent block processing', { timeout: 120_000 }, () => {
  let a: KillableNode;
  let b: KillableNode;
  const shared: Block[] = [];
  const mine: Block[] = [];
  const theirs: Block[] = [];

  before(async () => {
    [a, b] = await Promise.all([startKillable(), startKillable()]);
    for (let h = 1; h <= 2; h++) {
      const block = await mineBlock(a.url);
      for (const n of [a, b])
        assert.deepEqual((await submit(n.url, block)).body.result, { Ok: null });
      shared.push(block);
    }
    for (let i = 0; i < 3; i++) {
      const block = await mineBlock(a.url, { keyIndex: 100 + i });
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
      mine.push(block);
    }
    for (let i = 0; i < 9; i++) {
      const block = await mineBlock(b.url, { keyIndex: 120 + i });
      assert.deepEqual((await submit(b.url, block)).body.result, { Ok: null });
      theirs.push(block);
    }
  });
  after(async () => {
    for (const n of [a, b]) {
      await n?.stop();
      if (n) removeHome(n.home);
    }
  });

  it("every reply is one head's unspent set, across a reorg and the blocks after it", async () => {
    const asked = [...shared, ...mine, ...theirs].map(coinbase);
    // The heads A may go through: its own, then B's from the one that outweighs it on.
    const heads = [
      [...shared, ...mine],
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [...shared, ...theirs.slice(0, n)]),
    ].map((blocks) => new Set(blocks.map(coinbase)));
    const seen = new Set<number>();
    let done = false;
    let replies = 0;
    const wallet = async (): Promise<void> => {
      while (!done) {
        const got = (await foreignOk(a.url, 'get_outputs', [asked, null, null, false, false])) as {
          commit: string;
        }[];
        const commits = new Set(got.map((o) => o.commit));
        const at = heads.findIndex(
          (h) => h.size === commits.size && [...h].every((c) => commits.has(c)),
        );
        assert.ok(at >= 0, `a reply of no head: ${[...commits].join(' ')}`);
        seen.add(at);
        replies++;
      }
    };
    const wallets = Array.from({ length: 6 }, wallet);
    for (const block of theirs) {
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
      await new Promise((r) => setTimeout(r, 50));
    }
    done = true;
    await Promise.all(wallets);
    assert.ok(replies > 50, `${replies} replies`);
    assert.ok(seen.has(0) && seen.has(heads.length - 1), `heads seen: ${[...seen]}`);
  });

  it('replicas answer from the head get_tip shows, never a later one', async () => {
    // One replica per CPU, at most 4 (the default): the listings below go to them.
    const readers = /"event":"chain_readers","threads":(\d+)/.exec(a.stderr())?.[1];
    assert.equal(Number(readers), Math.min(4, availableParallelism()));
    const asked = new Set([...shared, ...mine, ...theirs].map(coinbase));
    // A's heads from here on: B's chain at its current height and each block after it.
    const base = [...shared, ...theirs];
    const tipHeight = async () =>
      ((await foreignOk(a.url, 'get_tip', [])) as { height: number }).height;
    const isMore = (c: string) => more.some((m) => coinbase(m) === c);
    const more: Block[] = [];
    for (let i = 0; i < 8; i++) {
      const block = await mineBlock(b.url, { keyIndex: 140 + i });
      assert.deepEqual((await submit(b.url, block)).body.result, { Ok: null });
      more.push(block);
    }
    let done = false;
    let checked = 0;
    const explorer = async (): Promise<void> => {
      while (!done) {
        const listing = (await foreignOk(a.url, 'get_unspent_outputs', [1, null, 1000, false])) as {
          outputs: { commit: string }[];
        };
        const commits = listing.outputs
          .map((o) => o.commit)
          .filter((c) => asked.has(c) || isMore(c));
        const height = base.length + commits.filter(isMore).length;
        const expected = [...base, ...more.slice(0, height - base.length)].map(coinbase);
        assert.deepEqual(commits.sort(), expected.sort());
        assert.ok((await tipHeight()) >= height, `a listing at ${height} before get_tip shows it`);
        const next = await foreignRpc(a.url, 'get_header', [height + 1, null, null]);
        if (next.body.result?.Ok !== undefined)
          assert.ok((await tipHeight()) >= height + 1, 'a header before get_tip');
        checked++;
      }
    };
    const explorers = Array.from({ length: 4 }, explorer);
    for (const block of more) {
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
      await new Promise((r) => setTimeout(r, 50));
    }
    done = true;
    await Promise.all(explorers);
    assert.ok(checked > 20, `${checked} listings checked`);
  });
});
