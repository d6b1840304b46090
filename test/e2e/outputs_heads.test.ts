// get_outputs while blocks are processed, on real nodes: A holds its own three blocks, then takes
// B's longer chain (a reorg) and B's blocks after it, one by one, while wallets ask about the
// coinbases of both chains without pause. Every reply is the unspent set of one head A had:
// never outputs of both forks, never a head half applied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import type { Block } from '../../core/types/block.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { foreignOk, mineBlock, submit } from '../support/miner.js';
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
});
