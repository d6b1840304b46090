// The MMR tests, written once against any backend: `mmrBackendSuite(name, factory)` runs Epic's
// vectors (`core/tests/pmmr.rs`, `core/tests/merkle_proof.rs`, consensus reference §15.10) and
// the property tests on MMRs built over backends from `factory`. The in-memory backend runs it in
// mem_backend.test.ts; a persistent backend runs the same suite with its own factory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { concatBytes, toHex } from '../../../core/bytes.js';
import { ZERO_HASH } from '../../../core/hash/blake2b.js';
import { hashWithIndex } from '../../../core/hash/ids.js';
import type { MmrBackend } from '../../../core/mmr/backend.js';
import { MmrError } from '../../../core/mmr/errors.js';
import {
  type MerkleProof,
  readMerkleProof,
  verifyMerkleProof,
  writeMerkleProof,
} from '../../../core/mmr/merkle_proof.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import { height, insertionToPmmrIndex, isLeaf, nLeaves, peaks } from '../../../core/mmr/pos.js';

export type BackendFactory = (options: { readonly prunable: boolean }) => MmrBackend;

/** Epic's test element: four u32, big-endian. */
function testElem(a: number, b: number, c: number, d: number): Uint8Array {
  const out = new Uint8Array(16);
  const v = new DataView(out.buffer);
  v.setUint32(0, a);
  v.setUint32(4, b);
  v.setUint32(8, c);
  v.setUint32(12, d);
  return out;
}

const ELEMS = [1, 2, 3, 4, 5, 6, 7, 8]
  .map((i) => testElem(0, 0, 0, i))
  .concat([testElem(1, 0, 0, 0)]);

/** Leaf i of a property-test MMR: 34 bytes (an output's size) naming the seed and the index. */
function elem(seed: number, i: number): Uint8Array {
  const out = new Uint8Array(34);
  const v = new DataView(out.buffer);
  v.setUint32(0, seed);
  v.setUint32(4, i);
  out[33] = 0xee;
  return out;
}

const leaf = (i: number, e: Uint8Array): Uint8Array => hashWithIndex(BigInt(i), e);
const pair = (i: number, l: Uint8Array, r: Uint8Array): Uint8Array =>
  hashWithIndex(BigInt(i), concatBytes(l, r));
const hex = (hs: readonly Uint8Array[]): string[] => hs.map(toHex);

function mmrKind(e: unknown): string | undefined {
  return e instanceof MmrError ? e.kind : undefined;
}

