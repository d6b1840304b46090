// What the chain serves peers, on real chain databases (stand-in proofs of work and coinbase
// range proofs, everything else validated): a 1,100-block chain A with a 5-block fork off
// height 300 that B mined and A stored. Checks our locator, the headers a locator asks for at
// offsets 0–3 (exact heights and hashes), B's forked locator, unknown and beyond-the-tip
// locators, blocks and compact blocks by hash (main chain, fork, unknown), that every reply
// survives the actor codec unchanged, and that a pruned node keeps horizon + 60 blocks.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compareBytes, toHex } from '../../../core/bytes.js';
import { blake2b256 } from '../../../core/hash/blake2b.js';
import { shortId } from '../../../core/hash/ids.js';
import { decodeMessage, encodeFrame, encodeMessage, msgTypeCode } from '../../../core/p2p/msg.js';
import { encode, hashOf } from '../../../core/ser/codec.js';
import { headerHash } from '../../../core/ser/header.js';
import { writeKernel, writeOutput } from '../../../core/ser/transaction.js';
import type { Block, BlockHeader } from '../../../core/types/block.js';
import type { Output, TxKernel } from '../../../core/types/transaction.js';
import { roundTrip } from '../../../runtime/index.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { AUTO } from '../../support/miner.js';
import { spendCoinbase } from '../../support/spend.js';

const HEAD = 1100;
const FORK_AT = 300;
const FORK_LEN = 5;
/** The block with two transactions (two Plain kernels: two short ids). */
const TX_HEIGHT = 22;
/** A foundation height of the automated chain (every 5th): two coinbase outputs and kernels. */
const FOUNDATION_HEIGHT = 20;

const hex = (b: Uint8Array): string => toHex(b);
const hashOfHeader = (h: BlockHeader): string => toHex(headerHash(h, AUTO));
const never = () => false;

/** First and last heights and hashes of a header page, after checking it is contiguous. */
function page(headers: readonly BlockHeader[]): [bigint, string, bigint, string] | [] {
  const first = headers[0];
  const last = headers.at(-1);
  if (first === undefined || last === undefined) return [];
  headers.forEach((h, i) => {
    assert.equal(h.height, first.height + BigInt(i));
    if (i > 0) assert.equal(hex(h.prevHash), hashOfHeader(headers[i - 1] as BlockHeader));
  });
  return [first.height, hashOfHeader(first), last.height, hashOfHeader(last)];
}

