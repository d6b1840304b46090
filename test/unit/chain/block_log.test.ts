// What the chain logs of the blocks it is given (issue 22): accepted with source, txs and time;
// an orphan held for its parent; the reorg its parent's arrival causes, with its depth; a
// duplicate at debug; undecodable bytes refused with the reason. Real chain, real SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChainError } from '../../../actors/chain/errors.js';
import { toHex } from '../../../core/bytes.js';
import { headerHash } from '../../../core/ser/header.js';
import type { Block } from '../../../core/types/block.js';
import type { LogLevelName } from '../../../node/log.js';
import { type LocalChain, localChain } from '../../support/local_chain.js';
import { AUTO } from '../../support/miner.js';

const hashOf = (b: Block): string => toHex(headerHash(b.header, AUTO));

interface Line {
  event: string;
  level: LogLevelName;
  fields: Record<string, unknown>;
}

describe('the chain log of blocks', { timeout: 120_000 }, () => {
  const refs: LocalChain[] = [];
  let chain: LocalChain;
  let a1: Block;
  let a2: Block;
  let b1: Block;
  const logged: Line[] = [];
  /** The lines logged since the last call, `ms` dropped (a time). */
  const fresh = (): Line[] =>
    logged.splice(0).map((l) => {
      const { ms: _ms, ...fields } = l.fields;
      return { ...l, fields };
    });

  before(async () => {
    const a = localChain();
    refs.push(a);
    a1 = await a.mineBlock();
    await a.submit(a1);
    a2 = await a.mineBlock();
    // Another chain's block 1, a second later: another timestamp, another hash.
    await new Promise((r) => setTimeout(r, 1100));
    const b = localChain();
    refs.push(b);
    b1 = await b.mineBlock();
    assert.notEqual(hashOf(b1), hashOf(a1));
    chain = localChain({
      log: (event, fields, level = 'info') => logged.push({ event, level, fields }),
    });
  });
  after(async () => {
    for (const r of refs) await r.close();
    await chain?.close();
  });

  it('an accepted block: height, hash, source, status, txs, sizes', async () => {
    await chain.submit(b1);
    assert.equal(typeof logged.at(-1)?.fields.ms, 'number');
    const lines = fresh();
    assert.deepEqual(lines, [
      {
        event: 'block_accepted',
        level: 'info',
        fields: {
          height: 1,
          hash: hashOf(b1),
          source: 'api',
          status: 'next',
          txs: 0,
          inputs: 0,
          outputs: 1,
          kernels: 1,
        },
      },
    ]);
  });

  it('an orphan, then its parent (a fork), the orphan released as a reorg of depth 1', async () => {
    await assert.rejects(chain.submit(a2), (e) => e instanceof ChainError && e.kind === 'Orphan');
    assert.deepEqual(fresh(), [
      {
        event: 'block_orphan',
        level: 'info',
        fields: { height: 2, hash: hashOf(a2), source: 'api', orphans: 1 },
      },
    ]);
    assert.equal((await chain.submit(a1)).status, 'fork');
    const common = { txs: 0, inputs: 0, outputs: 1, kernels: 1 };
    assert.deepEqual(fresh(), [
      {
        event: 'block_accepted',
        level: 'info',
        fields: { height: 1, hash: hashOf(a1), source: 'api', status: 'fork', ...common },
      },
      {
        event: 'block_accepted',
        level: 'info',
        fields: { height: 2, hash: hashOf(a2), source: 'orphan', status: 'reorg', ...common },
      },
      {
        event: 'reorg',
        level: 'warn',
        fields: { height: 2, hash: hashOf(a2), source: 'orphan', depth: 1 },
      },
    ]);
  });

  it('a duplicate is a debug line; bytes that are no block are refused with the reason', async () => {
    await assert.rejects(chain.submit(a1));
    const [dup] = fresh();
    assert.deepEqual(
      [dup?.event, dup?.level, dup?.fields.height, dup?.fields.hash, dup?.fields.source],
      ['block_unfit', 'debug', 1, hashOf(a1), 'api'],
    );
    assert.match(String(dup?.fields.reason), /^Block is unfit: already /);
    await assert.rejects(
      chain.service.submitBlock(new Uint8Array([1, 2, 3]), () => undefined, 'peer'),
    );
    const [line] = fresh();
    assert.deepEqual(
      [line?.event, line?.level, line?.fields.source],
      ['block_rejected', 'warn', 'peer'],
    );
    assert.match(String(line?.fields.reason), /.+/);
  });
});
