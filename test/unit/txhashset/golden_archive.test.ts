// The txhashset archive Epic 4.0 served at height 120 of the recorded usernet chain
// (../shared/vectors/p2p/usernet_txhashset_1d9804e66f0f.zip and .json): parsed, re-encoded byte
// for byte, its MMRs checked against header 120 and the kernel history against headers 0..120.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import { nLeaves } from '../../../core/mmr/safe_pos.js';
import { decode } from '../../../core/ser/codec.js';
import { headerHash, readHeader } from '../../../core/ser/header.js';
import {
  archiveEntries,
  archiveFileList,
  archiveFileName,
  readArchive,
  readArchiveEntries,
  writeArchive,
} from '../../../core/txhashset/archive.js';
import { TxHashSetError } from '../../../core/txhashset/errors.js';
import {
  decodeMmrFiles,
  encodeMmrFiles,
  readKernelElements,
} from '../../../core/txhashset/mmr_files.js';
import { decodeRoaring, encodeRoaring } from '../../../core/txhashset/roaring.js';
import {
  mmrRoot,
  outputHeaderRoot,
  validateArchiveMmrs,
  validateKernelHistory,
} from '../../../core/txhashset/validate.js';
import { readZip, writeZip } from '../../../core/txhashset/zip.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { hex } from '../../support/crypto.js';
import { P2P_VECTORS, recordedLines, USERNET } from '../../support/p2p_vectors.js';

// Plain Uint8Arrays: a Buffer's slice() is a view, and the tests copy elements to corrupt them.
const ZIP = new Uint8Array(readFileSync(join(P2P_VECTORS, 'usernet_txhashset_1d9804e66f0f.zip')));
const META = JSON.parse(
  readFileSync(join(P2P_VECTORS, 'usernet_txhashset_1d9804e66f0f.json'), 'utf8'),
) as { entries: Array<{ name: string; size: number; sha256: string }>; sha256: string };
const KERNEL_DATA = readFileSync(join(P2P_VECTORS, 'usernet_kernel_data_b828adbf08d5.bin'));
const HEADERS: BlockHeader[] = recordedLines('usernet_chain_blocks.jsonl').map((b) =>
  decode(readHeader, hex(b.header_hex as string), 2, USERNET, 'header'),
);
const H120 = HEADERS[120] as BlockHeader;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Independent walk over the local headers: names and methods in file order. */
function walkLocalHeaders(z: Uint8Array): Array<{ name: string; method: number; size: number }> {
  const v = new DataView(z.buffer, z.byteOffset, z.byteLength);
  const out = [];
  for (let p = 0; v.getUint32(p, true) === 0x04034b50; ) {
    const size = v.getUint32(p + 22, true);
    const n = v.getUint16(p + 26, true);
    const name = Buffer.from(z.subarray(p + 30, p + 30 + n)).toString('utf8');
    out.push({ name, method: v.getUint16(p + 8, true), size });
    p += 30 + n + v.getUint16(p + 28, true) + size;
  }
  return out;
}

