// The prune list (Epic's `store/tests/prune_list.rs` sequences), the leaf set with Epic's
// rewind, and a compaction plan worked out by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCompaction } from '../../../core/mmr/compaction.js';
import { MmrError } from '../../../core/mmr/errors.js';
import { LeafSet } from '../../../core/mmr/leaf_set.js';
import { PruneList } from '../../../core/mmr/prune_list.js';

describe('prune list', () => {
  it('position 0 is dropped', () => {
    assert.equal(PruneList.from([0]).size, 0);
  });

  it('is_pruned as siblings merge', () => {
    const pl = new PruneList();
    assert.deepEqual(
      [1, 2, 3].map((p) => pl.isPruned(p)),
      [false, false, false],
    );
    pl.add(2);
    assert.deepEqual(pl.rootPositions(), [2]);
    assert.deepEqual(
      [1, 2, 3, 4].map((p) => pl.isPruned(p)),
      [false, true, false, false],
    );
    pl.add(2);
    pl.add(1);
    assert.deepEqual(pl.rootPositions(), [3]);
    assert.deepEqual(
      [1, 2, 3, 4].map((p) => pl.isPruned(p)),
      [true, true, true, false],
    );
    pl.add(4);
    assert.deepEqual(pl.rootPositions(), [3, 4]);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((p) => pl.isPruned(p)),
      [true, true, true, true, false],
    );
    assert.equal(pl.isCompacted(1), true);
    assert.equal(pl.isCompacted(3), false, 'a root keeps its hash');
  });

  it('leaf shift', () => {
    const pl = new PruneList();
    assert.deepEqual(
      [1, 2, 3, 4].map((p) => pl.leafShift(p)),
      [0, 0, 0, 0],
    );
    pl.add(1);
    assert.deepEqual(pl.rootPositions(), [1]);
    assert.deepEqual(
      [1, 2, 3, 4].map((p) => pl.leafShift(p)),
      [0, 0, 0, 0],
    );
    pl.add(1);
    pl.add(2);
    assert.equal(pl.size, 1);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((p) => pl.leafShift(p)),
      [0, 0, 2, 2, 2],
    );
    pl.add(4);
    assert.deepEqual(pl.rootPositions(), [3, 4]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((p) => pl.leafShift(p)),
      [0, 0, 2, 2, 2, 2, 2, 2],
    );
    pl.add(4);
    pl.add(5);
    assert.deepEqual(pl.rootPositions(), [7]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => pl.leafShift(p)),
      [0, 0, 0, 0, 0, 0, 4, 4, 4],
    );
    const other = new PruneList();
    for (const p of [5, 11, 12, 4]) other.add(p);
    assert.deepEqual(other.rootPositions(), [6, 13]);
    assert.deepEqual(
      [2, 4, 8, 9, 13, 14].map((p) => other.leafShift(p)),
      [0, 0, 2, 2, 4, 4],
    );
  });

  it('shift', () => {
    const pl = new PruneList();
    assert.deepEqual(
      [1, 2, 3].map((p) => pl.shift(p)),
      [0, 0, 0],
    );
    pl.add(1);
    assert.deepEqual(
      [1, 2, 3].map((p) => pl.shift(p)),
      [0, 0, 0],
    );
    pl.add(1);
    pl.add(2);
    assert.deepEqual(pl.rootPositions(), [3]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((p) => pl.shift(p)),
      [0, 0, 2, 2, 2, 2],
    );
    pl.add(3); // already a root: nothing changes
    assert.deepEqual(pl.rootPositions(), [3]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((p) => pl.shift(p)),
      [0, 0, 2, 2, 2, 2],
    );
    pl.add(4);
    assert.deepEqual(pl.rootPositions(), [3, 4]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((p) => pl.shift(p)),
      [0, 0, 2, 2, 2, 2],
    );
    pl.add(4);
    pl.add(5);
    assert.deepEqual(pl.rootPositions(), [7]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => pl.shift(p)),
      [0, 0, 0, 0, 0, 0, 6, 6, 6],
    );
    for (let x = 6; x < 1000; x++) pl.add(x);
    assert.equal(pl.shift(1010), 996);
    const other = new PruneList();
    for (const p of [9, 8, 5, 4]) other.add(p);
    assert.deepEqual(other.rootPositions(), [6, 10]);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((p) => other.shift(p)),
      [0, 0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4],
    );
    assert.equal(other.totalShift(), 4);
    assert.equal(other.totalLeafShift(), 4);
  });
});

