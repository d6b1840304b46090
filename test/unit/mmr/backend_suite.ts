// The MMR tests, written once against any backend: `mmrBackendSuite(name, factory)` runs Epic's
// vectors (`core/tests/pmmr.rs`, `core/tests/merkle_proof.rs`, consensus reference §15.10) and
// the property tests on MMRs built over backends from `factory`. The in-memory backend runs it in
// mem_backend.test.ts; a persistent backend runs the same suite with its own factory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { ZERO_HASH } from '../../../core/hash/blake2b.js';
import {
  readMerkleProof,
  verifyMerkleProof,
  writeMerkleProof,
} from '../../../core/mmr/merkle_proof.js';
import { insertionToPmmrIndex } from '../../../core/mmr/pos.js';

import { mmrBehaviourSuite } from './backend_behaviour_suite.js';
import {
  type BackendFactory,
  ELEMS,
  hex,
  leaf,
  mmrBuilders,
  mmrKind,
  pair,
  testElem,
} from './suite_support.js';

export function mmrVectorSuite(name: string, factory: BackendFactory): void {
  const { prunable, plain } = mmrBuilders(factory);
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
}

/** Every backend must pass both suites: Epic's vectors and the behaviour/property suite. */
export function mmrBackendSuite(name: string, factory: BackendFactory): void {
  mmrVectorSuite(name, factory);
  mmrBehaviourSuite(name, factory);
}
