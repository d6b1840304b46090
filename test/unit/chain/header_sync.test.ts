// Header sync in the chain actor (issue 18, item 1), on real chain databases with stand-in proofs
// of work (everything else validated): chain A mines 30 blocks, chain C shares A's first 10 and
// mines 25 of its own (more work than A's 30), then A goes on to 45. A fresh node B takes their
// headers without bodies, then the bodies, and the three heads (body, header, sync) move apart
// and back as Epic's do; restarts keep them. Refusals: the first bad header of a batch stops it,
// the headers before it stay, the ones after are never stored.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ChainError, isBadData } from '../../../actors/chain/errors.js';
import type { HeadRef } from '../../../actors/chain/messages.js';
import { DB_FILE } from '../../../actors/chain/store.js';
import { toHex } from '../../../core/bytes.js';
import { headerHash } from '../../../core/ser/header.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { AUTO } from '../../support/miner.js';

const never = () => false;
const hex = (b: Uint8Array): string => toHex(b);
const hashOf = (h: BlockHeader): string => hex(headerHash(h, AUTO));
const at = (ref: HeadRef): string => `${ref.height}:${hex(ref.hash)}`;

/** Mines `count` blocks on `chain`'s head; their hashes (hex), lowest first. */
async function mine(chain: LocalChain, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const reply = await chain.mineNext();
    assert.notEqual(reply.status, 'fork');
    out.push(hex(reply.hash));
  }
  return out;
}

function headerOf(from: LocalChain, hash: string): BlockHeader {
  const block = from.service.blockByHash(Uint8Array.from(Buffer.from(hash, 'hex')));
  assert.ok(block !== null, `no block ${hash}`);
  return block.header;
}

/** What `from` answers `to`'s locator (offset 0), as a peer would. */
function headersFor(from: LocalChain, to: LocalChain, locatorFrom?: 'sync_head'): BlockHeader[] {
  const locator = to.service.locator(locatorFrom).hashes;
  return from.service.headersForLocator(locator, 0).headers;
}

async function submitAll(to: LocalChain, from: LocalChain, hashes: readonly string[]) {
  for (const h of hashes) {
    const block = from.service.blockByHash(Uint8Array.from(Buffer.from(h, 'hex')));
    assert.ok(block !== null);
    await to.submit(block);
  }
}

function heads(chain: LocalChain): { head: string; headerHead: string; syncHead: string } {
  const s = chain.service.syncState();
  return { head: at(s.head), headerHead: at(s.headerHead), syncHead: at(s.syncHead) };
}

const missing = (chain: LocalChain, max: number): string[] =>
  chain.service.missingBodies(max).hashes.map(hex);

/** Heights of the headers the database of `chain` holds (closed or not: WAL reads fine). */
function storedHeights(chain: LocalChain): number[] {
  const db = new Database(join(chain.dbRoot, 'chain_data', DB_FILE), { readonly: true });
  try {
    return db.prepare<[], number>('SELECT height FROM headers ORDER BY height').pluck().all();
  } finally {
    db.close();
  }
}

async function refused(p: Promise<unknown>, kind: string): Promise<ChainError> {
  let caught: unknown;
  await p.then(
    () => assert.fail(`expected ${kind}`),
    (e: unknown) => {
      caught = e;
    },
  );
  assert.ok(caught instanceof ChainError, String(caught));
  assert.equal(caught.kind, kind, caught.message);
  return caught;
}

