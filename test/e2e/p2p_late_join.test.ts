// Joining late (issue 18): a chain of 1,000 real blocks (automated testing, Cuckatoo only), built
// in-process and then served by a real mwnode A in archive mode. B, a fresh archive node seeded
// with A, header-syncs and body-syncs every block (state sync is issue 19) and its get_status
// goes header_sync → body_sync → no_sync with sync_info filled. Then two nodes are SIGKILLed
// mid-sync — one during header sync, one during body sync, each held there by a scripted Epic
// peer that stops serving part way — and restarted in the same home with a peer that serves
// everything: both reach no_sync on the same tip with validate_chain passing.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { genesisHeader } from '../../core/genesis.js';
import { headerHash } from '../../core/ser/header.js';
import type { Block } from '../../core/types/block.js';
import { ChainServer, HeldChain, type ServeLimits } from '../support/chain_server.js';
import { validateChain } from '../support/crash_life.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { minedChain } from '../support/local_chain.js';
import { type ApiTip, AUTO, apiTip, ownerText } from '../support/miner.js';
import {
  basic,
  type NodeProcess,
  ownerSecret,
  p2pPortOf,
  removeHome,
  startNodeProcess,
} from '../support/node_process.js';
import { pollUntil } from '../support/poll.js';
import { syncedStates } from '../support/sync_states.js';

const HEIGHT = Number(process.env.LATE_JOIN_HEIGHT ?? 1_000);
/** The chain the restart tests sync: more than one page of headers. */
const PREFIX = 600;
const SYNC_MS = 240_000;
const ARCHIVE = [CUCKATOO_ONLY, 'archive_mode = true'];

type Status = {
  sync_status: string;
  sync_info?: { current_height: number; highest_height: number };
};

const tipOf = (n: NodeProcess) => apiTip(n.url);

async function statusOf(n: NodeProcess): Promise<Status> {
  const body = await ownerText(n.url, basic(ownerSecret(n.home)), 'get_status', []);
  return (JSON.parse(body) as { result: { Ok: Status } }).result.Ok;
}

const addrs = (ports: readonly number[]) => ports.map((p) => `"127.0.0.1:${p}"`).join(', ');

/**
 * A node following `seeds` (archive mode, one outbound peer is enough); `deny`: peers it must
 * not use (a restarted node would otherwise dial the stalling peer its store remembers).
 */
function follower(
  seeds: readonly number[],
  home?: string,
  deny: number[] = [],
): Promise<NodeProcess> {
  return startNodeProcess({
    ...(home === undefined ? {} : { home }),
    serverLines: ARCHIVE,
    p2pLines: [
      'seeding_type = "List"',
      'peer_min_preferred_outbound_count = 1',
      `seeds = [${addrs(seeds)}]`,
      `peers_deny = [${addrs(deny)}]`,
    ],
  });
}

async function reachTip(n: NodeProcess, hash: string): Promise<ApiTip> {
  return pollUntil(
    () => tipOf(n),
    (t) => t.last_block_pushed === hash,
    SYNC_MS,
    250,
  );
}

