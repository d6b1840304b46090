// Header sync on Epic's own usernet chain (../shared/vectors/p2p, 147 blocks, 88 RandomX and 59
// Cuckatoo15 proofs, policy `{ randomx = 60, cuckatoo = 40 }`), every proof of work really
// verified in the worker pool: a header with a broken proof in the middle of a batch is refused
// as InvalidPow (bad data) and nothing from it on is stored; the whole chain's headers then go
// in as batches of 64, the header head reaching 147 while the body stays at genesis; the blocks
// follow as bodies and the body head reaches 147 with Epic's hashes. Skipped without the RandomX
// addon.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ChainError, isBadData } from '../../../actors/chain/errors.js';
import type { ChainService } from '../../../actors/chain/service.js';
import { DB_FILE } from '../../../actors/chain/store.js';
import { toHex } from '../../../core/bytes.js';
import { CHAIN_PARAMS } from '../../../core/chain_type.js';
import { readBlock } from '../../../core/ser/block.js';
import { decode } from '../../../core/ser/codec.js';
import type { BlockHeader } from '../../../core/types/block.js';
import { findRandomXAddon } from '../../../jobs/randomx_addon.js';
import { hex } from '../../support/crypto.js';
import { type UsernetService, usernetBlocks, usernetService } from '../../support/usernet_chain.js';

const USER = CHAIN_PARAMS.usernet;

const chain = usernetBlocks();

const headerAt = (height: number): BlockHeader =>
  decode(readBlock, hex(chain[height]?.hex as string), 2, USER, 'block').header;

describe("header sync of Epic's usernet chain, every proof verified", {
  skip: findRandomXAddon() === null ? 'RandomX addon not built' : false,
  timeout: 300_000,
}, () => {
  let usernet: UsernetService;
  let service: ChainService;
  const storedHeights = (): number[] => {
    const db = new Database(join(usernet.dbRoot, DB_FILE), { readonly: true });
    try {
      return db.prepare<[], number>('SELECT height FROM headers ORDER BY height').pluck().all();
    } finally {
      db.close();
    }
  };

  before(() => {
    usernet = usernetService();
    service = usernet.service;
  });
  after(() => usernet?.close());

  it('a broken RandomX proof at 20 stops a batch of 1…30: 1…19 stored, nothing after', async () => {
    const headers = Array.from({ length: 30 }, (_, i) => headerAt(i + 1));
    const twenty = headers[19] as BlockHeader;
    assert.equal(twenty.pow.proof.kind, 'RandomX');
    const broken = new Uint8Array(32).fill(7);
    headers[19] = { ...twenty, pow: { ...twenty.pow, proof: { kind: 'RandomX', hash: broken } } };
    let caught: unknown;
    await service.syncHeaders(headers).catch((e: unknown) => {
      caught = e;
    });
    assert.ok(caught instanceof ChainError, String(caught));
    assert.equal(caught.kind, 'InvalidPow');
    assert.equal(isBadData(caught.kind), true);
    assert.deepEqual(
      storedHeights(),
      Array.from({ length: 20 }, (_, i) => i),
    );
    const state = service.syncState();
    assert.equal(state.headerHead.height, 19n);
    assert.equal(toHex(state.headerHead.hash), chain[19]?.hash);
  });

  it('all 147 headers in batches of 64: the header head reaches 147, the body stays', async () => {
    for (let from = 1; from <= 147; from += 64) {
      const to = Math.min(from + 63, 147);
      const batch = Array.from({ length: to - from + 1 }, (_, i) => headerAt(from + i));
      const { headerHead } = await service.syncHeaders(batch);
      assert.equal(headerHead.height, BigInt(to));
      assert.equal(toHex(headerHead.hash), chain[to]?.hash);
    }
    const state = service.syncState();
    assert.equal(state.head.height, 0n);
    assert.equal(toHex(state.syncHead.hash), chain[147]?.hash);
    assert.deepEqual(
      service.missingBodies(200).hashes.map(toHex),
      chain.slice(1).map((b) => b.hash),
    );
    service.validateChain();
  });

  it("the blocks follow as bodies: the body head reaches 147 with Epic's hashes", async () => {
    for (const b of chain.slice(1)) {
      const reply = await service.submitBlock(hex(b.hex as string), () => undefined);
      assert.equal(toHex(reply.hash), b.hash);
      assert.equal(reply.status, 'next');
    }
    const state = service.syncState();
    assert.equal(state.head.height, 147n);
    assert.equal(toHex(state.head.hash), chain[147]?.hash);
    assert.equal(toHex(state.headerHead.hash), chain[147]?.hash);
    assert.deepEqual(service.missingBodies(10).hashes, []);
    service.validateChain();
  });
});