describe('header sync: headers ahead of the body', { timeout: 300_000 }, () => {
  let a: LocalChain;
  let c: LocalChain;
  let b: LocalChain;
  /** Main-chain hashes by height; index 0 is genesis. */
  const main: string[] = [];
  /** C's fork, heights 11…35. */
  const fork: string[] = [];
  const ref = (list: readonly string[], from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => list[from + i] as string);
  const mainAt = (h: number) => `${h}:${main[h]}`;
  const forkAt = (h: number) => `${h}:${fork[h - 11]}`;

  before(async () => {
    const opts = { standIns: true, compactionRoll: never };
    a = localChain(opts);
    c = localChain(opts);
    b = localChain(opts);
    main.push(hex(a.service.getTip().lastBlockPushed));
    main.push(...(await mine(a, 30)));
    await submitAll(c, a, ref(main, 1, 10));
    fork.push(...(await mine(c, 25)));
  });
  after(async () => {
    await a?.close();
    await c?.close();
    await b?.close();
  });

  it('a header batch moves the header head (and sync head) ahead of the body head', async () => {
    const headers = headersFor(a, b);
    assert.deepEqual(headers.map(hashOf), ref(main, 1, 30));
    const reply = await b.service.syncHeaders(headers);
    assert.equal(at(reply.headerHead), mainAt(30));
    assert.deepEqual(heads(b), { head: mainAt(0), headerHead: mainAt(30), syncHead: mainAt(30) });
    // getHead, getTip (get_status) still report the body.
    assert.equal(b.service.getTip().height, 0n);
    assert.equal(b.service.getHead().tip.height, 0n);
    // The same batch again: nothing new, nothing moves.
    assert.equal(at((await b.service.syncHeaders(headers)).headerHead), mainAt(30));
    // The header chain serves and locates from the header head.
    assert.deepEqual(b.service.locator().hashes.map(hex).slice(0, 2), [main[30], main[28]]);
    assert.deepEqual(a.service.headersForLocator(b.service.locator().hashes, 0).headers, []);
    assert.deepEqual(
      b.service.headersForLocator([Buffer.from(main[0] as string, 'hex')], 0).headers.map(hashOf),
      ref(main, 1, 30),
    );
    b.service.validateChain();
  });

  it('missingBodies lists exactly the gap, lowest first, at most max', () => {
    assert.deepEqual(missing(b, 100), ref(main, 1, 30));
    assert.deepEqual(missing(b, 5), ref(main, 1, 5));
    assert.deepEqual(missing(b, 0), []);
  });

  it('blocks for those headers are processed as bodies and advance the body head', async () => {
    await submitAll(b, a, ref(main, 1, 10));
    assert.deepEqual(heads(b), { head: mainAt(10), headerHead: mainAt(30), syncHead: mainAt(30) });
    assert.deepEqual(missing(b, 100), ref(main, 11, 30));
    // A block arriving out of order is an orphan until its parent comes, as before.
    const late = a.service.blockByHash(Buffer.from(main[12] as string, 'hex'));
    assert.ok(late !== null);
    await refused(b.submit(late), 'Orphan');
    await submitAll(b, a, ref(main, 11, 11));
    assert.equal(heads(b).head, mainAt(12), 'the orphan followed its parent');
    assert.deepEqual(missing(b, 3), ref(main, 13, 15));
    b.service.validateChain();
  });

  it('a fork batch with less work is stored and moves only the sync head', async () => {
    const first = fork.slice(0, 15).map((h) => headerOf(c, h)); // heights 11…25
    const reply = await b.service.syncHeaders(first);
    assert.equal(at(reply.headerHead), mainAt(30));
    assert.deepEqual(heads(b), { head: mainAt(12), headerHead: mainAt(30), syncHead: forkAt(25) });
    // The sync head's locator continues the fork; the header head's stays on A.
    const fromSync = b.service.locator('sync_head').hashes.map(hex);
    assert.deepEqual(fromSync, [fork[14], fork[12], fork[8], fork[0], main[0]]);
    assert.deepEqual(headersFor(c, b, 'sync_head').map(hashOf), ref(fork, 15, 24));
    assert.deepEqual(missing(b, 100), ref(main, 13, 30));
  });

  it('restart keeps the three heads apart', async () => {
    const before = heads(b);
    const gap = missing(b, 100);
    await b.close(true);
    b = localChain({ standIns: true, compactionRoll: never, dbRoot: b.dbRoot });
    assert.deepEqual(heads(b), before);
    assert.deepEqual(missing(b, 100), gap);
    b.service.validateChain();
  });

  it('the rest of the fork, now with more work, moves the header head onto it', async () => {
    const rest = headersFor(c, b, 'sync_head');
    const reply = await b.service.syncHeaders(rest);
    assert.equal(at(reply.headerHead), forkAt(35));
    assert.deepEqual(heads(b), { head: mainAt(12), headerHead: forkAt(35), syncHead: forkAt(35) });
    // The body head is on A: body sync fetches the fork from where the two chains meet (10).
    assert.deepEqual(missing(b, 100), ref(fork, 0, 24));
    assert.deepEqual(b.service.locator().hashes.map(hex).slice(0, 3), [
      fork[24],
      fork[22],
      fork[18],
    ]);
    b.service.validateChain();
  });

  it('the fork bodies reorganize the body head onto the header chain', async () => {
    await submitAll(b, c, fork);
    assert.deepEqual(heads(b), { head: forkAt(35), headerHead: forkAt(35), syncHead: forkAt(35) });
    assert.deepEqual(missing(b, 100), []);
    b.service.validateChain();
  });

  it('and back: A, grown to 45, takes the header head back ahead of the body', async () => {
    main.push(...(await mine(a, 15)));
    const reply = await b.service.syncHeaders(headersFor(a, b));
    assert.equal(at(reply.headerHead), mainAt(45));
    assert.deepEqual(heads(b).head, forkAt(35));
    // A's 13…30 were never fetched: body sync wants them and A's new 31…45.
    assert.deepEqual(missing(b, 100), ref(main, 13, 45));
    await submitAll(b, a, ref(main, 13, 45));
    assert.deepEqual(heads(b), { head: mainAt(45), headerHead: mainAt(45), syncHead: mainAt(45) });
    assert.deepEqual(missing(b, 10), []);
    b.service.validateChain();
  });

  it('a bad header in the middle stops the batch: the ones before it stay, none after', async () => {
    const fresh = localChain({ standIns: true, compactionRoll: never });
    try {
      const headers = ref(main, 1, 12).map((h) => headerOf(a, h));
      const bad = [...headers];
      const sixth = headers[5] as BlockHeader; // height 6
      bad[5] = { ...sixth, version: sixth.version + 1 };
      const e = await refused(fresh.service.syncHeaders(bad), 'InvalidBlockVersion');
      assert.equal(isBadData(e.kind), true);
      assert.equal(at(fresh.service.syncState().headerHead), mainAt(5));
      assert.deepEqual(storedHeights(fresh), [0, 1, 2, 3, 4, 5]);
      // A batch whose parent is unknown: Orphan, not the peer's fault.
      const orphan = await refused(fresh.service.syncHeaders(headers.slice(7)), 'Orphan');
      assert.equal(isBadData(orphan.kind), false);
      // Headers that do not follow each other: the first one is valid, and kept.
      const gap = [headers[5], headers[7]] as BlockHeader[];
      assert.equal(isBadData((await refused(fresh.service.syncHeaders(gap), 'Other')).kind), false);
      assert.deepEqual(storedHeights(fresh), [0, 1, 2, 3, 4, 5, 6]);
      assert.equal(at(fresh.service.syncState().headerHead), mainAt(6));
      // A wrong prev_root (the header MMR's root at its parent).
      const rooted = { ...(headers[6] as BlockHeader), prevRoot: new Uint8Array(32).fill(1) };
      const root = await refused(fresh.service.syncHeaders([rooted]), 'InvalidRoot');
      assert.equal(isBadData(root.kind), true);
      assert.deepEqual(storedHeights(fresh), [0, 1, 2, 3, 4, 5, 6]);
      // The good headers still go on from there.
      const reply = await fresh.service.syncHeaders(headers.slice(5));
      assert.equal(at(reply.headerHead), mainAt(12));
      fresh.service.validateChain();
    } finally {
      await fresh.close();
    }
  });
});
