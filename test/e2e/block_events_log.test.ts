// Issue 22's block event classes in a real node's log (stderr, JSON lines): blocks accepted from
// the API, from the stratum server (the test miner mining through it) and out of the orphan pool;
// an orphan held for its parent; the reorg that parent's arrival causes, with its depth; a block
// refused with its reason. Two automated nodes share blocks 1–2; the second mines its own 3' and
// 4', which reach the first in the wrong order, after the first's own block 3.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block } from '../../core/types/block.js';
import { AUTO, foreignOk, mineBlock, submit } from '../support/miner.js';
import {
  type NodeProcess,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { waitUntil } from '../support/wallet_e2e.js';

type Event = Record<string, unknown>;

const hashOf = (b: Block): string => toHex(headerHash(b.header, AUTO));

/** The JSON lines of a node's stderr, `ts` and `ms` (times) left out. */
function events(node: NodeProcess): Event[] {
  return node
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      const { ts: _ts, ms, ...rest } = JSON.parse(l) as Event;
      assert.ok(ms === undefined || typeof ms === 'number');
      return rest;
    });
}

const blockLines = (node: NodeProcess, hash: string): Event[] =>
  events(node).filter((e) => e.hash === hash);

async function accepted(url: string, block: Block): Promise<void> {
  assert.deepEqual((await submit(url, block)).body.result, { Ok: null });
}

const POLICY = 'pow_policy = { cuckatoo = 100 }';

describe('block events in the node log', { timeout: 180_000 }, () => {
  let a: NodeProcess;
  let b: NodeProcess;
  let miner: NodeProcess;
  const homes: string[] = [];
  const started = async (opts: Parameters<typeof startNodeProcess>[0] = {}) => {
    const home = tempHome();
    homes.push(home);
    return startNodeProcess({ home, serverLines: [POLICY], ...opts });
  };

  before(async () => {
    [a, b] = await Promise.all([started(), started()]);
  });
  after(async () => {
    for (const n of [a, b, miner]) await n?.stop();
    for (const h of homes) removeHome(h);
  });

  it('logs a block from the API with its height, hash, source, status and sizes', async () => {
    const first = await mineBlock(a.url, { keyIndex: 1 });
    await accepted(a.url, first);
    await accepted(b.url, first);
    assert.deepEqual(blockLines(a, hashOf(first)), [
      {
        level: 'info',
        event: 'block_accepted',
        height: 1,
        hash: hashOf(first),
        source: 'api',
        status: 'next',
        txs: 0,
        inputs: 0,
        outputs: 1,
        kernels: 1,
      },
    ]);
  });

  it('logs an orphan, then the reorg its parent brings, and the orphan accepted after it', async () => {
    const second = await mineBlock(a.url, { keyIndex: 2 });
    await accepted(a.url, second);
    await accepted(b.url, second);
    await accepted(a.url, await mineBlock(a.url, { keyIndex: 3 }));
    // A second later: another timestamp, so B's 3' is not A's 3.
    await new Promise((r) => setTimeout(r, 1100));
    const fork3 = await mineBlock(b.url, { keyIndex: 103 });
    await accepted(b.url, fork3);
    const fork4 = await mineBlock(b.url, { keyIndex: 104 });
    await accepted(b.url, fork4);

    const orphan = await submit(a.url, fork4);
    assert.equal(orphan.status, 200);
    assert.deepEqual(blockLines(a, hashOf(fork4)), [
      {
        level: 'info',
        event: 'block_orphan',
        height: 4,
        hash: hashOf(fork4),
        source: 'api',
        orphans: 1,
      },
    ]);
    await accepted(a.url, fork3);
    const common = { txs: 0, inputs: 0, outputs: 1, kernels: 1 };
    assert.deepEqual(blockLines(a, hashOf(fork3)), [
      {
        level: 'info',
        event: 'block_accepted',
        height: 3,
        hash: hashOf(fork3),
        source: 'api',
        status: 'fork',
        ...common,
      },
    ]);
    assert.deepEqual(blockLines(a, hashOf(fork4)).slice(1), [
      {
        level: 'info',
        event: 'block_accepted',
        height: 4,
        hash: hashOf(fork4),
        source: 'orphan',
        status: 'reorg',
        ...common,
      },
      { level: 'warn', event: 'reorg', height: 4, hash: hashOf(fork4), source: 'orphan', depth: 1 },
    ]);
  });

  it('logs a refused block with its reason, as a warning', async () => {
    const block = await mineBlock(a.url, { keyIndex: 5 });
    const forged: Block = {
      ...block,
      header: { ...block.header, pow: { ...block.header.pow, nonce: block.header.pow.nonce + 1n } },
    };
    const reply = await submit(a.url, forged);
    assert.equal(reply.status, 200);
    assert.ok(reply.body.result !== undefined && 'Err' in reply.body.result);
    const lines = blockLines(a, hashOf(forged));
    assert.equal(lines.length, 1);
    assert.deepEqual(lines[0], {
      level: 'warn',
      event: 'block_rejected',
      height: 5,
      hash: hashOf(forged),
      source: 'api',
      reason: 'Invalid PoW',
    });
  });

  it('logs blocks found through the stratum server as its own source', async () => {
    miner = await started({
      serverLines: [POLICY, 'run_test_miner = true', 'test_miner_stratum = true'],
      stratumLines: [
        'enable_stratum_server = true',
        'stratum_server_addr = "127.0.0.1:0"',
        'burn_reward = true',
      ],
    });
    await waitUntil(
      () => events(miner).some((e) => e.event === 'block_accepted' && e.source === 'stratum'),
      60_000,
      () => `no block from stratum:\n${miner.stderr().slice(-2000)}`,
    );
    const line = events(miner).find((e) => e.event === 'block_accepted') as Event;
    // Block 1 is the miner's own first block: the node's header at height 1 names it.
    const header = (await foreignOk(miner.url, 'get_header', [1, null, null])) as { hash: string };
    assert.deepEqual(line, {
      level: 'info',
      event: 'block_accepted',
      height: 1,
      hash: header.hash,
      source: 'stratum',
      status: 'next',
      txs: 0,
      inputs: 0,
      outputs: 1,
      kernels: 1,
    });
  });
});
