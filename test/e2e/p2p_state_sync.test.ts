// State sync between mwnode nodes (issue 19), on loopback with the testing parameters (threshold
// 20, interval 10, horizon 70): A holds a chain of 300 real blocks (automated testing, Cuckatoo
// only); B, a fresh non-archive node seeded with A, header-syncs, downloads A's archive for
// height 280, validates and imports it, body-syncs the last 20 blocks and reaches A's tip. Its
// get_status, polled every 100 ms, moves through Epic's strings; its state then answers the API
// as A's does, and it holds no full block below the archive header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block } from '../../core/types/block.js';
import { validateChain } from '../support/crash_life.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { localChain } from '../support/local_chain.js';
import { AUTO, apiTip, foreignRpc, ownerText } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { syncedStates } from '../support/sync_states.js';

const HEIGHT = 300;
/** (300 − 20) rounded down to a multiple of 10. */
const ARCHIVE_HEIGHT = 280;
const SYNC_MS = 180_000;

interface Status {
  readonly sync_status: string;
  readonly sync_info?: Record<string, number>;
}

async function statusOf(n: NodeProcess): Promise<Status> {
  const body = await ownerText(n.url, basic(ownerSecret(n.home)), 'get_status', []);
  return (JSON.parse(body) as { result: { Ok: Status } }).result.Ok;
}

/** The node's log lines of `event`, parsed. */
function events(n: NodeProcess, event: string): Record<string, unknown>[] {
  return n
    .stderr()
    .split('\n')
    .filter((l) => l.includes(`"event":"${event}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('a node joining at height 300 state-syncs from an mwnode peer', {
  timeout: 600_000,
}, () => {
  let a: NodeProcess;
  let b: NodeProcess | undefined;
  let aTip: string;

  before(async () => {
    const local = localChain({ archiveMode: true, templateTime: true });
    const blocks: Block[] = [];
    for (let i = 0; i < HEIGHT; i++) {
      const block = await local.mineBlock();
      const r = await local.submit(block);
      assert.ok('hash' in r, `block ${i + 1}`);
      blocks.push(block);
    }
    await local.close(true);
    a = await startNodeProcess({
      home: local.dbRoot,
      serverLines: [CUCKATOO_ONLY, 'archive_mode = true'],
    });
    aTip = toHex(headerHash(blocks[HEIGHT - 1]?.header as Block['header'], AUTO));
  });
  after(async () => {
    for (const n of [b, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
  });

  it("B goes header_sync → txhashset_download → validation → body_sync → no_sync, to A's tip", async () => {
    b = await startNodeProcess({
      serverLines: [CUCKATOO_ONLY, 'archive_mode = false'],
      p2pLines: [
        'seeding_type = "List"',
        'peer_min_preferred_outbound_count = 1',
        `seeds = ["127.0.0.1:${p2pPortOf(a)}"]`,
      ],
    });
    const seen: Status[] = [];
    for (const end = Date.now() + SYNC_MS; ; ) {
      const s = await statusOf(b);
      if (s.sync_status !== seen.at(-1)?.sync_status) seen.push(s);
      const tip = await apiTip(b.url);
      if (tip.last_block_pushed === aTip && s.sync_status === 'no_sync') break;
      assert.ok(Date.now() < end, `B at ${tip.height}: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The peers' states, from B's log (every one, however short).
    assert.deepEqual(await syncedStates(b), [
      'header_sync',
      'txhashset_download',
      'txhashset_setup',
      'txhashset_done',
      'body_sync',
      'no_sync',
    ]);
    // The chain's phases, with their counts.
    assert.deepEqual(
      events(b, 'state_sync_phase').map((e) => e.status),
      [
        'txhashset_setup',
        'txhashset_rangeproofs_validation',
        'txhashset_kernels_validation',
        'txhashset_save',
        'txhashset_done',
      ],
    );
    // What the API showed at 100 ms: at least the long states, in order, with Epic's sync_info.
    const shown = seen.map((s) => s.sync_status);
    for (const s of ['header_sync', 'body_sync', 'no_sync'])
      assert.ok(shown.includes(s), JSON.stringify(seen));
    const order = ['header_sync', 'txhashset_download', 'syncing', 'body_sync', 'no_sync'];
    const ranks = shown.map((s) =>
      order.indexOf(
        s === 'txhashset_rangeproofs_validation' || s === 'txhashset_kernels_validation'
          ? 'syncing'
          : s,
      ),
    );
    assert.deepEqual(
      ranks,
      [...ranks].sort((x, y) => x - y),
      JSON.stringify(seen),
    );
    const download = seen.find((s) => s.sync_status === 'txhashset_download');
    if (download !== undefined) {
      assert.deepEqual(Object.keys(download.sync_info ?? {}), ['downloaded_size', 'total_size']);
      assert.ok(
        (download.sync_info?.downloaded_size ?? 0) <= (download.sync_info?.total_size ?? 0),
      );
    }
    const body = seen.find((s) => s.sync_status === 'body_sync');
    assert.ok(body !== undefined, JSON.stringify(seen));
    assert.ok((body.sync_info?.current_height ?? 0) >= ARCHIVE_HEIGHT, JSON.stringify(body));
  });

  it("B's state answers as A's: tip, unspent outputs, validate_chain; no block below 280", async () => {
    const node = b as NodeProcess;
    assert.deepEqual(await apiTip(node.url), await apiTip(a.url));
    for (const [from, to] of [
      [1, 300],
      [200, 260],
    ] as const) {
      const ours = await foreignRpc(node.url, 'get_unspent_outputs', [from, to, 1000, true]);
      const theirs = await foreignRpc(a.url, 'get_unspent_outputs', [from, to, 1000, true]);
      assert.deepEqual(ours, theirs);
    }
    assert.deepEqual(await validateChain(node), { Ok: null });
    const below = await foreignRpc(node.url, 'get_block', [ARCHIVE_HEIGHT - 1, null, null]);
    assert.deepEqual(below.body.result, { Err: 'NotFound' });
    const above = await foreignRpc(node.url, 'get_block', [ARCHIVE_HEIGHT + 1, null, null]);
    assert.ok(above.body.result?.Ok !== undefined, JSON.stringify(above.body));
  });
});
