// Shared by the MMR backend suites: test elements, expected-hash helpers and MMR builders.
import { concatBytes, toHex } from '../../../core/bytes.js';
import { hashWithIndex } from '../../../core/hash/ids.js';
import type { MmrBackend } from '../../../core/mmr/backend.js';
import { MmrError } from '../../../core/mmr/errors.js';
import { Mmr } from '../../../core/mmr/mmr.js';
import { height, insertionToPmmrIndex } from '../../../core/mmr/pos.js';

export type BackendFactory = (options: { readonly prunable: boolean }) => MmrBackend;

/** Epic's test element: four u32, big-endian. */
export function testElem(a: number, b: number, c: number, d: number): Uint8Array {
  const out = new Uint8Array(16);
  const v = new DataView(out.buffer);
  v.setUint32(0, a);
  v.setUint32(4, b);
  v.setUint32(8, c);
  v.setUint32(12, d);
  return out;
}

export const ELEMS = [1, 2, 3, 4, 5, 6, 7, 8]
  .map((i) => testElem(0, 0, 0, i))
  .concat([testElem(1, 0, 0, 0)]);

/** Leaf i of a property-test MMR: 34 bytes (an output's size) naming the seed and the index. */
export function elem(seed: number, i: number): Uint8Array {
  const out = new Uint8Array(34);
  const v = new DataView(out.buffer);
  v.setUint32(0, seed);
  v.setUint32(4, i);
  out[33] = 0xee;
  return out;
}

export const leaf = (i: number, e: Uint8Array): Uint8Array => hashWithIndex(BigInt(i), e);
export const pair = (i: number, l: Uint8Array, r: Uint8Array): Uint8Array =>
  hashWithIndex(BigInt(i), concatBytes(l, r));
export const hex = (hs: readonly Uint8Array[]): string[] => hs.map(toHex);

export function mmrKind(e: unknown): string | undefined {
  return e instanceof MmrError ? e.kind : undefined;
}

// xorshift32: deterministic choices inside a property run.
export function rng(seed: number): () => number {
  let s = seed | 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

/** Builders of MMRs over fresh backends from `factory`. */
export function mmrBuilders(factory: BackendFactory) {
  const prunable = (): Mmr => new Mmr(factory({ prunable: true }));
  const plain = (): Mmr => new Mmr(factory({ prunable: false }));

  function build(seed: number, n: number, kind: 'prunable' | 'plain' = 'prunable'): Mmr {
    const mmr = kind === 'prunable' ? prunable() : plain();
    for (let i = 0; i < n; i++) mmr.push(elem(seed, i));
    return mmr;
  }

  return { prunable, plain, build };
}

/** Size of the MMR holding `n` leaves: the last leaf's position plus the parents it completes. */
export function sizeAfterLeaves(n: bigint): bigint {
  let pos = insertionToPmmrIndex(n);
  while (height(pos + 1n) > 0) pos++;
  return pos;
}
