// MMR files of a compacted MMR (the golden archive has no prune list): a MemBackend MMR with spent
// and compacted leaves described, written, read back, and checked position by position.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { MemBackend } from '../../../core/mmr/mem_backend.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import { TxHashSetError } from '../../../core/txhashset/errors.js';
import {
  decodeMmrFiles,
  describeMmr,
  elementAt,
  encodeMmrFiles,
  hashAt,
  truncateMmr,
} from '../../../core/txhashset/mmr_files.js';
import { checkMmrHashes, mmrRoot } from '../../../core/txhashset/validate.js';

const USERNET = CHAIN_PARAMS.usernet;

function outputElement(i: number): Uint8Array {
  const e = new Uint8Array(34);
  e[0] = i % 2;
  e[1] = 8;
  e[33] = i;
  return e;
}

function compactedOutputMmr(): { mmr: Mmr; backend: MemBackend } {
  const backend = new MemBackend({ prunable: true });
  const mmr = new Mmr(backend);
  for (let i = 0; i < 20; i++) mmr.push(outputElement(i));
  for (const pos of [1n, 2n, 4n, 5n, 8n, 16n]) mmr.prune(pos);
  mmr.compact(20n);
  return { mmr, backend };
}

describe('MMR files with a prune list', () => {
  it('describe → files → description round trip; hashes and elements by position', () => {
    const { mmr, backend } = compactedOutputMmr();
    const roots = backend.pruneList.rootPositions();
    assert.ok(roots.length > 0);
    const desc = describeMmr({
      kind: 'output',
      size: Number(mmr.size),
      hash: (p) => backend.hash(p),
      element: (p) => backend.data(p),
      leafSet: backend.leafSet.positions(1),
      pruneRoots: roots,
    });
    const files = encodeMmrFiles(desc);
    assert.notEqual(files.prune, null);
    const back = decodeMmrFiles('output', files, USERNET);
    assert.equal(back.size, Number(mmr.size));
    assert.deepEqual([...(back.pruneRoots ?? [])], roots);
    for (let p = 1; p <= back.size; p++) {
      assert.deepEqual(hashAt(back, p), backend.hash(p), `hash at ${p}`);
      assert.deepEqual(elementAt(back, p), backend.data(p), `element at ${p}`);
    }
    checkMmrHashes(back, USERNET);
    assert.deepEqual(mmrRoot(back), mmr.root());
    const cut = truncateMmr(back, 25);
    const small = new Mmr(new MemBackend({ prunable: true }));
    for (let i = 0; i < 14; i++) small.push(outputElement(i));
    assert.deepEqual(mmrRoot(cut), small.root());
  });

  it('refuses files whose counts disagree', () => {
    const { mmr, backend } = compactedOutputMmr();
    const desc = describeMmr({
      kind: 'output',
      size: Number(mmr.size),
      hash: (p) => backend.hash(p),
      element: (p) => backend.data(p),
      leafSet: backend.leafSet.positions(1),
      pruneRoots: backend.pruneList.rootPositions(),
    });
    const files = encodeMmrFiles(desc);
    const fail = (f: typeof files, code: string) =>
      assert.throws(
        () => decodeMmrFiles('output', f, USERNET),
        (e: unknown) => e instanceof TxHashSetError && e.code === code,
      );
    fail({ ...files, hash: files.hash.subarray(1) }, 'FileLength');
    fail({ ...files, data: files.data.subarray(34) }, 'FileCount');
    fail({ ...files, data: files.data.subarray(1) }, 'FileLength');
    fail({ ...files, hash: files.hash.subarray(32) }, 'FileCount');
    fail({ ...files, prune: null }, 'FileCount');
  });
});
