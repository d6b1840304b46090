// Header-sync locators, pure: Epic's locator heights (its own test vectors and the 20-entry
// cap), the locator hashes of a tip, and the headers a locator and offset ask for
// (`locate_headers`: common ancestor + 1 + 512 × offset, at most 512, up to our tip), with
// forked, unknown and out-of-range locators, on an in-memory header chain of 2,000 heights;
// and Epic's recorded answers (FastHeaders 1..140, Headers 1..147) re-made from its headers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toHex } from '../../../core/bytes.js';
import {
  commonAncestorHeight,
  type HeaderChainView,
  headerRangeFor,
  locatorHashes,
  locatorHeights,
} from '../../../core/chain/locator.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { decodeFrameHeader } from '../../../core/p2p/frame.js';
import { decodeMessage, encodeFrame } from '../../../core/p2p/msg.js';
import { MAX_LOCATORS } from '../../../core/p2p/msg_type.js';
import type { MsgOf } from '../../../core/p2p/types.js';
import { decode } from '../../../core/ser/codec.js';
import { readHeader } from '../../../core/ser/header.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { hex } from '../../support/crypto.js';
import { SHARED_VECTORS } from '../../support/paths.js';

/** A distinct 32-byte hash per (chain tag, height). */
function h(tag: number, height: number): Uint8Array {
  const out = new Uint8Array(32);
  const v = new DataView(out.buffer);
  v.setUint32(0, tag);
  v.setUint32(4, height);
  return out;
}

const MAIN = 1;
const FORK = 2;
const UNKNOWN = 3;

/**
 * Our chain: heights 0…`head` of MAIN; a known fork branching off at 1,200 (FORK hashes at
 * 1,201…1,260); a known header of MAIN's tag above our tip (2,500, as after a reorg away).
 */
function view(head = 2000): HeaderChainView {
  const heights = new Map<string, number>();
  for (let i = 0; i <= head; i++) heights.set(toHex(h(MAIN, i)), i);
  for (let i = 1201; i <= 1260; i++) heights.set(toHex(h(FORK, i)), i);
  heights.set(toHex(h(MAIN, 2500)), 2500);
  return {
    headHeight: BigInt(head),
    hashAt: (height) => (height >= 0n && height <= BigInt(head) ? h(MAIN, Number(height)) : null),
    heightOf: (hash) => {
      const at = heights.get(toHex(hash));
      return at === undefined ? undefined : BigInt(at);
    },
  };
}

const range = (first: number, last: number) => ({ first: BigInt(first), last: BigInt(last) });

describe('locator heights (header_sync.rs get_locator_heights)', () => {
  it("Epic's test vectors", () => {
    const cases: [number, number[]][] = [
      [0, [0]],
      [1, [1, 0]],
      [2, [2, 0]],
      [3, [3, 1, 0]],
      [4, [4, 2, 0]],
      [7, [7, 5, 1, 0]],
      [10, [10, 8, 4, 0]],
      [100, [100, 98, 94, 86, 70, 38, 0]],
      [1000, [1000, 998, 994, 986, 970, 938, 874, 746, 490, 0]],
      [10000, [10000, 9998, 9994, 9986, 9970, 9938, 9874, 9746, 9490, 8978, 7954, 5906, 1810, 0]],
    ];
    for (const [height, want] of cases)
      assert.deepEqual(locatorHeights(BigInt(height)), want.map(BigInt), `height ${height}`);
  });

  it('stops at 19 heights plus genesis (MAX_LOCATORS = 20)', () => {
    const got = locatorHeights(1_000_000n);
    assert.equal(got.length, MAX_LOCATORS);
    assert.deepEqual(
      got,
      [
        1000000, 999998, 999994, 999986, 999970, 999938, 999874, 999746, 999490, 998978, 997954,
        995906, 991810, 983618, 967234, 934466, 868930, 737858, 475714, 0,
      ].map(BigInt),
    );
    // Around the cap: 2^19 − 2 reaches genesis by steps (19 entries); one more hits the cap
    // at its 19th height, 1, and genesis is appended after it.
    assert.deepEqual(locatorHeights(524_286n).slice(-3), [393_216n, 262_144n, 0n]);
    assert.equal(locatorHeights(524_286n).length, 19);
    assert.deepEqual(locatorHeights(524_287n).slice(-3), [262_145n, 1n, 0n]);
    assert.equal(locatorHeights(524_287n).length, 20);
  });
});

