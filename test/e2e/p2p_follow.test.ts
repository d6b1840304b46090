// Two real nodes on loopback: B, seeded with A, follows every block A mines through header-first
// relay (Header → GetCompactBlock → CompactBlock, or the full Block where the compact form is
// over its cap), and a transaction pushed to B reaches A's pool and is mined by A into a block
// B then holds. Headers and blocks A serves to a scripted Epic peer are checked byte for byte
// against what A's own API reports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { chainParams } from '../../core/chain_type.js';
import { headerHash } from '../../core/ser/header.js';
import { transactionToJson } from '../../core/serde/transaction.js';
import { EpicPeer, genesisHashOf } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { foreignOk, foreignRpc, mineBlock, submit } from '../support/miner.js';
import {
  type NodeProcess,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { spendCoinbase } from '../support/spend.js';

const PARAMS = chainParams('automated');
const BLOCKS = 12;

type Tip = { height: number; last_block_pushed: string };

const tipOf = async (n: NodeProcess) => (await foreignOk(n.url, 'get_tip', [])) as Tip;

const until = pollUntil;

describe('two nodes on loopback', () => {
  let a: NodeProcess;
  let b: NodeProcess;
  before(async () => {
    a = await startNodeProcess({ serverLines: [CUCKATOO_ONLY] });
    b = await startNodeProcess({
      serverLines: [CUCKATOO_ONLY],
      p2pLines: [
        'seeding_type = "List"',
        'peer_min_preferred_outbound_count = 1',
        `seeds = ["127.0.0.1:${p2pPortOf(a)}"]`,
      ],
    });
    const linked = await until(
      async () => a.stderr(),
      (log) => log.includes('"event":"p2p_peer_connected"'),
      10_000,
    );
    assert.match(linked, /"event":"p2p_peer_connected","addr":"[^"]+","direction":"Inbound"/);
  });
  after(async () => {
    for (const n of [b, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
  });

  it(`B reaches each of ${BLOCKS} tips A mines within 2 s`, async () => {
    const lags: number[] = [];
    for (let i = 0; i < BLOCKS; i++) {
      const block = await mineBlock(a.url);
      assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
      const t0 = Date.now();
      const hash = toHex(headerHash(block.header, PARAMS));
      const tip = await until(
        () => tipOf(b),
        (t) => t.last_block_pushed === hash,
        5_000,
      );
      assert.equal(
        tip.last_block_pushed,
        hash,
        `B at ${tip.height}, A mined ${block.header.height}`,
      );
      lags.push(Date.now() - t0);
    }
    lags.sort((x, y) => x - y);
    const p95 = lags[Math.ceil(lags.length * 0.95) - 1] ?? 0;
    assert.ok(p95 < 2_000, `lags ${lags.join(', ')} ms`);
  });

  it("a transaction pushed to B is mined by A, and B holds A's block", async () => {
    const tx = spendCoinbase(1);
    const pushed = await foreignRpc(b.url, 'push_transaction', [transactionToJson(tx), false]);
    assert.deepEqual(pushed.body.result, { Ok: null });
    const sizes = async () =>
      ((await foreignOk(a.url, 'get_pool_size', [])) as number) +
      ((await foreignOk(a.url, 'get_stempool_size', [])) as number);
    assert.equal(await until(sizes, (n) => n > 0, 15_000), 1);
    // A's own Dandelion: with no outbound relay a stem is fluffed into its txpool at once.
    await until(
      async () => (await foreignOk(a.url, 'get_pool_size', [])) as number,
      (n) => n > 0,
      15_000,
    );
    const block = await mineBlock(a.url);
    assert.equal(block.body.kernels.length, 2, 'the coinbase kernel and the transaction kernel');
    assert.deepEqual((await submit(a.url, block)).body.result, { Ok: null });
    const hash = toHex(headerHash(block.header, PARAMS));
    const tip = await until(
      () => tipOf(b),
      (t) => t.last_block_pushed === hash,
      5_000,
    );
    assert.equal(tip.last_block_pushed, hash);
  });

  it('A serves a scripted Epic peer headers and blocks as its API reports them', async () => {
    const peer = await EpicPeer.connect('127.0.0.1', p2pPortOf(a));
    try {
      peer.sendHand();
      await peer.expect('Shake', 3_000);
      peer.send({ type: 'GetHeaders', locator: [genesisHashOf('automated')] });
      const headers = (await peer.expect('Headers', 3_000)).message.headers;
      const tip = await tipOf(a);
      assert.equal(headers.length, tip.height);
      assert.deepEqual(
        headers.map((h) => Number(h.height)),
        Array.from({ length: tip.height }, (_, i) => i + 1),
      );
      const last = headers[headers.length - 1];
      assert.ok(last !== undefined);
      assert.equal(toHex(headerHash(last, PARAMS)), tip.last_block_pushed);

      peer.send({ type: 'GetBlock', hash: headerHash(last, PARAMS) });
      const served = await peer.expect('Block', 3_000);
      assert.deepEqual(served.message.block.header, last);
      // Unknown hash: silence; a locator past our chain: the connection is closed.
      peer.send({ type: 'GetBlock', hash: new Uint8Array(32).fill(9) });
      peer.send({ type: 'GetHeadersFastSync', locator: [headerHash(last, PARAMS)], offset: 0 });
      await peer.closedWithin(3_000);
      assert.equal(
        peer.pending().some((r) => r.message.type === 'Block' || r.message.type === 'FastHeaders'),
        false,
      );
    } finally {
      peer.socket.destroy();
    }
  });
});
