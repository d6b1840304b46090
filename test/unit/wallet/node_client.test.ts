// The wallet's node client (actors/wallet/node_client.ts) against the real mwnode: three blocks
// mined with the test miner's precomputed coinbases, then every call the wallet makes, Epic's
// error mapping (Unauthorized, RPC errors, unreachable node, oversized replies), and a restore
// scan page matched with the miner's keychain.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NodeClient, NodeClientError } from '../../../actors/wallet/node_client.js';
import { scanChain } from '../../../actors/wallet/scan.js';
import { toHex } from '../../../core/bytes.js';
import { headerHash } from '../../../core/ser/header.js';
import type { Block } from '../../../core/types/block.js';
import { ScanMatcher } from '../../../core/wallet/scan_match.js';
import { MINER_KEYCHAIN } from '../../support/coinbases.js';
import { type KillableNode, startKillable } from '../../support/killable_node.js';
import { AUTO, mineBlock, submit } from '../../support/miner.js';
import { ownerSecret, removeHome } from '../../support/node_process.js';

let node: KillableNode;
let secret: string;
const blocks: Block[] = [];

const client = (
  over: { secret?: string | null; maxResponseBytes?: number; outputChunk?: number } = {},
) =>
  new NodeClient({
    url: node.url,
    secret: over.secret === undefined ? secret : over.secret,
    timeoutMs: 10_000,
    ...(over.maxResponseBytes === undefined ? {} : { maxResponseBytes: over.maxResponseBytes }),
    ...(over.outputChunk === undefined ? {} : { outputChunk: over.outputChunk }),
  });

async function rejectsWith(
  p: Promise<unknown>,
  kind: string,
  detail: RegExp | string,
): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof NodeClientError, String(e));
    assert.equal(e.kind, kind);
    if (typeof detail === 'string') assert.equal(e.detail, detail);
    else assert.match(e.detail, detail);
    return true;
  });
}

const coinbaseOf = (b: Block) => b.body.outputs[0];

before(async () => {
  node = await startKillable();
  secret = (ownerSecret(node.home).split(/\r?\n/)[0] ?? '').trim();
  for (let i = 0; i < 3; i++) {
    const block = await mineBlock(node.url);
    assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
    blocks.push(block);
  }
});

after(async () => {
  await node.stop();
  removeHome(node.home);
});