describe('serving headers and blocks to peers', { timeout: 300_000 }, () => {
  let a: LocalChain;
  let b: LocalChain;
  /** A's main-chain hashes by height (hex). */
  const main: string[] = [];
  /** B's fork blocks, heights 301…305 (hex hashes). */
  const fork: string[] = [];
  let txBlock: Block;

  const at = (height: number): Uint8Array =>
    Uint8Array.from(Buffer.from(main[height] ?? '', 'hex'));
  const forkHash = (height: number): Uint8Array =>
    Uint8Array.from(Buffer.from(fork[height - FORK_AT - 1] ?? '', 'hex'));
  const unknown = (n: number): Uint8Array => new Uint8Array(32).fill(n);
  const want = (first: number, last: number) => [
    BigInt(first),
    main[first],
    BigInt(last),
    main[last],
  ];

  async function mineA(to: number): Promise<void> {
    for (let h = main.length; h <= to; h++) {
      const txs = h === TX_HEIGHT ? [spendCoinbase(1), spendCoinbase(2)] : [];
      const block = await a.mineBlock(txs);
      const reply = await a.submit(block);
      assert.equal(reply.status, 'next', `A at ${h}`);
      main.push(hex(reply.hash));
      if (h === TX_HEIGHT) txBlock = block;
    }
  }

  before(async () => {
    a = localChain({ standIns: true, compactionRoll: never });
    b = localChain({ standIns: true, compactionRoll: never });
    main.push(hex(a.service.getTip().lastBlockPushed));
    await mineA(FORK_AT);
    // B shares A's first 300 blocks, then mines its own 301…305.
    for (let h = 1; h <= FORK_AT; h++) {
      const block = a.service.blockByHash(at(h));
      assert.ok(block !== null);
      assert.equal((await b.submit(block)).status, 'next');
    }
    const forkBlocks: Block[] = [];
    for (let i = 0; i < FORK_LEN; i++) {
      const block = await b.mineBlock();
      const reply = await b.submit(block);
      assert.equal(reply.status, 'next');
      fork.push(hex(reply.hash));
      forkBlocks.push(block);
    }
    // A, 10 blocks further, stores B's fork as a fork (less work), then goes on to 1,100.
    await mineA(FORK_AT + 10);
    for (const block of forkBlocks) assert.equal((await a.submit(block)).status, 'fork');
    await mineA(HEAD);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  it("our locator: the header head and Epic's heights below it", () => {
    assert.deepEqual(
      a.service.locator().hashes.map(hex),
      [1100, 1098, 1094, 1086, 1070, 1038, 974, 846, 590, 78, 0].map((h) => main[h]),
    );
  });

  it('from genesis at offsets 0–3: 1…512, 513…1024, 1025…1100, nothing', () => {
    const pages = [0, 1, 2, 3].map((offset) =>
      page(a.service.headersForLocator([at(0)], offset).headers),
    );
    assert.deepEqual(pages, [want(1, 512), want(513, 1024), want(1025, 1100), []]);
  });

  it("B's forked locator: its fork hashes are skipped, A answers from 299 + 1", () => {
    const locator = b.service.locator().hashes;
    assert.deepEqual(locator.map(hex), [
      fork[4],
      fork[2],
      ...[299, 291, 275, 243, 179, 51, 0].map((h) => main[h]),
    ]);
    // A knows B's fork headers (it stored the blocks), but not on its chain.
    assert.equal(hex(a.service.blockByHash(forkHash(305))?.header.prevHash ?? unknown(0)), fork[3]);
    const pages = [0, 1, 2, 3].map((offset) =>
      page(a.service.headersForLocator(locator, offset).headers),
    );
    assert.deepEqual(pages, [want(300, 811), want(812, 1100), [], []]);
  });

  it('a locator of fork and unknown hashes only, or none: nothing', () => {
    const forkOnly = [forkHash(305), forkHash(301), unknown(7)];
    assert.deepEqual(a.service.headersForLocator(forkOnly, 0).headers, []);
    assert.deepEqual(a.service.headersForLocator([unknown(1), unknown(2)], 0).headers, []);
    assert.deepEqual(a.service.headersForLocator([], 0).headers, []);
  });

  it('at our tip: nothing; one below: the tip alone; offsets the wire cannot carry: nothing', () => {
    assert.deepEqual(a.service.headersForLocator([at(HEAD)], 0).headers, []);
    assert.deepEqual(
      page(a.service.headersForLocator([at(HEAD - 1)], 0).headers),
      want(HEAD, HEAD),
    );
    assert.deepEqual(a.service.headersForLocator([at(HEAD - 1)], 1).headers, []);
    assert.deepEqual(a.service.headersForLocator([at(0)], 256).headers, []);
    assert.deepEqual(a.service.headersForLocator(Array(21).fill(at(0)), 0).headers, []);
  });

  it('blocks by hash: main chain and fork blocks as stored, unknown → null', () => {
    const got = a.service.blockByHash(at(TX_HEIGHT));
    assert.ok(got !== null);
    const frame = (block: Block) => toHex(encodeMessage({ type: 'Block', block }, 2, AUTO));
    assert.equal(frame(got), frame(txBlock));
    assert.equal(
      hashOfHeader(a.service.blockByHash(forkHash(303))?.header as BlockHeader),
      fork[2],
    );
    assert.equal(a.service.blockByHash(unknown(9)), null);
  });

  it('compact blocks: coinbase in full, short ids sorted by hash under a fresh nonce; unknown → null', () => {
    const cb = a.service.compactBlockByHash(at(TX_HEIGHT));
    assert.ok(cb !== null);
    assert.equal(hashOfHeader(cb.header), main[TX_HEIGHT]);
    // Stored items decode as Buffers: compare their bytes.
    const kernels = (ks: readonly TxKernel[]) =>
      ks.map((k) => toHex(encode(writeKernel, k, 2, AUTO)));
    const outputs = (os: readonly Output[]) =>
      os.map((o) => toHex(encode(writeOutput, o, 2, AUTO)));
    assert.deepEqual(
      kernels(cb.body.kernFull),
      kernels(txBlock.body.kernels.filter((k) => k.features.kind === 'Coinbase')),
    );
    assert.deepEqual(
      outputs(cb.body.outFull),
      outputs(txBlock.body.outputs.filter((o) => o.features === 'Coinbase')),
    );
    const ids = txBlock.body.kernels
      .filter((k) => k.features.kind === 'Plain')
      .map((k) => shortId(hashOf(writeKernel, k, AUTO), at(TX_HEIGHT), cb.nonce))
      .sort((x, y) => compareBytes(blake2b256(x), blake2b256(y)));
    assert.deepEqual(cb.body.kernIds.map(hex), ids.map(hex));
    // The bytes core/p2p sends decode (Epic's sorted-and-unique checks) and re-encode alike.
    const bytes = encodeMessage({ type: 'CompactBlock', block: cb }, 2, AUTO);
    const back = decodeMessage(msgTypeCode('CompactBlock'), bytes, 2, AUTO);
    assert.equal(toHex(encodeMessage(back, 2, AUTO)), toHex(bytes));
    // Each compact block draws its own nonce, as Epic's does.
    assert.notEqual(a.service.compactBlockByHash(at(TX_HEIGHT))?.nonce, cb.nonce);
    assert.equal(a.service.compactBlockByHash(unknown(9)), null);
  });

  it('a foundation block: two outputs in full, over the CompactBlock cap of test chains (as in Epic)', () => {
    const cb = a.service.compactBlockByHash(at(FOUNDATION_HEIGHT));
    assert.ok(cb !== null);
    assert.deepEqual(
      [cb.body.outFull.length, cb.body.kernFull.length, cb.body.kernIds.length],
      [2, 2, 0],
    );
    // Automated and usernet blocks are capped at 4,956 bytes, so a CompactBlock body at
    // 4 × 4,956 / 10 = 1,980; two outputs with their proofs make this one 2,012 bytes. Epic's
    // reader drops such a message: the P2P layer must not send it (GetBlock still works).
    assert.equal(encodeMessage({ type: 'CompactBlock', block: cb }, 2, AUTO).length, 2_012);
    assert.throws(() => encodeFrame({ type: 'CompactBlock', block: cb }, 2, AUTO), /TooLarge/);
  });

  it('every reply crosses the actor codec unchanged (plain data only)', () => {
    const headers = a.service.headersForLocator([at(0)], 0).headers;
    const msgHeaders = { type: 'Headers', headers } as const;
    const crossed = roundTrip({ headers }).headers;
    assert.equal(
      toHex(encodeFrame({ type: 'Headers', headers: crossed }, 2, AUTO)),
      toHex(encodeFrame(msgHeaders, 2, AUTO)),
    );
    const block = a.service.blockByHash(at(TX_HEIGHT)) as Block;
    assert.equal(
      toHex(encodeMessage({ type: 'Block', block: roundTrip(block) }, 2, AUTO)),
      toHex(encodeMessage({ type: 'Block', block }, 2, AUTO)),
    );
    const cb = a.service.compactBlockByHash(at(TX_HEIGHT));
    assert.ok(cb !== null);
    assert.equal(
      toHex(encodeMessage({ type: 'CompactBlock', block: roundTrip(cb) }, 2, AUTO)),
      toHex(encodeMessage({ type: 'CompactBlock', block: cb }, 2, AUTO)),
    );
    assert.deepEqual(
      roundTrip(a.service.locator()).hashes.map(hex),
      a.service.locator().hashes.map(hex),
    );
    assert.equal(roundTrip(a.service.blockByHash(unknown(9))), null);
  });
});

describe('serving blocks on a pruned node', { timeout: 120_000 }, () => {
  let c: LocalChain;
  const hashes: Uint8Array[] = [];

  before(async () => {
    c = localChain({ standIns: true, compactionRoll: never });
    hashes.push(c.service.getTip().lastBlockPushed);
    for (let h = 1; h <= 190; h++) hashes.push((await c.mineNext()).hash);
  });
  after(async () => {
    await c?.close();
  });

  it('keeps the blocks from head − horizon − 60 (automated: horizon 70)', () => {
    const kept = (h: number) => c.service.blockByHash(hashes[h] as Uint8Array) !== null;
    // Compaction has been due since 130 (tail 0 + 70 + 60); run at 190 it moves the tail to
    // the horizon, 120, and keeps the blocks from 60: 131 heights, horizon + 61.
    assert.equal(c.service.compactChain(), true);
    assert.deepEqual([kept(59), kept(60), kept(120), kept(190)], [false, true, true, true]);
    assert.equal(c.service.compactBlockByHash(hashes[59] as Uint8Array), null);
    assert.equal(c.service.compactBlockByHash(hashes[60] as Uint8Array)?.header.height, 60n);
    // Headers stay: a locator from genesis still gets all 190.
    const headers = c.service.headersForLocator([hashes[0] as Uint8Array], 0).headers;
    assert.deepEqual([headers.length, headers.at(-1)?.height], [190, 190n]);
    assert.equal(c.service.validateChain(), null);
  });
});