describe('golden txhashset archive (Epic 4.0, usernet height 120)', () => {
  it('is the archive of header 120', () => {
    assert.equal(sha256(ZIP), META.sha256);
    assert.equal(H120.height, 120n);
    assert.equal(
      toHex(headerHash(H120, USERNET)),
      '1d9804e66f0fb8b9d4a91aebf9d55b2935ebff19011168cb1c58b56099524065',
    );
    assert.equal(archiveFileName(headerHash(H120, USERNET)), 'txhashset_snapshot_1d9804e66f0f.zip');
  });

  it('an independent walk sees Epic’s list in order, every entry Stored', () => {
    const walked = walkLocalHeaders(ZIP);
    const expected = archiveFileList(headerHash(H120, USERNET)).filter(
      (n) => !n.endsWith('prun.bin'),
    );
    assert.deepEqual(
      walked.map((e) => e.name),
      expected,
    );
    assert.ok(walked.every((e) => e.method === 0));
  });

  it('each entry’s size and SHA-256 match the .json', () => {
    const entries = readZip(ZIP, {
      maxEntries: 10,
      allowName: () => true,
      maxEntrySize: () => 1 << 20,
      maxTotalSize: 1 << 20,
    });
    assert.deepEqual(
      entries.map((e) => ({ name: e.name, size: e.data.length, sha256: sha256(e.data) })),
      META.entries.map((e) => ({ name: e.name, size: e.size, sha256: e.sha256 })),
    );
  });

  it('writing the same entries gives the golden zip byte for byte', () => {
    const entries = readArchiveEntries(ZIP, headerHash(H120, USERNET));
    const again = writeZip([...entries].map(([name, data]) => ({ name, data })));
    assert.equal(again.length, ZIP.length);
    assert.ok(Buffer.from(again).equals(Buffer.from(ZIP)));
  });

  it('the kernel data file equals the KernelDataResponse attachment', () => {
    const entries = readArchiveEntries(ZIP, headerHash(H120, USERNET));
    assert.ok(Buffer.from(entries.get('kernel/pmmr_data.bin') as Uint8Array).equals(KERNEL_DATA));
  });

  it('leaf sets decode and re-encode byte for byte', () => {
    const entries = readArchiveEntries(ZIP, headerHash(H120, USERNET));
    for (const kind of ['output', 'rangeproof']) {
      const bytes = entries.get(`${kind}/pmmr_leaf.bin.1d9804e66f0f`) as Uint8Array;
      assert.equal(bytes.length, 84);
      const set = decodeRoaring(bytes);
      assert.equal(set.length, 34);
      assert.deepEqual([...set.subarray(0, 4)], [1, 2, 4, 42]);
      // 544 is beyond header 120's output_mmr_size (460): Epic's rewind keeps the highest
      // position (block 140's coinbase, the tip when the snapshot was taken).
      assert.equal(set.at(-2), 457);
      assert.equal(set.at(-1), 544);
      assert.ok(Buffer.from(encodeRoaring(set)).equals(bytes));
    }
  });

  it('reads as three MMRs running to the server’s tip (height 140), not to 120', () => {
    const mmrs = readArchive(ZIP, H120, USERNET);
    const h140 = HEADERS[140] as BlockHeader;
    assert.equal(H120.outputMmrSize, 460n);
    assert.equal(H120.kernelMmrSize, 337n);
    assert.equal(mmrs.output.size, 545);
    assert.equal(mmrs.rangeproof.size, 545);
    assert.equal(mmrs.kernel.size, 398);
    assert.equal(BigInt(mmrs.output.size), h140.outputMmrSize);
    assert.equal(BigInt(mmrs.kernel.size), h140.kernelMmrSize);
    assert.equal(mmrs.output.elements.length, nLeaves(545));
    assert.equal(mmrs.output.elements.length, 274);
    assert.equal(mmrs.kernel.elements.length, 201);
    assert.equal(mmrs.output.pruneRoots, null);
    assert.equal(mmrs.rangeproof.elements[0]?.length, 683);
    // Untruncated, the files give header 140's kernel and range-proof roots.
    assert.equal(toHex(mmrRoot(mmrs.kernel)), toHex(h140.kernelRoot));
    const kernelSizes = readKernelElements(KERNEL_DATA, 2, USERNET).elements.map((e) => e.length);
    assert.deepEqual([...new Set(kernelSizes)].sort(), [106, 98]);
  });

  it('validates against header 120: sizes, hashes and the three roots', () => {
    const mmrs = validateArchiveMmrs(readArchive(ZIP, H120, USERNET), H120, USERNET);
    assert.equal(mmrs.output.size, 460);
    assert.equal(mmrs.kernel.size, 337);
    assert.equal(mmrs.output.leafSet?.length, 33);
    assert.equal(H120.version, 7);
    assert.equal(toHex(outputHeaderRoot(mmrs.output, 7)), toHex(H120.outputRoot));
    assert.equal(toHex(mmrRoot(mmrs.rangeproof)), toHex(H120.rangeProofRoot));
    assert.equal(toHex(mmrRoot(mmrs.kernel)), toHex(H120.kernelRoot));
  });

  it('kernel history: one forward pass over headers 0..120 passes', () => {
    const mmrs = validateArchiveMmrs(readArchive(ZIP, H120, USERNET), H120, USERNET, {
      headers: HEADERS.slice(0, 121),
    });
    validateKernelHistory(mmrs.kernel, HEADERS.slice(0, 121), USERNET);
  });

  it('kernel history fails at the height of a flipped kernel byte', () => {
    const mmrs = readArchive(ZIP, H120, USERNET);
    // Kernel number 60 (0-based) is pushed by the block whose kernel_mmr_size first passes it.
    const k = 60;
    const elements = mmrs.kernel.elements.map((e, i) => {
      if (i !== k) return e;
      const c = e.slice();
      c[c.length - 1] = (c[c.length - 1] as number) ^ 1; // last signature byte
      return c;
    });
    const kernel = { ...mmrs.kernel, elements };
    const pos = 2 * k - popcount(k) + 1;
    const failing = HEADERS.find((h) => h.kernelMmrSize >= BigInt(pos)) as BlockHeader;
    assert.throws(
      () => validateKernelHistory(kernel, HEADERS.slice(0, 121), USERNET),
      (e: unknown) =>
        e instanceof TxHashSetError &&
        e.code === 'KernelHistory' &&
        e.detail === `kernel root mismatch at height ${failing.height}`,
    );
    assert.equal(failing.height > 0n && failing.height < 120n, true);
  });

  it('a wrong header size or root is refused', () => {
    const mmrs = readArchive(ZIP, H120, USERNET);
    const h119 = HEADERS[119] as BlockHeader;
    assert.throws(
      () => validateArchiveMmrs(mmrs, { ...h119, kernelRoot: H120.kernelRoot }, USERNET),
      (e: unknown) => e instanceof TxHashSetError && e.code === 'RootMismatch',
    );
    const bumped = { ...H120, outputMmrSize: 600n };
    assert.throws(
      () => validateArchiveMmrs(mmrs, bumped, USERNET),
      (e: unknown) => e instanceof TxHashSetError && e.code === 'SizeMismatch',
    );
  });

  it('write(read(x)) == x for every entry, and for the whole zip', () => {
    const hh = headerHash(H120, USERNET);
    const entries = readArchiveEntries(ZIP, hh);
    const mmrs = readArchive(ZIP, H120, USERNET);
    const again = archiveEntries(mmrs, H120, USERNET);
    assert.deepEqual(
      again.map((e) => e.name),
      [...entries.keys()],
    );
    for (const e of again)
      assert.ok(Buffer.from(e.data).equals(entries.get(e.name) as Uint8Array), e.name);
    assert.ok(Buffer.from(writeArchive(mmrs, H120, USERNET)).equals(Buffer.from(ZIP)));
    // And per MMR through the file codec alone.
    const files = encodeMmrFiles(mmrs.output);
    const back = decodeMmrFiles('output', files, USERNET);
    assert.ok(Buffer.from(encodeMmrFiles(back).hash).equals(files.hash));
  });
});

function popcount(n: number): number {
  let c = 0;
  for (let v = n; v > 0; v >>>= 1) c += v & 1;
  return c;
}