/** The `p2p_sync` log lines of a node, parsed. */
function syncLines(n: NodeProcess): Record<string, unknown>[] {
  return n
    .stderr()
    .split('\n')
    .filter((l) => l.includes('"event":"p2p_sync"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('a node joining at height 1,000, and nodes killed mid-sync', { timeout: 900_000 }, () => {
  const blocks: Block[] = [];
  let a: NodeProcess;
  const others: NodeProcess[] = [];
  const servers: ChainServer[] = [];
  let aTip: string;

  before(async () => {
    const mined = await minedChain(HEIGHT);
    blocks.push(...mined.blocks);
    a = await startNodeProcess({ home: mined.dbRoot, serverLines: ARCHIVE });
    aTip = toHex(headerHash(blocks[HEIGHT - 1]?.header as Block['header'], AUTO));
  });
  after(async () => {
    for (const n of [...others, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
    for (const s of servers) await s.close();
  });

  it('A serves the chain it was built with', async () => {
    const t = await tipOf(a);
    assert.deepEqual([t.height, t.last_block_pushed], [HEIGHT, aTip]);
  });

  it('B header-syncs then body-syncs all 1,000 blocks; get_status shows each state with sync_info', async () => {
    const b = await follower([p2pPortOf(a)]);
    others.push(b);
    const seen: Status[] = [];
    let tip = await tipOf(b);
    for (const end = Date.now() + SYNC_MS; tip.last_block_pushed !== aTip; ) {
      assert.ok(Date.now() < end, `B at ${tip.height}`);
      const s = await statusOf(b);
      if (s.sync_status !== seen.at(-1)?.sync_status) seen.push(s);
      await new Promise((r) => setTimeout(r, 100));
      tip = await tipOf(b);
    }
    assert.equal(tip.height, HEIGHT);
    assert.deepEqual(await syncedStates(b), ['header_sync', 'body_sync', 'no_sync']);
    const [headerLine, bodyLine] = syncLines(b).filter((l) => l.status !== 'no_sync');
    // The sync starts as A connects, before A's first Ping tells its height: like Epic's recorded
    // timeline (usernet_sync_status.jsonl), header_sync may first say highest_height 0.
    assert.ok([0, HEIGHT].includes(Number(headerLine?.highest_height)), JSON.stringify(headerLine));
    assert.deepEqual(headerLine, { ...headerLine, status: 'header_sync', current_height: 0 });
    assert.deepEqual(bodyLine, { ...bodyLine, status: 'body_sync', highest_height: HEIGHT });
    // Body sync lasts long enough to be seen through the API, with Epic's sync_info.
    const body = seen.find((s) => s.sync_status === 'body_sync');
    assert.ok(body !== undefined, JSON.stringify(seen));
    assert.deepEqual(Object.keys(body.sync_info ?? {}), ['current_height', 'highest_height']);
    assert.equal(body.sync_info?.highest_height, HEIGHT);
    assert.ok(b.stderr().includes('"event":"p2p_sync_progress","status":"body_sync"'));
    assert.deepEqual(await validateChain(b), { Ok: null });
  });

  /** Syncs a fresh node from a peer that stalls at `limits`, kills it there, resumes elsewhere. */
  async function killAndResume(limits: ServeLimits, stalled: (s: Status) => boolean) {
    const prefix = new HeldChain(
      AUTO,
      [genesisHeader('automated'), ...blocks.slice(0, PREFIX).map((b) => b.header)],
      blocks.slice(0, PREFIX),
    );
    const stalling = await ChainServer.start(prefix, 'automated', limits);
    const full = await ChainServer.start(prefix, 'automated');
    servers.push(stalling, full);
    const first = await follower([stalling.port]);
    others.push(first);
    const at = await pollUntil(() => statusOf(first), stalled, SYNC_MS, 100);
    if (process.env.LATE_JOIN_LOG !== undefined)
      writeFileSync(process.env.LATE_JOIN_LOG, `${stalling.port} ${full.port}\n${first.stderr()}`);
    assert.ok(stalled(at), JSON.stringify(at));
    await first.kill();
    const again = await follower([full.port], first.home, [stalling.port]);
    others.push(again);
    const want = toHex(headerHash(prefix.tip, AUTO));
    assert.equal((await reachTip(again, want)).height, PREFIX);
    assert.deepEqual(await validateChain(again), { Ok: null });
    return syncedStates(again);
  }

  it('killed during header sync (headers served up to 512), it resumes and completes', async () => {
    const states = await killAndResume(
      { headersUpTo: 512n },
      (s) => s.sync_status === 'header_sync' && s.sync_info?.current_height === 512,
    );
    assert.deepEqual(states, ['header_sync', 'body_sync', 'no_sync']);
  });

  it('killed during body sync (blocks served up to 300), it resumes and completes', async () => {
    const states = await killAndResume(
      { blocksUpTo: 300n },
      (s) => s.sync_status === 'body_sync' && (s.sync_info?.current_height ?? 0) >= 300,
    );
    // Its header chain survived the kill: no header sync again.
    assert.deepEqual(states, ['body_sync', 'no_sync']);
  });
});
