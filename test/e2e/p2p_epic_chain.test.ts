// Epic's own chain (issue 18): a scripted Epic node holds the usernet chain Epic recorded
// (../shared/vectors/p2p/usernet_chain_blocks.jsonl: 147 blocks, RandomX and Cuckatoo15, 63
// transactions) and answers as the recordings show Epic answers — Shake with its head's total
// difficulty, a Ping at once (Epic's seed loop pings a new peer), Pong to Ping, FastHeaders /
// Headers after the locator's common ancestor (at most 512), Block (v2) for GetBlock, empty
// PeerAddrs. A real mwnode (archive mode, Epic's `{ randomx = 60, cuckatoo = 40 }` policy)
// seeded with it header-syncs and body-syncs to 147: every header hash and the tip's roots are
// Epic's. Skipped without the RandomX addon (88 of the proofs are RandomX).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { CHAIN_PARAMS } from '../../core/chain_type.js';
import { decodeMessage, msgTypeCode } from '../../core/p2p/msg.js';
import type { MsgOf } from '../../core/p2p/types.js';
import { findRandomXAddon } from '../../jobs/randomx_addon.js';
import { ChainServer, HeldChain } from '../support/chain_server.js';
import { hex } from '../support/crypto.js';
import { apiTip, foreignOk } from '../support/miner.js';
import { type NodeProcess, removeHome, startNodeProcess } from '../support/node_process.js';
import { SHARED_VECTORS } from '../support/paths.js';
import { syncedStates } from '../support/sync_states.js';

const USER = CHAIN_PARAMS.usernet;
const TIP = 147;
const SYNC_MS = 120_000;

interface Recorded {
  readonly height: number;
  readonly hash: string;
  readonly hex: string;
  readonly header_hex: string;
}

const recorded = readFileSync(join(SHARED_VECTORS, 'p2p', 'usernet_chain_blocks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Recorded);

function decodeAs<K extends 'Header' | 'Block'>(type: K, bodyHex: string): MsgOf<K> {
  return decodeMessage(msgTypeCode(type), hex(bodyHex), 2, USER) as MsgOf<K>;
}

/** The recorded chain as the scripted node holds it. */
function recordedChain(lines: readonly Recorded[]): HeldChain {
  return new HeldChain(
    USER,
    lines.map((l) => decodeAs('Header', l.header_hex).header),
    lines.slice(1).map((l) => decodeAs('Block', l.hex).block),
  );
}

/** Size of an MMR whose last leaf is at 1-based position `pos` (2L − popcount(L) for L leaves). */
function mmrSizeEndingAt(pos: number): number {
  const popcount = (x: number) => x.toString(2).replaceAll('0', '').length;
  for (let leaves = 1; ; leaves++) {
    const leafPos = 2 * (leaves - 1) - popcount(leaves - 1) + 1;
    if (leafPos === pos) return 2 * leaves - popcount(leaves);
    if (leafPos > pos) throw new Error(`${pos} is not a leaf position`);
  }
}

type PrintableHeader = {
  hash: string;
  height: number;
  output_root: string;
  range_proof_root: string;
  kernel_root: string;
};

describe("syncing Epic's recorded usernet chain from a scripted Epic node", {
  skip: findRandomXAddon() === null ? 'RandomX addon not built' : false,
  timeout: SYNC_MS + 60_000,
}, () => {
  const chain = recordedChain(recorded);
  let server: ChainServer;
  let node: NodeProcess | undefined;

  before(async () => {
    server = await ChainServer.start(chain, 'usernet');
  });
  after(async () => {
    await node?.stop();
    // EPIC_CHAIN_LOG=<file> keeps the node's log for a failure's investigation.
    if (process.env.EPIC_CHAIN_LOG !== undefined && node !== undefined)
      writeFileSync(process.env.EPIC_CHAIN_LOG, node.stderr());
    await server?.close();
    if (node !== undefined) removeHome(node.home);
  });

  it('holds the recorded chain: 148 headers whose hashes are the recorded ones', () => {
    assert.equal(chain.headHeight, BigInt(TIP));
    for (const r of recorded)
      assert.equal(toHex(chain.hashAt(BigInt(r.height)) ?? new Uint8Array()), r.hash);
  });

  it(`header-syncs and body-syncs to ${TIP} with Epic's hashes and roots`, async () => {
    const started = Date.now();
    node = await startNodeProcess({
      chain: 'usernet',
      // The node only follows: usernet's test miner would build a chain of its own.
      serverLines: [
        'pow_policy = { randomx = 60, cuckatoo = 40 }',
        'archive_mode = true',
        'run_test_miner = false',
      ],
      p2pLines: [
        'seeding_type = "List"',
        'peer_min_preferred_outbound_count = 1',
        `seeds = ["127.0.0.1:${server.port}"]`,
      ],
    });
    const n = node;
    const want = recorded[TIP]?.hash;
    let tip = await apiTip(n.url);
    for (const end = Date.now() + SYNC_MS; tip.last_block_pushed !== want; ) {
      assert.ok(Date.now() < end, `at ${tip.height} after ${SYNC_MS} ms`);
      await new Promise((r) => setTimeout(r, 250));
      tip = await apiTip(n.url);
    }
    const took = Date.now() - started;
    assert.equal(tip.height, TIP);
    console.log(`synced ${TIP} blocks in ${took} ms`);

    for (const r of recorded.slice(1)) {
      const h = (await foreignOk(n.url, 'get_header', [r.height, null, null])) as PrintableHeader;
      assert.equal(h.hash, r.hash, `header ${r.height}`);
    }
    // Roots from the tip's printable header (Epic's has no MMR sizes); the output MMR's size is
    // get_pmmr_indices' highest_index, the kernel MMR's follows from the position of the tip
    // block's last kernel (the last leaf appended).
    const top = (await foreignOk(n.url, 'get_header', [TIP, null, null])) as PrintableHeader;
    const t = chain.tip;
    const lastKernel = chain.blocks.get(recorded[TIP]?.hash ?? '')?.body.kernels.at(-1);
    assert.ok(lastKernel !== undefined);
    const indices = (await foreignOk(n.url, 'get_pmmr_indices', [TIP, TIP])) as {
      highest_index: number;
    };
    const kernel = (await foreignOk(n.url, 'get_kernel', [toHex(lastKernel.excess), TIP, TIP])) as {
      mmr_index: number;
      height: number;
    };
    assert.deepEqual(
      {
        output_root: top.output_root,
        range_proof_root: top.range_proof_root,
        kernel_root: top.kernel_root,
        output_mmr_size: indices.highest_index,
        kernel_mmr_size: mmrSizeEndingAt(kernel.mmr_index),
      },
      {
        output_root: toHex(t.outputRoot),
        range_proof_root: toHex(t.rangeProofRoot),
        kernel_root: toHex(t.kernelRoot),
        output_mmr_size: Number(t.outputMmrSize),
        kernel_mmr_size: Number(t.kernelMmrSize),
      },
    );

    // Level with its only peer, the node is not syncing any more; its log went through Epic's states.
    assert.deepEqual(await syncedStates(n), ['header_sync', 'body_sync', 'no_sync']);
    // The headers came by fast sync (the node saw HEADER_FASTSYNC) and every body by GetBlock.
    assert.ok(
      server.served.requests.includes('GetHeadersFastSync'),
      server.served.requests.join(','),
    );
    assert.equal(server.served.blocks.size, TIP);
  });
});
