// A node process serving and relaying to scripted Epic peers on loopback, on a 2,000-block
// automated-testing chain written into its home before it starts (served_chain.ts): Epic's
// locators from a peer at height 100 and from a peer on a fork, answered with the exact header
// pages (GetHeaders → Headers, GetHeadersFastSync at offsets 0–3 → FastHeaders); requests it
// cannot answer close the connection without a reply; blocks and compact blocks by hash, byte
// for byte, and silence for unknown hashes; a TransactionKernel of a transaction the pool
// lacks → GetTransaction; a CompactBlock naming a transaction the pool lacks → GetBlock to its
// sender; a Header → GetCompactBlock, hydrated from the pool; a stem fluffed back to its sender
// too. The node is inbound-only.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { locatorHeights } from '../../core/chain/locator.js';
import { shortId } from '../../core/hash/ids.js';
import { encodeFrame } from '../../core/p2p/msg.js';
import type { P2pMessage, Shake } from '../../core/p2p/types.js';
import { hashOf } from '../../core/ser/codec.js';
import { headerHash } from '../../core/ser/header.js';
import { writeKernel } from '../../core/ser/transaction.js';
import type { Block, BlockHeader, CompactBlock } from '../../core/types/block.js';
import type { Transaction } from '../../core/types/transaction.js';
import { EpicPeer, wireAddr } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { AUTO, foreignOk, mineBlock, ownerText } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
  tempHome,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { buildServedChain, type ServedChain } from '../support/served_chain.js';
import { spendCoinbase } from '../support/spend.js';

const HEAD = 2_000;
/** A stored block with one transaction (not a foundation height: those are every 5th). */
const TX_HEIGHT = 1_991;
/** A foundation block: two coinbase outputs, its compact form over the cap of test chains. */
const FOUNDATION_HEIGHT = 1_995;
/** Where the scripted forked peer's chain leaves ours, and its tip. */
const FORK_AFTER = 600;
const FORK_TIP = 700n;
/** Frame type codes (p2p reference §3.1). */
const HEADERS = 9;
const FAST_HEADERS = 24;

const hex = toHex;
const frameHex = (m: P2pMessage): string => hex(encodeFrame(m, 2, AUTO));
const kernelHash = (tx: Transaction): Uint8Array => {
  const k = tx.body.kernels[0];
  assert.ok(k !== undefined);
  return hashOf(writeKernel, k, AUTO);
};