// xorshift32: deterministic choices inside a property run.
function rng(seed: number): () => number {
  let s = seed | 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

export function mmrBackendSuite(name: string, factory: BackendFactory): void {
  const prunable = (): Mmr => new Mmr(factory({ prunable: true }));
  const plain = (): Mmr => new Mmr(factory({ prunable: false }));

  function build(seed: number, n: number, kind: 'prunable' | 'plain' = 'prunable'): Mmr {
    const mmr = kind === 'prunable' ? prunable() : plain();
    for (let i = 0; i < n; i++) mmr.push(elem(seed, i));
    return mmr;
  }

  describe(`MMR on ${name}: Epic vectors`, () => {
    it('push: peaks, root and size after each of nine leaves', () => {
      const mmr = prunable();
      const e = ELEMS;
      const h: Uint8Array[] = [];
      mmr.push(e[0] as Uint8Array);
      h[0] = leaf(0, e[0] as Uint8Array);
      assert.deepEqual(hex(mmr.peaks()), hex([h[0]]));
      assert.equal(toHex(mmr.root()), toHex(h[0]));
      assert.equal(mmr.size, 1n);

      mmr.push(e[1] as Uint8Array);
      h[1] = leaf(1, e[1] as Uint8Array);
      h[2] = pair(2, h[0], h[1]);
      assert.deepEqual(hex(mmr.peaks()), hex([h[2]]));
      assert.equal(toHex(mmr.root()), toHex(h[2]));
      assert.equal(mmr.size, 3n);

      mmr.push(e[2] as Uint8Array);
      h[3] = leaf(3, e[2] as Uint8Array);
      assert.deepEqual(hex(mmr.peaks()), hex([h[2], h[3]]));
      assert.equal(toHex(mmr.root()), toHex(pair(4, h[2], h[3])));
      assert.equal(mmr.size, 4n);

      mmr.push(e[3] as Uint8Array);
      h[4] = leaf(4, e[3] as Uint8Array);
      h[5] = pair(5, h[3], h[4]);
      h[6] = pair(6, h[2], h[5]);
      assert.deepEqual(hex(mmr.peaks()), hex([h[6]]));
      assert.equal(toHex(mmr.root()), toHex(h[6]));
      assert.equal(mmr.size, 7n);

      mmr.push(e[4] as Uint8Array);
      h[7] = leaf(7, e[4] as Uint8Array);
      assert.deepEqual(hex(mmr.peaks()), hex([h[6], h[7]]));
      assert.equal(toHex(mmr.root()), toHex(pair(8, h[6], h[7])));
      assert.equal(mmr.size, 8n);

      mmr.push(e[5] as Uint8Array);
      h[8] = leaf(8, e[5] as Uint8Array);
      h[9] = pair(9, h[7], h[8]);
      assert.deepEqual(hex(mmr.peaks()), hex([h[6], h[9]]));
      assert.equal(toHex(mmr.root()), toHex(pair(10, h[6], h[9])));
      assert.equal(mmr.size, 10n);

      mmr.push(e[6] as Uint8Array);
      h[10] = leaf(10, e[6] as Uint8Array);
      assert.deepEqual(hex(mmr.peaks()), hex([h[6], h[9], h[10]]));
      assert.equal(toHex(mmr.root()), toHex(pair(11, h[6], pair(11, h[9], h[10]))));
      assert.equal(mmr.size, 11n);

      mmr.push(e[7] as Uint8Array);
      h[11] = leaf(11, e[7] as Uint8Array);
      h[12] = pair(12, h[10], h[11]);
      h[13] = pair(13, h[9], h[12]);
      h[14] = pair(14, h[6], h[13]);
      assert.deepEqual(hex(mmr.peaks()), hex([h[14]]));
      assert.equal(toHex(mmr.root()), toHex(h[14]));
      assert.equal(mmr.size, 15n);

      mmr.push(e[8] as Uint8Array);
      h[15] = leaf(15, e[8] as Uint8Array);
      assert.deepEqual(hex(mmr.peaks()), hex([h[14], h[15]]));
      assert.equal(toHex(mmr.root()), toHex(pair(16, h[14], h[15])));
      assert.equal(mmr.size, 16n);
      // Every stored hash is the one worked out by hand.
      h.forEach((x, i) => {
        assert.equal(toHex(mmr.hash(BigInt(i + 1)) as Uint8Array), toHex(x), `pos ${i + 1}`);
      });
    });

    it('roots after each of nine leaves (derived vectors)', () => {
      const roots = [
        '7fbf243537e8d582cf37f4da141f3b28b240ff4b4dc41b75bdc4306ff048447b',
        'f3ba12fb3e66f9ea61d6a1cbe19a9d285c4a45818d2a4f56f149a3f5a612b91b',
        'f5b75ce6379b05d1a79176c499ed6f18997253bd15dcfb380ec70e2a567c554d',
        'e543698d90b6a622881e0e94e989b804e18af2681b73cb90694d7f01423263b6',
        '158a155acba0b5aecac2cb3acd7bfa15ef2faa0002830a57914628207cf28ad3',
        '5ff23d68408be201b18cfa342a6a3385eb47f12fbde398aae064e707b4047373',
        '7dac477d52c4065ce62a7e09278ad422c85d44c79ffcb4114bda6724faed69bf',
        '0f32f48c801a9cadfbe9665998e56d0b412d362ad1be28074b594161d3f4ba4c',
        'd3ba393e3053051ebce4710c46d50dc54c0551b24a0d5be114b994bd48d4052b',
      ];
      for (const kind of ['prunable', 'plain'] as const) {
        const mmr = kind === 'prunable' ? prunable() : plain();
        assert.equal(toHex(mmr.root()), toHex(ZERO_HASH));
        ELEMS.forEach((e, i) => {
          mmr.push(e);
          assert.equal(toHex(mmr.root()), roots[i], `${kind}, ${i + 1} leaves`);
        });
      }
    });

    it('merkle proofs in MMRs of 1, 2, 3 and 7 leaves', () => {
      const mmr = prunable();
      const e = ELEMS as [Uint8Array, ...Uint8Array[]];
      const check = (pos: bigint, element: Uint8Array, path: Uint8Array[]): void => {
        const proof = mmr.merkleProof(pos);
        assert.equal(proof.mmrSize, mmr.size);
        assert.deepEqual(hex(proof.path), hex(path), `path of ${pos} in size ${mmr.size}`);
        assert.ok(verifyMerkleProof(proof, mmr.root(), element, pos));
      };
      mmr.push(e[0]);
      const h0 = leaf(0, e[0]);
      check(1n, e[0], []);

      mmr.push(e[1] as Uint8Array);
      const h1 = leaf(1, e[1] as Uint8Array);
      check(1n, e[0], [h1]);
      check(2n, e[1] as Uint8Array, [h0]);

      mmr.push(e[2] as Uint8Array);
      const h2 = pair(2, h0, h1);
      const h3 = leaf(3, e[2] as Uint8Array);
      check(1n, e[0], [h1, h3]);
      check(2n, e[1] as Uint8Array, [h0, h3]);
      check(4n, e[2] as Uint8Array, [h2]);

      for (let i = 3; i < 7; i++) mmr.push(e[i] as Uint8Array);
      assert.equal(mmr.size, 11n);
      const h4 = leaf(4, e[3] as Uint8Array);
      const h5 = pair(5, h3, h4);
      const h6 = pair(6, h2, h5);
      const h7 = leaf(7, e[4] as Uint8Array);
      const h8 = leaf(8, e[5] as Uint8Array);
      const h9 = pair(9, h7, h8);
      const h10 = leaf(10, e[6] as Uint8Array);
      const rhs = pair(11, h9, h10);
      check(1n, e[0], [h1, h5, rhs]);
      check(2n, e[1] as Uint8Array, [h0, h5, rhs]);
      check(4n, e[2] as Uint8Array, [h4, h2, rhs]);
      check(5n, e[3] as Uint8Array, [h3, h2, rhs]);
      check(8n, e[4] as Uint8Array, [h8, h10, h6]);
      check(9n, e[5] as Uint8Array, [h7, h10, h6]);
      check(11n, e[6] as Uint8Array, [h9, h6]);
    });

    it('a proof is unchanged after its sibling is pruned', () => {
      const mmr = prunable();
      mmr.push(testElem(0, 0, 0, 1));
      mmr.push(testElem(0, 0, 0, 2));
      const before = mmr.merkleProof(2n);
      assert.equal(mmr.prune(1n), true);
      assert.deepEqual(mmr.merkleProof(2n), before);
    });

    it('merkle proof binary round trip (15 leaves, position 9)', () => {
      const mmr = prunable();
      for (let x = 0; x < 15; x++) mmr.push(testElem(0, 0, 0, x));
      const proof = mmr.merkleProof(9n);
      assert.deepEqual(readMerkleProof(writeMerkleProof(proof)), proof);
    });

    it('pruning leaves never changes the root', () => {
      const mmr = prunable();
      for (const e of ELEMS) mmr.push(e);
      const root = toHex(mmr.root());
      assert.equal(mmr.size, 16n);
      assert.equal(mmr.unprunedLeafCount(), 9n);
      // A leaf with no parent, then leaves with no shared parent.
      for (const [pos, left] of [
        [16n, 8n],
        [2n, 7n],
        [4n, 6n],
      ] as const) {
        assert.equal(mmr.prune(pos), true);
        assert.equal(toHex(mmr.root()), root);
        assert.equal(mmr.unprunedLeafCount(), left);
      }
      // A parent cannot be pruned.
      assert.throws(
        () => mmr.prune(3n),
        (e) => mmrKind(e) === 'NotALeaf',
      );
      assert.equal(mmr.unprunedLeafCount(), 6n);
      assert.equal(mmr.prune(5n), true);
      assert.equal(mmr.prune(1n), true);
      assert.equal(mmr.prune(1n), false, 'already pruned');
      assert.equal(toHex(mmr.root()), root);
      for (let pos = 1n; pos < 16n; pos++) {
        try {
          mmr.prune(pos);
        } catch (e) {
          assert.equal(mmrKind(e), 'NotALeaf');
        }
      }
      assert.equal(toHex(mmr.root()), root);
      assert.equal(mmr.unprunedLeafCount(), 0n);
      assert.equal(mmr.hash(1n), null, 'a spent leaf has no hash');
      assert.notEqual(mmr.hash(3n), null, 'its parent still has one');
    });

    it('elements_from_pmmr_index on 20 leaves', () => {
      const mmr = prunable();
      for (let x = 1; x <= 20; x++) mmr.push(testElem(0, 0, 0, x));
      assert.equal(mmr.size, 38n);
      const last = (d: Uint8Array): number => new DataView(d.buffer, d.byteOffset).getUint32(12);
      const run = (start: bigint, max: bigint, end?: bigint): [bigint, number[]] => {
        const r = mmr.elementsFrom(start, max, end);
        return [r.last, r.elements.map(last)];
      };
      const range = (a: number, b: number): number[] =>
        Array.from({ length: b - a + 1 }, (_, i) => a + i);
      assert.deepEqual(run(1n, 1000n), [38n, range(1, 20)]);
      assert.deepEqual(run(8n, 1000n, 34n), [34n, range(5, 18)]);
      assert.deepEqual(run(8n, 7n, 34n), [19n, range(5, 11)]);
      mmr.prune(insertionToPmmrIndex(5n));
      mmr.prune(insertionToPmmrIndex(20n));
      assert.deepEqual(run(8n, 7n, 34n), [20n, range(6, 12)]);
      // Start 0 counts as 1; an end past the size is walked to in vain, as in Epic.
      assert.deepEqual(run(0n, 2n), [2n, [1, 2]]);
      assert.deepEqual(run(30n, 100n, 1000n), [1000n, range(17, 19)]);
    });

    it('get_last_n_insertions', () => {
      const mmr = prunable();
      assert.equal(mmr.lastLeaves(19n).length, 0);
      mmr.push(ELEMS[0] as Uint8Array);
      assert.equal(mmr.lastLeaves(19n).length, 1);
      mmr.push(ELEMS[1] as Uint8Array);
      assert.equal(mmr.lastLeaves(12n).length, 2);
      mmr.push(ELEMS[2] as Uint8Array);
      assert.equal(mmr.lastLeaves(2n).length, 2);
      mmr.push(ELEMS[3] as Uint8Array);
      assert.equal(mmr.lastLeaves(19n).length, 4);
      for (const i of [5, 6, 7, 8]) mmr.push(ELEMS[i] as Uint8Array);
      const last = mmr.lastLeaves(7n);
      assert.equal(last.length, 7);
      // Newest first (position 12 of 15), each with its leaf hash and data.
      assert.deepEqual(last[0]?.data, ELEMS[8]);
      assert.equal(toHex(last[0]?.hash as Uint8Array), toHex(leaf(11, ELEMS[8] as Uint8Array)));
      // Spent leaves are skipped but still counted, as in Epic.
      mmr.prune(12n);
      assert.equal(mmr.lastLeaves(7n).length, 6);
    });
  });

  describe(`MMR on ${name}: Epic's file-backend scenario (store/tests/pmmr.rs pmmr_rewind)`, () => {
    it('prune, compact, rewind twice', () => {
      const u32 = (x: number): Uint8Array => testElem(x, 0, 0, 0).subarray(0, 4);
      const elems = Array.from({ length: 19 }, (_, i) => u32(i + 1));
      const mmr = prunable();
      for (const e of elems.slice(0, 4)) mmr.push(e);
      const root1 = mmr.root();
      for (const e of elems.slice(4, 6)) mmr.push(e);
      assert.equal(mmr.size, 10n);
      const root2 = mmr.root();
      for (const e of elems.slice(6, 9)) mmr.push(e);
      assert.equal(mmr.size, 16n);
      for (const pos of [1n, 2n, 4n, 5n]) assert.equal(mmr.prune(pos), true);
      mmr.compact(6n);
      // Positions 1..6 are gone, their root 7 stays.
      const stored = (): number[] =>
        Array.from({ length: Number(mmr.size) }, (_, i) => i + 1).filter(
          (p) => mmr.backend.hash(p) !== null,
        );
      assert.deepEqual(stored(), [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
      mmr.rewind(9n, [11n, 12n, 16n]);
      assert.equal(mmr.size, 10n);
      assert.equal(toHex(mmr.root()), toHex(root2));
      for (const pos of [1n, 2n, 3n, 4n, 5n, 6n, 7n]) assert.equal(mmr.data(pos), null);
      assert.deepEqual(mmr.data(8n), elems[4]);
      assert.equal(toHex(mmr.hash(8n) as Uint8Array), toHex(leaf(7, elems[4] as Uint8Array)));
      assert.deepEqual(mmr.data(9n), elems[5]);
      assert.equal(toHex(mmr.hash(9n) as Uint8Array), toHex(leaf(8, elems[5] as Uint8Array)));
      // Rewinding to leaf position 5 keeps the parents it completes: size 7.
      mmr.rewind(5n);
      assert.equal(mmr.size, 7n);
      assert.equal(toHex(mmr.root()), toHex(root1));
      for (let pos = 1n; pos < 17n; pos++) assert.equal(mmr.data(pos), null);
      assert.deepEqual(stored(), [7]);
    });
  });

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

/** Size of the MMR holding `n` leaves: the last leaf's position plus the parents it completes. */
function sizeAfterLeaves(n: bigint): bigint {
  let pos = insertionToPmmrIndex(n);
  while (height(pos + 1n) > 0) pos++;
  return pos;
}
