// MMR backend suite, part two: behaviour (typed errors, leaf set, rewind, reopening) and
// properties (proofs of every leaf, rewind and compaction invariants).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toHex } from '../../../core/bytes.js';
import { ZERO_HASH } from '../../../core/hash/blake2b.js';
import {
  type MerkleProof,
  verifyMerkleProof,
  writeMerkleProof,
} from '../../../core/mmr/merkle_proof.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import { height, insertionToPmmrIndex, isLeaf, nLeaves, peaks } from '../../../core/mmr/pos.js';

import {
  type BackendFactory,
  elem,
  leaf,
  mmrBuilders,
  mmrKind,
  pair,
  rng,
  sizeAfterLeaves,
} from './suite_support.js';

export function mmrBehaviourSuite(name: string, factory: BackendFactory): void {
  const { build } = mmrBuilders(factory);
  describe(`MMR on ${name}: behaviour`, () => {
    it('typed errors for misuse', () => {
      const mmr = build(1, 5);
      const kind = (f: () => unknown): string | undefined => {
        try {
          f();
        } catch (e) {
          return mmrKind(e);
        }
        return 'no error';
      };
      assert.equal(
        kind(() => mmr.merkleProof(3n)),
        'NotALeaf',
      );
      assert.equal(
        kind(() => mmr.merkleProof(9n)),
        'NoElement',
      );
      assert.equal(
        kind(() => mmr.merkleProof(0n)),
        'NoElement',
      );
      mmr.prune(4n);
      assert.equal(
        kind(() => mmr.merkleProof(4n)),
        'NoElement',
      );
      assert.equal(
        kind(() => mmr.rewind(9n)),
        'BadRewind',
      );
      assert.equal(
        kind(() => mmr.compact(9n)),
        'BadCutoff',
      );
      const kernels = build(1, 5, 'plain');
      assert.equal(
        kind(() => kernels.prune(1n)),
        'NotPrunable',
      );
      assert.equal(
        kind(() => kernels.compact(4n)),
        'NotPrunable',
      );
      assert.equal(mmr.hash(0n), null);
      assert.equal(mmr.hash(9n), null);
      assert.equal(mmr.data(3n), null, 'parents have no data');
    });

    it('a non-prunable MMR keeps every leaf', () => {
      const mmr = build(2, 6, 'plain');
      assert.deepEqual([...mmr.leafPositions()], [1n, 2n, 4n, 5n, 8n, 9n]);
      assert.deepEqual([...mmr.leafIndices(3n)], [3n, 4n, 5n]);
      assert.equal(mmr.unprunedLeafCount(), 6n);
      assert.deepEqual(mmr.data(8n), elem(2, 4));
    });

    it('leaf positions and indices of a prunable MMR follow the leaf set', () => {
      const mmr = build(3, 6);
      mmr.prune(2n);
      mmr.prune(8n);
      assert.deepEqual([...mmr.leafPositions()], [1n, 4n, 5n, 9n]);
      assert.deepEqual([...mmr.leafIndices(1n)], [2n, 3n, 5n]);
      assert.deepEqual([...mmr.leafIndices(0n)], [0n, 2n, 3n, 5n]);
      assert.equal(mmr.unprunedLeafCount(), 4n);
      assert.equal(mmr.data(2n), null);
      assert.deepEqual(mmr.data(9n), elem(3, 5));
    });

    it('an MMR reopened over the same backend carries on where it was', () => {
      const backend = factory({ prunable: true });
      const a = new Mmr(backend);
      for (let i = 0; i < 11; i++) a.push(elem(4, i));
      const b = new Mmr(backend);
      assert.equal(b.size, a.size);
      assert.equal(b.leafCount, 11n);
      b.push(elem(4, 11));
      assert.equal(toHex(b.root()), toHex(build(4, 12).root()));
    });

    it('rewind keeps the leaf set as Epic does: restored leaves back, the highest leaf kept', () => {
      const mmr = build(5, 8); // size 15
      mmr.prune(2n);
      const rootAt4 = build(5, 4).root();
      mmr.prune(4n); // spent after the checkpoint at 4 leaves (size 7)
      mmr.prune(9n);
      mmr.rewind(7n, [4n]);
      assert.equal(mmr.size, 7n);
      assert.equal(toHex(mmr.root()), toHex(rootAt4));
      // Epic clears `cutoff+1 .. max` with an exclusive end: 12, the highest unspent leaf, stays.
      assert.deepEqual([...mmr.leafPositions()], [1n, 4n, 5n, 12n]);
      assert.equal(mmr.unprunedLeafCount(), 4n);
      assert.equal(mmr.hash(12n), null, 'nothing is stored beyond the size');
      // A leaf position rewinds to the MMR ending with that leaf (its parents included).
      mmr.rewind(4n);
      assert.equal(mmr.size, 4n);
      mmr.rewind(2n);
      assert.equal(mmr.size, 3n);
      mmr.rewind(0n);
      assert.equal(mmr.size, 0n);
      assert.equal(toHex(mmr.root()), toHex(ZERO_HASH));
    });

    it('validate finds a parent that does not match its children', () => {
      const backend = factory({ prunable: false });
      const mmr = new Mmr(backend);
      for (let i = 0; i < 4; i++) mmr.push(elem(6, i));
      mmr.validate();
      // A store with a wrong parent cannot be built through the MMR, so fill one by hand.
      const bad = factory({ prunable: false });
      bad.append([new Uint8Array(32).fill(1)], null);
      bad.append([new Uint8Array(32).fill(2), new Uint8Array(32).fill(3)], null);
      assert.throws(
        () => new Mmr(bad).validate(),
        (e) => mmrKind(e) === 'InvalidParent',
      );
    });
  });

  describe(`MMR on ${name}: properties`, () => {
    /**
     * Every leaf's proof verifies; it fails for another element, another root and a shorter path
     * (checked on every `negativeEvery`-th leaf: each check costs a full path of hashing).
     */
    function checkAllProofs(mmr: Mmr, seed: number, n: number, negativeEvery = 1): void {
      const root = mmr.root();
      const otherRoot = root.slice();
      otherRoot[0] = (otherRoot[0] as number) ^ 1;
      for (let i = 0; i < n; i++) {
        const pos = insertionToPmmrIndex(BigInt(i + 1));
        const e = elem(seed, i);
        const proof = mmr.merkleProof(pos);
        assert.ok(verifyMerkleProof(proof, root, e, pos), `leaf ${i} of ${n}`);
        if (i % negativeEvery !== 0) continue;
        assert.ok(!verifyMerkleProof(proof, root, elem(seed, i + n), pos), 'another element');
        assert.ok(!verifyMerkleProof(proof, otherRoot, e, pos), 'another root');
        if (proof.path.length > 0) {
          const truncated: MerkleProof = { mmrSize: proof.mmrSize, path: proof.path.slice(0, -1) };
          assert.ok(!verifyMerkleProof(truncated, root, e, pos), 'truncated path');
        }
      }
    }

    it('proofs of every leaf, random MMRs up to 300 leaves', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (n, seed) => {
          checkAllProofs(build(seed, n), seed, n);
        }),
        { numRuns: 15 },
      );
    });

    it('proofs of every leaf, 10,000 leaves', () => {
      checkAllProofs(build(7, 10_000), 7, 10_000);
    });

    it('the root commits to the peaks; the hashes are those of Epic’s definition', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 200 }), fc.nat(), (n, seed) => {
          const mmr = build(seed, n);
          const size = mmr.size;
          // Recompute every node from the definition and bag the peaks by hand.
          const nodes: Uint8Array[] = [];
          let leafNo = 0;
          for (let pos = 1n; pos <= size; pos++) {
            if (isLeaf(pos)) nodes.push(leaf(Number(pos) - 1, elem(seed, leafNo++)));
            else {
              // Right child just before, left child 2^height before.
              const at = Number(pos);
              const right = nodes[at - 2] as Uint8Array;
              const left = nodes[at - 1 - 2 ** height(pos)] as Uint8Array;
              nodes.push(pair(at - 1, left, right));
            }
            assert.equal(
              toHex(mmr.hash(pos) as Uint8Array),
              toHex(nodes[nodes.length - 1] as Uint8Array),
            );
          }
          const ps = peaks(size).map((p) => nodes[Number(p) - 1] as Uint8Array);
          let bag = ps[ps.length - 1] as Uint8Array;
          for (let i = ps.length - 2; i >= 0; i--)
            bag = pair(Number(size), ps[i] as Uint8Array, bag);
          assert.equal(toHex(mmr.root()), toHex(bag));
        }),
        { numRuns: 20 },
      );
    });

    it('rewind then re-append gives back the same root and the leaf set Epic keeps', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 400 }),
          fc.integer({ min: 0, max: 400 }),
          fc.nat(),
          (n, kRaw, seed) => {
            const k = kRaw % (n + 1);
            const random = rng(seed);
            const mmr = build(seed, k);
            for (let i = 0; i < k; i++)
              if (random() < 0.3) mmr.prune(insertionToPmmrIndex(BigInt(i + 1)));
            const sizeK = mmr.size;
            const rootK = mmr.root();
            const leavesK = [...mmr.leafPositions()];
            for (let i = k; i < n; i++) mmr.push(elem(seed, i));
            const rootN = mmr.root();
            const sizeN = mmr.size;
            // Spend leaves old and new, remembering the old ones a rewind must restore.
            const restored: bigint[] = [];
            for (let i = 0; i < n; i++) {
              const pos = insertionToPmmrIndex(BigInt(i + 1));
              if (random() < 0.3 && mmr.prune(pos) && pos <= sizeK) restored.push(pos);
            }
            const before = [...mmr.leafPositions()];
            const max = before.length > 0 ? (before[before.length - 1] as bigint) : 0n;
            mmr.rewind(sizeK, restored);
            assert.equal(mmr.size, sizeK);
            assert.equal(toHex(mmr.root()), toHex(rootK));
            const expected = max > sizeK ? [...leavesK, max] : leavesK;
            assert.deepEqual([...mmr.leafPositions()], expected);
            for (let i = k; i < n; i++) mmr.push(elem(seed, i));
            assert.equal(mmr.size, sizeN);
            assert.equal(toHex(mmr.root()), toHex(rootN));
          },
        ),
        { numRuns: 40 },
      );
    });

    it('compaction keeps the root, the unspent leaves’ proofs and what a rewind needs', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 300 }),
          fc.integer({ min: 0, max: 300 }),
          fc.nat(),
          (n, cRaw, seed) => {
            const random = rng(seed);
            const mmr = build(seed, n);
            const twin = build(seed, n);
            // Cutoffs are header output MMR sizes: the size after some leaf c.
            const c = cRaw % (n + 1);
            const cutoffSize = sizeAfterLeaves(BigInt(c));
            const spent = new Set<bigint>();
            const keep: bigint[] = [];
            for (let i = 0; i < n; i++) {
              const pos = insertionToPmmrIndex(BigInt(i + 1));
              if (random() < 0.5) {
                mmr.prune(pos);
                twin.prune(pos);
                spent.add(pos);
                if (pos <= cutoffSize && random() < 0.2) keep.push(pos);
              }
            }
            const proofsBefore = new Map<bigint, string>();
            for (const pos of twin.leafPositions())
              proofsBefore.set(pos, toHex(writeMerkleProof(twin.merkleProof(pos))));
            mmr.compact(cutoffSize, keep);
            checkCompacted(mmr, twin, seed, proofsBefore);
            for (const pos of keep)
              assert.notEqual(mmr.backend.hash(Number(pos)), null, 'kept leaves keep their hash');
            // The MMR grows on as if nothing had been removed, and compacts again.
            for (let i = n; i < n + 20; i++) {
              mmr.push(elem(seed, i));
              twin.push(elem(seed, i));
            }
            for (const pos of twin.leafPositions())
              if (random() < 0.3) {
                mmr.prune(pos);
                twin.prune(pos);
              }
            proofsBefore.clear();
            for (const pos of twin.leafPositions())
              proofsBefore.set(pos, toHex(writeMerkleProof(twin.merkleProof(pos))));
            mmr.compact(mmr.size);
            checkCompacted(mmr, twin, seed, proofsBefore);
          },
        ),
        { numRuns: 25 },
      );
    });

    function checkCompacted(
      mmr: Mmr,
      twin: Mmr,
      seed: number,
      proofs: ReadonlyMap<bigint, string>,
    ): void {
      assert.equal(toHex(mmr.root()), toHex(twin.root()));
      assert.deepEqual([...mmr.leafPositions()], [...twin.leafPositions()]);
      for (const [pos, proof] of proofs) {
        assert.equal(toHex(writeMerkleProof(mmr.merkleProof(pos))), proof);
        const i = Number(nLeaves(pos)) - 1;
        assert.ok(verifyMerkleProof(mmr.merkleProof(pos), mmr.root(), elem(seed, i), pos));
        assert.deepEqual(mmr.data(pos), elem(seed, i));
      }
      mmr.validate();
      // Exactly the nodes under a pruned root (not the roots) are gone from the store.
      const { backend } = mmr;
      for (let pos = 1; pos <= Number(mmr.size); pos++) {
        const gone = backend.hash(pos) === null;
        assert.equal(gone, backend.pruneList.isCompacted(pos), `position ${pos}`);
        if (gone && isLeaf(BigInt(pos))) assert.equal(backend.data(pos), null);
      }
    }
  });
}