describe('a node serving a 2,000-block chain to scripted Epic peers', { timeout: 240_000 }, () => {
  let chain: ServedChain;
  let node: NodeProcess;
  let p2pPort: number;
  /** Mined at TX_HEIGHT. */
  let stored: Transaction;
  /** Mined in the block after the stored head; never in the pool. */
  let missing: Transaction;
  /** Announced by kernel hash, then mined by the node's template. */
  let announced: Transaction;
  /** Sent as a stem last. */
  let stemmed: Transaction;
  const opened: EpicPeer[] = [];
  let senderPort = 24_000;
  let home: string | undefined;

  const hashAt = (h: number | bigint): Uint8Array => {
    const hash = chain.hashes[Number(h)];
    assert.ok(hash !== undefined, `no hash at ${h}`);
    return hash;
  };
  const blockAt = (h: number): Block => {
    const block = chain.blocks[h];
    assert.ok(block !== undefined, `no block at ${h}`);
    return block;
  };
  const headers = (first: number, last: number): BlockHeader[] =>
    chain.blocks.slice(first, last + 1).map((b) => b.header);
  /** Epic's locator (`get_locator`) for a peer whose tip is at `tip`, hashes from `at`. */
  const locator = (tip: bigint, at: (h: bigint) => Uint8Array): Uint8Array[] =>
    locatorHeights(tip).map(at);
  /**
   * The hash of a header no chain the node knows has: the main chain's header at `h` with
   * another proof. A Cuckoo header's hash is its proof's hash, so the proof must differ: a last
   * nonce no stand-in proof of these 2,000 blocks uses (served_chain.ts, stand_ins.ts).
   */
  const forkHash = (h: bigint): Uint8Array => {
    const header = blockAt(Number(h)).header;
    const proof = header.pow.proof;
    assert.ok(proof.kind === 'Cuckoo');
    const nonces = proof.nonces.map((n, i) => (i === 3 ? n + 100n : n));
    return headerHash({ ...header, pow: { ...header.pow, proof: { ...proof, nonces } } }, AUTO);
  };

  async function connect(): Promise<{ peer: EpicPeer; addr: string; shake: Shake }> {
    const port = senderPort++;
    const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
    opened.push(peer);
    peer.sendHand({ senderAddr: wireAddr('127.0.0.1', port) });
    const shake = (await peer.expect('Shake', 5_000)).message;
    return { peer, addr: `127.0.0.1:${port}`, shake };
  }

  async function tip(): Promise<{ height: number; last_block_pushed: string }> {
    return (await foreignOk(node.url, 'get_tip', [])) as {
      height: number;
      last_block_pushed: string;
    };
  }

  async function tipBecomes(hash: Uint8Array): Promise<void> {
    const t = await pollUntil(tip, (t) => t.last_block_pushed === hex(hash), 10_000, 25);
    assert.equal(t.last_block_pushed, hex(hash), `tip stayed at ${t.height}`);
  }

  /** Epic ignores transactions while syncing; a peer's header ahead of us starts a short sync. */
  async function syncStatus(): Promise<string> {
    const text = await ownerText(node.url, basic(ownerSecret(node.home)), 'get_status', []);
    return (JSON.parse(text) as { result: { Ok: { sync_status: string } } }).result.Ok.sync_status;
  }

  async function poolSizeBecomes(n: number): Promise<void> {
    const size = async () => (await foreignOk(node.url, 'get_pool_size', [])) as number;
    const last = await pollUntil(size, (s) => s === n, 10_000, 25);
    assert.equal(last, n, `pool size ${last}; the node's log ends:\n${node.stderr().slice(-3000)}`);
  }

  /** Epic's compact form of `block` under `nonce`: coinbase in full, one short id per kernel. */
  function compactOf(block: Block, nonce: bigint): CompactBlock {
    const hash = headerHash(block.header, AUTO);
    const ids = block.body.kernels
      .filter((k) => k.features.kind !== 'Coinbase')
      .map((k) => shortId(hashOf(writeKernel, k, AUTO), hash, nonce));
    // Epic sorts several ids; the blocks here carry at most one.
    assert.ok(ids.length <= 1);
    return {
      header: block.header,
      nonce,
      body: {
        outFull: block.body.outputs.filter((o) => o.features === 'Coinbase'),
        kernFull: block.body.kernels.filter((k) => k.features.kind === 'Coinbase'),
        kernIds: ids,
      },
    };
  }

  /** The node closed the connection without any header reply, and logged why. */
  async function closedUnanswered(peer: EpicPeer, addr: string, request: string): Promise<void> {
    await peer.closedWithin(5_000);
    const replies = peer
      .pending()
      .filter((r) => r.message.type === 'Headers' || r.message.type === 'FastHeaders');
    assert.deepEqual(replies, [], 'no header list, not even an empty one');
    const line = `"event":"p2p_peer_closed","addr":"${addr}","reason":"no headers to answer ${request} with"`;
    const logged = await pollUntil(
      async () => node.stderr(),
      (s) => s.includes(line),
      2_000,
    );
    assert.ok(logged.includes(line), `no log line ${line}`);
  }

  before(async () => {
    home = tempHome();
    [stored, missing, announced, stemmed] = [1, 2, 3, 4].map((i) => spendCoinbase(i));
    const t0 = Date.now();
    chain = await buildServedChain({
      home,
      head: HEAD,
      txsAt: new Map([[TX_HEIGHT, [stored]]]),
      nextTxs: [missing],
    });
    process.stderr.write(`${HEAD} blocks stored in ${Date.now() - t0} ms\n`);
    node = await startNodeProcess({
      home,
      serverLines: [CUCKATOO_ONLY, 'archive_mode = true'],
      p2pLines: ['seeding_type = "None"', 'peer_max_outbound_count = 0'],
    });
    p2pPort = p2pPortOf(node);
  });
  afterEach(() => {
    for (const p of opened.splice(0)) p.socket.destroy();
  });
  after(async () => {
    await node?.stop();
    if (home !== undefined) removeHome(home);
  });

  it('starts on the stored chain: get_tip and its Shake report block 2,000', async () => {
    const t = await tip();
    assert.deepEqual([t.height, t.last_block_pushed], [HEAD, hex(hashAt(HEAD))]);
    for (const h of [1, 1_000, HEAD]) {
      const header = (await foreignOk(node.url, 'get_header', [h, null, null])) as {
        hash: string;
      };
      assert.equal(header.hash, hex(hashAt(h)), `get_header ${h}`);
    }
    const { shake } = await connect();
    assert.deepEqual(shake.totalDifficulty, blockAt(HEAD).header.pow.totalDifficulty);
  });

  it("Epic's locator heights for the two scripted peers", () => {
    assert.deepEqual(locatorHeights(100n), [100n, 98n, 94n, 86n, 70n, 38n, 0n]);
    assert.deepEqual(locatorHeights(FORK_TIP), [
      700n,
      698n,
      694n,
      686n,
      670n,
      638n,
      574n,
      446n,
      190n,
      0n,
    ]);
  });

  it('GetHeaders from a peer at 100: Headers 101…612, exact bytes', async () => {
    const { peer } = await connect();
    peer.send({ type: 'GetHeaders', locator: locator(100n, hashAt) });
    const r = await peer.expect('Headers', 10_000);
    assert.equal(r.frame[2], HEADERS);
    assert.equal(r.message.headers.length, 512);
    assert.equal(hex(r.frame), frameHex({ type: 'Headers', headers: headers(101, 612) }));
  });

  it('GetHeadersFastSync at offsets 0–3 from a peer at 100: FastHeaders pages to 2,000', async () => {
    const { peer } = await connect();
    const pages: [number, number][] = [
      [101, 612],
      [613, 1124],
      [1125, 1636],
      [1637, 2000],
    ];
    for (let offset = 0; offset < 4; offset++)
      peer.send({ type: 'GetHeadersFastSync', locator: locator(100n, hashAt), offset });
    for (const [first, last] of pages) {
      const r = await peer.expect('FastHeaders', 10_000);
      assert.equal(r.frame[2], FAST_HEADERS);
      assert.equal(r.message.headers.length, last - first + 1);
      assert.equal(hex(r.frame), frameHex({ type: 'FastHeaders', headers: headers(first, last) }));
    }
    assert.deepEqual(
      pages.map(([f, l]) => l - f + 1),
      [512, 512, 512, 364],
    );
    assert.equal(peer.closed, false);
  });

  it('a forked locator: its fork hashes are skipped, headers follow the deepest common one', async () => {
    // A peer whose chain left ours after 600, tip 700: hashes above 600 are unknown here, so
    // the first one on our chain is at 574.
    const forked = locator(FORK_TIP, (h) => (h > FORK_AFTER ? forkHash(h) : hashAt(h)));
    const { peer, addr } = await connect();
    peer.send({ type: 'GetHeaders', locator: forked });
    const r = await peer.expect('Headers', 10_000);
    assert.equal(hex(r.frame), frameHex({ type: 'Headers', headers: headers(575, 1086) }));
    for (const [offset, first, last] of [
      [1, 1087, 1598],
      [2, 1599, 2000],
    ] as const) {
      peer.send({ type: 'GetHeadersFastSync', locator: forked, offset });
      const page = await peer.expect('FastHeaders', 10_000);
      assert.equal(
        hex(page.frame),
        frameHex({ type: 'FastHeaders', headers: headers(first, last) }),
      );
    }
    // Offset 3 starts at 2,111, above our head.
    peer.send({ type: 'GetHeadersFastSync', locator: forked, offset: 3 });
    await closedUnanswered(peer, addr, 'GetHeadersFastSync');
  });

  it('a request whose common header is our head, or past it, or unknown, closes the connection', async () => {
    const cases: [P2pMessage, string][] = [
      [{ type: 'GetHeaders', locator: [hashAt(HEAD)] }, 'GetHeaders'],
      [
        { type: 'GetHeadersFastSync', locator: locator(BigInt(HEAD), hashAt), offset: 0 },
        'GetHeadersFastSync',
      ],
      [{ type: 'GetHeadersFastSync', locator: [hashAt(100)], offset: 4 }, 'GetHeadersFastSync'],
      [{ type: 'GetHeaders', locator: [forkHash(10n), new Uint8Array(32).fill(3)] }, 'GetHeaders'],
    ];
    for (const [request, name] of cases) {
      const { peer, addr } = await connect();
      peer.send(request);
      await closedUnanswered(peer, addr, name);
    }
    // One below the head still gets the head alone.
    const { peer } = await connect();
    peer.send({ type: 'GetHeaders', locator: [hashAt(HEAD - 1)] });
    const r = await peer.expect('Headers', 10_000);
    assert.equal(hex(r.frame), frameHex({ type: 'Headers', headers: headers(HEAD, HEAD) }));
  });

  it('GetBlock and GetCompactBlock for known blocks: exact bytes', async () => {
    const { peer } = await connect();
    for (const h of [1, TX_HEIGHT, HEAD]) {
      peer.send({ type: 'GetBlock', hash: hashAt(h) });
      const r = await peer.expect('Block', 10_000);
      assert.equal(hex(r.frame), frameHex({ type: 'Block', block: blockAt(h) }), `block ${h}`);
    }
    for (const h of [TX_HEIGHT, HEAD - 1]) {
      peer.send({ type: 'GetCompactBlock', hash: hashAt(h) });
      const r = await peer.expect('CompactBlock', 10_000);
      const want = compactOf(blockAt(h), r.message.block.nonce);
      assert.equal(want.body.kernIds.length, h === TX_HEIGHT ? 1 : 0);
      assert.equal(hex(r.frame), frameHex({ type: 'CompactBlock', block: want }), `compact ${h}`);
    }
    // A foundation block's compact form is over the CompactBlock cap: the node sends the Block.
    assert.equal(blockAt(FOUNDATION_HEIGHT).body.outputs.length, 2);
    peer.send({ type: 'GetCompactBlock', hash: hashAt(FOUNDATION_HEIGHT) });
    const r = await peer.expect('Block', 10_000);
    assert.equal(hex(r.frame), frameHex({ type: 'Block', block: blockAt(FOUNDATION_HEIGHT) }));
    // Nothing else was sent but the node's own Pings.
    assert.deepEqual(
      peer.pending().filter((m) => m.message.type !== 'Ping'),
      [],
    );
  });

  it('GetBlock and GetCompactBlock for unknown hashes: silence, and the connection stays', async () => {
    const { peer } = await connect();
    peer.send({ type: 'GetBlock', hash: new Uint8Array(32).fill(9) });
    peer.send({ type: 'GetCompactBlock', hash: forkHash(1_500n) });
    // Requests are answered in order: once this one's reply is here, the two were silent.
    peer.send({ type: 'GetBlock', hash: hashAt(HEAD) });
    const r = await peer.expect('Block', 10_000);
    assert.equal(hex(r.frame), frameHex({ type: 'Block', block: blockAt(HEAD) }));
    peer.sendPing(blockAt(1).header.pow.totalDifficulty, 1n);
    await peer.expect('Pong', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const replies = peer
      .pending()
      .filter((m) => m.message.type === 'Block' || m.message.type === 'CompactBlock');
    assert.deepEqual(replies, []);
    assert.equal(peer.closed, false);
  });

  it('TransactionKernel of a transaction the pool lacks → GetTransaction → the pool; fluffed to the others by kernel hash', async () => {
    assert.equal(await syncStatus(), 'no_sync', 'Epic ignores transactions while syncing');
    const sender = await connect();
    const other = await connect();
    const kh = kernelHash(announced);
    sender.peer.send({ type: 'TransactionKernel', hash: kh });
    const ask = await sender.peer.expect('GetTransaction', 5_000);
    assert.equal(hex(ask.frame), frameHex({ type: 'GetTransaction', hash: kh }));
    sender.peer.send({ type: 'Transaction', tx: announced });
    await poolSizeBecomes(1);
    // Every peer advertises TX_KERNEL_HASH (FULL_NODE): the others get the kernel hash.
    const fluffed = await other.peer.expect('TransactionKernel', 5_000);
    assert.equal(hex(fluffed.frame), frameHex({ type: 'TransactionKernel', hash: kh }));
    // The pool serves it by kernel hash, as it came.
    other.peer.send({ type: 'GetTransaction', hash: kh });
    const served = await other.peer.expect('Transaction', 5_000);
    assert.equal(hex(served.frame), frameHex({ type: 'Transaction', tx: announced }));
    // A kernel hash the pool has gets no GetTransaction; nothing went back to the sender.
    other.peer.send({ type: 'TransactionKernel', hash: kh });
    other.peer.sendPing(blockAt(1).header.pow.totalDifficulty, 1n);
    await other.peer.expect('Pong', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(
      other.peer.pending().filter((m) => m.message.type === 'GetTransaction'),
      [],
    );
    assert.deepEqual(
      sender.peer.pending().filter((m) => m.message.type === 'TransactionKernel'),
      [],
    );
  });

  it('a CompactBlock naming a transaction the pool lacks → GetBlock to its sender; the Block becomes the tip, announced to the others only', async () => {
    const sender = await connect();
    const other = await connect();
    const block = chain.next;
    const hash = headerHash(block.header, AUTO);
    const compact = compactOf(block, 0x5eedn);
    assert.equal(compact.body.kernIds.length, 1);
    sender.peer.send({ type: 'CompactBlock', block: compact });
    const ask = await sender.peer.expect('GetBlock', 5_000);
    assert.equal(hex(ask.frame), frameHex({ type: 'GetBlock', hash }));
    sender.peer.send({ type: 'Block', block });
    await tipBecomes(hash);
    const header = await other.peer.expect('Header', 5_000);
    assert.equal(hex(header.frame), frameHex({ type: 'Header', header: block.header }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const toSender = sender.peer
      .pending()
      .filter((m) => m.message.type === 'Header' || m.message.type === 'GetBlock');
    assert.deepEqual(toSender, []);
    assert.deepEqual(
      other.peer.pending().filter((m) => m.message.type === 'GetBlock'),
      [],
    );
    // The announced transaction is not in this block: still pooled.
    await poolSizeBecomes(1);
  });

  it('a Header → our GetCompactBlock; the CompactBlock is hydrated from the pool, no GetBlock', async () => {
    const sender = await connect();
    const block = await mineBlock(node.url);
    assert.deepEqual(
      block.body.kernels.filter((k) => k.features.kind !== 'Coinbase').map((k) => hex(k.excess)),
      [hex(announced.body.kernels[0]?.excess ?? new Uint8Array())],
      "the node's template mined the pooled transaction",
    );
    const hash = headerHash(block.header, AUTO);
    sender.peer.send({ type: 'Header', header: block.header });
    const ask = await sender.peer.expect('GetCompactBlock', 5_000);
    assert.equal(hex(ask.frame), frameHex({ type: 'GetCompactBlock', hash }));
    sender.peer.send({ type: 'CompactBlock', block: compactOf(block, 77n) });
    await tipBecomes(hash);
    await poolSizeBecomes(0);
    assert.deepEqual(
      sender.peer.pending().filter((m) => m.message.type === 'GetBlock'),
      [],
    );
  });

  it('a StemTransaction with no outbound peer to stem to is fluffed at once, to its sender too', async () => {
    // The last test's Header put the node ahead of its peer for a moment: wait for no_sync.
    assert.equal(await pollUntil(syncStatus, (s) => s === 'no_sync', 10_000, 50), 'no_sync');
    const sender = await connect();
    const other = await connect();
    const kh = kernelHash(stemmed);
    sender.peer.send({ type: 'StemTransaction', tx: stemmed });
    await poolSizeBecomes(1);
    for (const p of [sender.peer, other.peer]) {
      const fluffed = await p.expect('TransactionKernel', 5_000);
      assert.equal(hex(fluffed.frame), frameHex({ type: 'TransactionKernel', hash: kh }));
    }
  });
});
