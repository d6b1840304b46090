// The peers thread restarted by supervision (the node in this process, so the test can end the
// thread as a crash would): its listener comes back on the same port, and its Shake carries the
// chain's current head within moments, not the head the node started with.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readConfigFile } from '../../config/load.js';
import { type RunningNode, startNode } from '../../node/server.js';
import { EpicPeer } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { foreignOk, mineBlock, submit } from '../support/miner.js';
import { removeHome, tempHome, writeConfig } from '../support/node_process.js';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

/** The Shake's total difficulty the node answers a fresh peer with, as JSON text. */
async function shakeDifficulty(port: number): Promise<string> {
  for (const end = Date.now() + 10_000; ; ) {
    try {
      const peer = await EpicPeer.connect('127.0.0.1', port);
      peer.sendHand();
      const shake = await peer.expect('Shake', 3_000);
      peer.socket.destroy();
      return JSON.stringify(shake.message.totalDifficulty, (_k, v) =>
        typeof v === 'bigint' ? Number(v) : v,
      );
    } catch (e) {
      // The restarted thread may not listen yet.
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('the peers thread after a restart', () => {
  let home: string;
  let node: RunningNode;
  let p2pPort: number;
  before(async () => {
    home = tempHome();
    p2pPort = await freePort();
    const file = writeConfig(home, [CUCKATOO_ONLY], false, 'automated', [`port = ${p2pPort}`]);
    node = await startNode(readConfigFile(file, 'automated', home));
  });
  after(async () => {
    await node?.stop();
    removeHome(home);
  });

  it("answers with the chain's current head, not the one of the node's start", async () => {
    const url = `http://127.0.0.1:${node.gateway.port}`;
    const atStart = await shakeDifficulty(p2pPort);
    const block = await mineBlock(url);
    assert.deepEqual((await submit(url, block)).body.result, { Ok: null });
    const tip = (await foreignOk(url, 'get_tip', [])) as { height: number };
    assert.equal(tip.height, 1);
    const afterBlock = await shakeDifficulty(p2pPort);
    assert.notEqual(afterBlock, atStart);

    await node.system.killThread('peers');
    // The new thread starts from the node's init data; the node sends it the head as soon as it
    // announces itself, so within moments (not at the next block) its Shake is current again.
    let seen = await shakeDifficulty(p2pPort);
    for (const end = Date.now() + 3_000; seen !== afterBlock && Date.now() < end; )
      seen = await shakeDifficulty(p2pPort);
    assert.equal(seen, afterBlock);
  });
});