describe('locator hashes (header_sync.rs get_locator, from our header head)', () => {
  it('the tip, then the chain at each locator height, genesis last', () => {
    assert.deepEqual(
      locatorHashes(view(2000)).map(toHex),
      [2000, 1998, 1994, 1986, 1970, 1938, 1874, 1746, 1490, 978, 0].map((x) => toHex(h(MAIN, x))),
    );
    assert.deepEqual(locatorHashes(view(0)).map(toHex), [toHex(h(MAIN, 0))]);
    assert.deepEqual(
      locatorHashes(view(3)).map(toHex),
      [3, 1, 0].map((x) => toHex(h(MAIN, x))),
    );
  });
});

describe('common ancestor (adapters.rs find_common_header)', () => {
  const v = view();

  it('the first locator hash on our chain, skipping unknown and forked hashes', () => {
    const locator = [h(UNKNOWN, 3000), h(FORK, 1258), h(FORK, 1256), h(MAIN, 1180), h(MAIN, 0)];
    assert.equal(commonAncestorHeight(locator, v), 1180n);
    // Order decides, not height: the first hit wins even if a later one is higher.
    assert.equal(commonAncestorHeight([h(MAIN, 5), h(MAIN, 1900)], v), 5n);
  });

  it('a known header above our tip is not on our chain', () => {
    assert.equal(commonAncestorHeight([h(MAIN, 2500), h(MAIN, 7)], v), 7n);
  });

  it('none: unknown-only, fork-only or empty locators', () => {
    assert.equal(commonAncestorHeight([h(UNKNOWN, 1), h(UNKNOWN, 0)], v), null);
    assert.equal(commonAncestorHeight([h(FORK, 1201)], v), null);
    assert.equal(commonAncestorHeight([], v), null);
  });
});

describe('headers for a locator (adapters.rs locate_headers)', () => {
  const v = view();
  const genesis = [h(MAIN, 0)];

  it('from genesis at offsets 0–4: four pages of at most 512, then nothing', () => {
    assert.deepEqual(headerRangeFor(genesis, 0, v), range(1, 512));
    assert.deepEqual(headerRangeFor(genesis, 1, v), range(513, 1024));
    assert.deepEqual(headerRangeFor(genesis, 2, v), range(1025, 1536));
    assert.deepEqual(headerRangeFor(genesis, 3, v), range(1537, 2000));
    assert.equal(headerRangeFor(genesis, 4, v), null);
  });

  it('a forked locator: pages start after the fork point it finds', () => {
    const forked = [h(FORK, 1260), h(FORK, 1258), h(FORK, 1254), h(FORK, 1246), h(MAIN, 1180)];
    assert.deepEqual(headerRangeFor(forked, 0, v), range(1181, 1692));
    assert.deepEqual(headerRangeFor(forked, 1, v), range(1693, 2000));
    assert.equal(headerRangeFor(forked, 2, v), null);
    assert.equal(headerRangeFor(forked, 3, v), null);
  });

  it('an ancestor at 100 at offsets 0–3', () => {
    const at100 = [h(UNKNOWN, 9), h(MAIN, 100), h(MAIN, 0)];
    assert.deepEqual(headerRangeFor(at100, 0, v), range(101, 612));
    assert.deepEqual(headerRangeFor(at100, 1, v), range(613, 1124));
    assert.deepEqual(headerRangeFor(at100, 2, v), range(1125, 1636));
    assert.deepEqual(headerRangeFor(at100, 3, v), range(1637, 2000));
  });

  it('at or beyond our tip: nothing; one below: the tip alone', () => {
    assert.equal(headerRangeFor([h(MAIN, 2000)], 0, v), null);
    assert.equal(headerRangeFor([h(MAIN, 2500)], 0, v), null);
    assert.deepEqual(headerRangeFor([h(MAIN, 1999)], 0, v), range(2000, 2000));
    assert.equal(headerRangeFor([h(MAIN, 1999)], 1, v), null);
  });

  it('unknown-only and empty locators: nothing', () => {
    assert.equal(headerRangeFor([h(UNKNOWN, 0), h(UNKNOWN, 1)], 0, v), null);
    assert.equal(headerRangeFor([], 0, v), null);
  });

  it('offsets and locators the wire cannot carry: nothing', () => {
    const long = Array.from({ length: MAX_LOCATORS + 1 }, () => h(MAIN, 0));
    assert.equal(headerRangeFor(long, 0, v), null);
    assert.deepEqual(headerRangeFor(long.slice(1), 0, v), range(1, 512));
    for (const bad of [-1, 256, 1.5, Number.NaN])
      assert.equal(headerRangeFor(genesis, bad, v), null, `offset ${bad}`);
    // 255 is a valid u8: on a long enough chain it starts at 1 + 255 × 512.
    assert.deepEqual(headerRangeFor(genesis, 255, view(131_000)), range(130_561, 131_000));
  });
});

