// Block relay through the node process with scripted Epic peers on loopback: a Block or an
// unsolicited CompactBlock from one peer extends the chain and is announced as Header to the
// other peers only; a Header of an unknown block gets our GetCompactBlock; a block we mine is
// announced header-first to every peer; a bad block bans its sender (BadBlock). The node is
// inbound-only, so it never dials the addresses its scripted peers advertise.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { chainParams } from '../../core/chain_type.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block, CompactBlock } from '../../core/types/block.js';
import { EpicPeer, wireAddr } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { foreignOk, mineBlock, ownerText, submit } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import type { StoredPeerJson } from '../support/peer_json.js';

const PARAMS = chainParams('automated');
const hashOf = (b: Block) => headerHash(b.header, PARAMS);

let node: NodeProcess;
let p2pPort: number;
const opened: EpicPeer[] = [];

async function handshaken(port: number): Promise<EpicPeer> {
  const peer = await EpicPeer.connect('127.0.0.1', p2pPort);
  opened.push(peer);
  peer.sendHand({ senderAddr: wireAddr('127.0.0.1', port) });
  await peer.expect('Shake', 3_000);
  return peer;
}

async function height(): Promise<number> {
  return ((await foreignOk(node.url, 'get_tip', [])) as { height: number }).height;
}

async function heightBecomes(h: number): Promise<void> {
  for (const end = Date.now() + 5_000; (await height()) !== h; ) {
    if (Date.now() > end) assert.fail(`height stayed ${await height()}, expected ${h}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Epic's compact form of a coinbase-only block: everything in full, no short ids. */
function compactOf(block: Block): CompactBlock {
  return {
    header: block.header,
    nonce: 7n,
    body: { outFull: block.body.outputs, kernFull: block.body.kernels, kernIds: [] },
  };
}

describe('block relay through the node process', () => {
  before(async () => {
    node = await startNodeProcess({
      serverLines: [CUCKATOO_ONLY],
      p2pLines: ['peer_max_outbound_count = 0'],
    });
    p2pPort = p2pPortOf(node);
  });
  afterEach(() => {
    for (const p of opened.splice(0)) p.socket.destroy();
  });
  after(async () => {
    await node?.stop();
    if (node !== undefined) removeHome(node.home);
  });

  it('a Block from one peer extends the chain and goes as Header to the others only', async () => {
    const [sender, other] = [await handshaken(23_001), await handshaken(23_002)];
    const block = await mineBlock(node.url);
    sender.send({ type: 'Block', block });
    await heightBecomes(1);
    const announced = await other.expect('Header', 3_000);
    assert.deepEqual(announced.message, { type: 'Header', header: block.header });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(
      sender.pending().some((r) => r.message.type === 'Header'),
      false,
      'never announced back to its sender',
    );
  });

  it('an unsolicited CompactBlock (no short ids) is accepted and announced to the others', async () => {
    const [sender, other] = [await handshaken(23_003), await handshaken(23_004)];
    const block = await mineBlock(node.url);
    sender.send({ type: 'CompactBlock', block: compactOf(block) });
    await heightBecomes(2);
    const tip = (await foreignOk(node.url, 'get_tip', [])) as { last_block_pushed: string };
    assert.equal(tip.last_block_pushed, Buffer.from(hashOf(block)).toString('hex'));
    assert.deepEqual((await other.expect('Header', 3_000)).message.header, block.header);
  });

  it('a Header of a block we lack gets our GetCompactBlock; one we have gets nothing', async () => {
    const peer = await handshaken(23_005);
    const block = await mineBlock(node.url);
    peer.send({ type: 'Header', header: block.header });
    const ask = await peer.expect('GetCompactBlock', 3_000);
    assert.deepEqual(ask.message, { type: 'GetCompactBlock', hash: hashOf(block) });
    peer.send({ type: 'CompactBlock', block: compactOf(block) });
    await heightBecomes(3);
    peer.send({ type: 'Header', header: block.header });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(peer.pending().filter((r) => r.message.type === 'GetCompactBlock').length, 0);
  });

  it('a block we mine is announced header-first to every peer', async () => {
    const peers = [await handshaken(23_006), await handshaken(23_007)];
    const block = await mineBlock(node.url);
    assert.deepEqual((await submit(node.url, block)).body.result, { Ok: null });
    for (const p of peers)
      assert.deepEqual((await p.expect('Header', 3_000)).message, {
        type: 'Header',
        header: block.header,
      });
  });

  it('a block with a bad proof of work bans its sender (BadBlock)', async () => {
    const sender = await handshaken(23_008);
    const block = await mineBlock(node.url);
    const nonces = block.header.pow.proof.kind === 'Cuckoo' ? block.header.pow.proof.nonces : [];
    const broken: Block = {
      ...block,
      header: {
        ...block.header,
        pow: {
          ...block.header.pow,
          proof: {
            kind: 'Cuckoo',
            edgeBits: 9,
            nonces: nonces.map((n, i) => (i === 0 ? n ^ 1n : n)),
          },
        },
      },
    };
    const before = await height();
    sender.send({ type: 'Block', block: broken });
    const ban = await sender.expect('BanReason', 3_000);
    assert.deepEqual(ban.message, { type: 'BanReason', reason: 'BadBlock' });
    await sender.closedWithin(2_000);
    assert.equal(await height(), before);
    const auth = basic(ownerSecret(node.home));
    const listed = JSON.parse(
      await ownerText(node.url, auth, 'get_peers', ['127.0.0.1:23008']),
    ) as {
      result: { Ok: StoredPeerJson[] };
    };
    assert.equal(listed.result.Ok[0]?.flags, 'Banned');
    assert.equal(listed.result.Ok[0]?.ban_reason, 'BadBlock');
  });
});