describe('NodeClient against a real node (3 blocks)', () => {
  it('get_version', async () => {
    assert.deepEqual(await client().getVersion(), { nodeVersion: '4.0.0', blockHeaderVersion: 6 });
    const c = client();
    const info = await c.versionInfo();
    assert.deepEqual(info, { nodeVersion: '4.0.0', blockHeaderVersion: 6, verified: true });
    assert.equal(await c.versionInfo(), info); // cached: the same object
  });

  it('get_tip: height and tip hash', async () => {
    const last = blocks[2] as Block;
    assert.deepEqual(await client().getTip(), {
      height: 3n,
      lastBlockPushed: toHex(headerHash(last.header, AUTO)),
    });
  });

  it('get_status on the owner API: synced, tip 3', async () => {
    const s = await client().getStatus();
    assert.equal(s.syncStatus, 'no_sync');
    assert.equal(s.tip.height, 3n);
    assert.equal(s.tip.lastBlockPushed, toHex(headerHash((blocks[2] as Block).header, AUTO)));
    assert.equal(s.tip.prevBlockToLast, toHex(headerHash((blocks[1] as Block).header, AUTO)));
    assert.equal(s.protocolVersion, 2);
    assert.equal(s.connections, 0);
  });

  it('get_status with a wrong or missing secret is Unauthorized', async () => {
    for (const bad of ['wrong', null]) {
      const e = await client({ secret: bad })
        .getStatus()
        .then(
          () => null,
          (x: unknown) => x,
        );
      assert.ok(e instanceof NodeClientError);
      assert.equal(e.kind, 'Unauthorized');
      assert.equal(e.message, 'Unauthorized (HTTP 401): Authentication failed');
      assert.equal(e.err, 'Unauthorized');
    }
  });

  it('get_outputs in chunks: found coinbases with heights and MMR positions, unknown omitted', async () => {
    const commits = blocks.map((b) => toHex(coinbaseOf(b)?.commit as Uint8Array));
    const unknown = `08${'11'.repeat(32)}`;
    const found = await client({ outputChunk: 2 }).getOutputs([...commits, unknown]);
    assert.deepEqual(
      [...found.entries()].sort((a, b) => Number(a[1].height - b[1].height)),
      [
        [commits[0], { height: 1n, mmrIndex: 1n }],
        [commits[1], { height: 2n, mmrIndex: 2n }],
        [commits[2], { height: 3n, mmrIndex: 4n }],
      ],
    );
    assert.equal((await client().getOutputs([])).size, 0);
  });

  it('get_kernel: a coinbase kernel by excess, null when not found', async () => {
    const k = (blocks[1] as Block).body.kernels[0];
    assert.ok(k !== undefined);
    const hit = await client().getKernel(toHex(k.excess), 1n, 3n);
    assert.equal(hit?.height, 2n);
    assert.equal(hit?.mmrIndex, 2n);
    assert.equal(toHex(hit?.kernel.excessSig as Uint8Array), toHex(k.excessSig));
    assert.equal(await client().getKernel(toHex(k.excess), 3n, 3n), null);
    assert.equal(await client().getKernel(`09${'22'.repeat(32)}`, null, null), null);
  });

  it('get_pmmr_indices and get_unspent_outputs pages; the miner keychain finds its coinbases', async () => {
    const range = await client().getPmmrIndices(1n, null);
    assert.deepEqual(range, { startIndex: 1n, endIndex: 4n });
    const page = await client().getUnspentOutputs(range.startIndex, range.endIndex, 2n);
    assert.equal(page.highestIndex, 4n);
    assert.equal(page.lastRetrievedIndex, 2n);
    assert.equal(page.outputs.length, 2);
    const rest = await client().getUnspentOutputs(
      page.lastRetrievedIndex + 1n,
      range.endIndex,
      1000n,
    );
    assert.equal(rest.lastRetrievedIndex, 4n);
    const all = [...page.outputs, ...rest.outputs];
    const found = new ScanMatcher(MINER_KEYCHAIN, 'automated').matchPage(all);
    assert.deepEqual(
      found.map((f) => [f.keyId, f.height, f.lockHeight, f.mmrIndex, f.isCoinbase]),
      [
        ['0200000000000000010000000000000000', 1n, 4n, 1n, true],
        ['0200000000000000020000000000000000', 2n, 5n, 2n, true],
        ['0200000000000000030000000000000000', 3n, 6n, 4n, true],
      ],
    );
  });

  it('scanChain drives the client: heights 1–3 give the three coinbases', async () => {
    const seen: string[] = [];
    const matcher = new ScanMatcher(MINER_KEYCHAIN, 'automated');
    const r = await scanChain(client(), matcher, 1n, 3n, (m) => {
      if (m.kind === 'Scanning' && !m.message.startsWith('\n'))
        seen.push(`${m.percent} ${m.message}`);
    });
    assert.deepEqual(
      r.found.map((f) => f.height),
      [1n, 2n, 3n],
    );
    assert.equal(r.startPmmrIndex, 1n);
    assert.equal(r.lastPmmrIndex, 4n);
    assert.deepEqual(seen, [
      '0 Starting UTXO scan',
      '99 Checking 3 outputs (from PMMR index 1 to 4, highest: 4).',
      '99 Identified 3 wallet_outputs as belonging to this wallet',
    ]);
  });

  it('push_transaction: a malformed transaction is the node’s RPC error → BadRequest', async () => {
    await rejectsWith(
      client().pushTransaction({}, false),
      'BadRequest',
      'Unable to parse response for push_transaction: RPC error response',
    );
  });

  it('a reply larger than the bound is refused', async () => {
    await rejectsWith(
      client({ maxResponseBytes: 200 }).getUnspentOutputs(1n, 4n, 1000n),
      'ClientCallback',
      /^Error calling get_unspent_outputs: Request error: Cannot make request: reply .*exceeds 200/,
    );
  });
});

describe('NodeClient: unreachable node', () => {
  it('is a ClientCallback error naming the call', async () => {
    const c = new NodeClient({ url: 'http://127.0.0.1:1', secret: null, timeoutMs: 2000 });
    await rejectsWith(
      c.getTip(),
      'ClientCallback',
      /^Error calling get_tip: Request error: Cannot make request: /,
    );
    await rejectsWith(
      c.getOutputs(['08']),
      'ClientCallback',
      /^Getting outputs by id: Request error: /,
    );
    const e = await c.getTip().catch((x: unknown) => x);
    assert.ok(e instanceof NodeClientError);
    assert.match(e.message, /^Client Callback Error: Error calling get_tip/);
    assert.deepEqual(Object.keys(e.err as object), ['ClientCallback']);
    assert.equal(await c.versionInfo(), null);
  });
});