interface Recorded {
  readonly from?: string;
  readonly name?: string;
  readonly hex?: string;
  readonly hash?: string;
  readonly header_hex?: string;
}

function recorded(file: string): Recorded[] {
  return readFileSync(join(SHARED_VECTORS, 'p2p', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Recorded);
}

describe("Epic's recorded header replies (usernet), re-made from its headers", () => {
  const USER = CHAIN_PARAMS.usernet;
  const chain = recorded('usernet_chain_blocks.jsonl');
  const headers: BlockHeader[] = chain.map((b) =>
    decode(readHeader, hex(b.header_hex as string), 2, USER, 'header'),
  );
  /** Epic's header chain as it was when it answered: heights 0…`head`. */
  const epicChain = (head: number): HeaderChainView => ({
    headHeight: BigInt(head),
    hashAt: (height) =>
      height <= BigInt(head) ? hex(chain[Number(height)]?.hash as string) : null,
    heightOf: (hash) => {
      const at = chain.findIndex((b) => b.hash === toHex(hash));
      return at < 0 || at > head ? undefined : BigInt(at);
    },
  });
  function message<K extends 'GetHeaders' | 'GetHeadersFastSync'>(
    session: string,
    name: K,
  ): { request: MsgOf<K>; replyHex: string } {
    const msgs = recorded(`${session}.jsonl`).filter((m) => m.hex !== undefined);
    const at = msgs.findIndex((m) => m.name === name);
    const req = msgs[at] as Recorded;
    const reply = msgs.slice(at + 1).find((m) => m.from === 'A') as Recorded;
    const bytes = hex(req.hex as string);
    const h = decodeFrameHeader(bytes.subarray(0, 11), USER);
    const request = decodeMessage(h.type, bytes.subarray(11), 2, USER) as MsgOf<K>;
    return { request, replyHex: reply.hex as string };
  }
  const pick = (r: { first: bigint; last: bigint } | null): BlockHeader[] =>
    r === null ? [] : headers.slice(Number(r.first), Number(r.last) + 1);

  it('GetHeadersFastSync [genesis] offset 0 at tip 140 → FastHeaders 1..140, same bytes', () => {
    const { request, replyHex } = message('usernet_sync_capture', 'GetHeadersFastSync');
    const r = headerRangeFor(request.locator, request.offset, epicChain(140));
    assert.deepEqual(r, range(1, 140));
    const frame = encodeFrame({ type: 'FastHeaders', headers: pick(r) }, 2, USER);
    assert.equal(toHex(frame), replyHex);
  });

  it('GetHeaders [genesis] at tip 147 → Headers 1..147, same bytes', () => {
    const { request, replyHex } = message('usernet_client_exchange', 'GetHeaders');
    const r = headerRangeFor(request.locator, 0, epicChain(147));
    assert.deepEqual(r, range(1, 147));
    assert.equal(toHex(encodeFrame({ type: 'Headers', headers: pick(r) }, 2, USER)), replyHex);
  });

  it("Epic's locator for tip 147 (what its header sync would send)", () => {
    assert.deepEqual(
      locatorHashes(epicChain(147)).map(toHex),
      [147, 145, 141, 133, 117, 85, 21, 0].map((x) => chain[x]?.hash),
    );
  });
});