describe('leaf set', () => {
  it('add, remove, count, order', () => {
    const s = LeafSet.from([9, 1, 40, 2]);
    assert.equal(s.size, 4);
    s.add(9);
    s.remove(3);
    assert.equal(s.size, 4);
    s.remove(40);
    assert.deepEqual([...s.positions()], [1, 2, 9]);
    assert.deepEqual([...s.positions(2)], [2, 9]);
    assert.equal(s.max(), 9);
    assert.equal(new LeafSet().max(), 0);
    assert.equal(s.clone().size, 3);
  });

  it('rewind removes cutoff+1 .. max−1 (Epic’s exclusive range), then restores', () => {
    const s = LeafSet.from([1, 2, 4, 5, 8, 9, 11, 12, 100, 300]);
    s.rewind(5, [2]);
    assert.deepEqual([...s.positions()], [1, 2, 4, 5, 300]);
    // Again: the kept maximum survives again, nothing else beyond the cutoff does.
    s.rewind(2, []);
    assert.deepEqual([...s.positions()], [1, 2, 300]);
    s.rewind(299, [7]);
    assert.deepEqual([...s.positions()], [1, 2, 7, 300]);
    // Whole words of the bitset cleared at once.
    const w = LeafSet.from(Array.from({ length: 200 }, (_, i) => i + 1));
    w.rewind(3, []);
    assert.deepEqual([...w.positions()], [1, 2, 3, 200]);
    assert.equal(w.size, 4);
  });

  it('positions are u32, as in Epic’s roaring bitmap', () => {
    const s = new LeafSet();
    s.add(0xffff_ffff);
    assert.equal(s.max(), 0xffff_ffff);
    assert.throws(
      () => s.add(2 ** 32),
      (e) => e instanceof MmrError && e.kind === 'TooLarge',
    );
  });
});

describe('compaction plan', () => {
  it('spent leaves go, with parents whose children are all gone; subtree roots stay', () => {
    // Four leaves (size 7): 1, 2, 4, 5. Spend 1 and 2.
    const leaves = LeafSet.from([4, 5]);
    const pl = new PruneList();
    let plan = planCompaction(leaves, pl, 7, []);
    assert.deepEqual(plan, { leaves: [1, 2], removed: [1, 2] });
    for (const p of plan.leaves) pl.add(p);
    assert.deepEqual(pl.rootPositions(), [3]);
    // Spend 4: a lone spent leaf is a root of its own and keeps its hash.
    leaves.remove(4);
    plan = planCompaction(leaves, pl, 7, []);
    assert.deepEqual(plan, { leaves: [4], removed: [] });
    for (const p of plan.leaves) pl.add(p);
    assert.deepEqual(pl.rootPositions(), [3, 4]);
    // Spend 5: everything under 7 goes, the old roots 3 and 4 included.
    leaves.remove(5);
    plan = planCompaction(leaves, pl, 7, []);
    assert.deepEqual(plan, { leaves: [5], removed: [3, 4, 5, 6] });
    for (const p of plan.leaves) pl.add(p);
    assert.deepEqual(pl.rootPositions(), [7]);
    assert.equal(pl.shift(7), 6);
    assert.equal(pl.leafShift(7), 4);
  });

  it('leaves past the cutoff or spent after the horizon stay', () => {
    const leaves = LeafSet.from([]);
    const plan = planCompaction(leaves, new PruneList(), 4, [2]);
    assert.deepEqual(plan, { leaves: [1, 4], removed: [] });
  });
});
