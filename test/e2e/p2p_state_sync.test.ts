// State sync between mwnode nodes (issue 19), on loopback with the testing parameters (threshold
// 20, interval 10, horizon 70): A holds a chain of 300 real blocks (automated testing, Cuckatoo
// only); B, a fresh non-archive node seeded with A, header-syncs, downloads A's archive for
// height 280, validates and imports it, body-syncs the last 20 blocks and reaches A's tip. Its
// get_status, polled every 100 ms, moves through Epic's strings; its state then answers the API
// as A's does, and it holds no full block below the archive header. A scripted Epic peer asks A
// for an archive with a made-up hash and gets Epic's archive for 280. Then fresh nodes meet a
// scripted node one block ahead (so the one asked) whose archive is corrupt (sync_error, no
// ban), names an unknown header (BadTxHashSet ban) or stops half way (asked elsewhere after 60 s
// without a byte); each finishes from an honest scripted node with the same chain. Last, nodes
// killed (SIGKILL) during the download and during validation restart in the same home and
// finish with the same state as A.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toHex } from '../../core/bytes.js';
import { genesisHeader } from '../../core/genesis.js';
import { headerHash } from '../../core/ser/header.js';
import { archiveFileList, readArchive, shortHash } from '../../core/txhashset/archive.js';
import { validateArchiveMmrs } from '../../core/txhashset/validate.js';
import { readZip } from '../../core/txhashset/zip.js';
import type { Block } from '../../core/types/block.js';
import { bagPeaks, hashFile, roaringValues, walkStored } from '../support/archive_walk.js';
import { ChainServer, HeldChain, type ServedArchive } from '../support/chain_server.js';
import { validateChain } from '../support/crash_life.js';
import { EpicPeer, wireAddr } from '../support/epic_peer.js';
import { CUCKATOO_ONLY } from '../support/killable_node.js';
import { minedChain } from '../support/local_chain.js';
import {
  AUTO,
  apiTip,
  foreignOk,
  foreignRpc,
  mineBlock,
  ownerText,
  submit,
} from '../support/miner.js';
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
  const others: NodeProcess[] = [];
  const servers: ChainServer[] = [];
  let aTip: string;
  const blocks: Block[] = [];
  /** A's archive for 280, as the scripted peer received it. */
  let served: Uint8Array | undefined;

  before(async () => {
    const mined = await minedChain(HEIGHT);
    blocks.push(...mined.blocks);
    a = await startNodeProcess({
      home: mined.dbRoot,
      serverLines: [CUCKATOO_ONLY, 'archive_mode = true'],
    });
    aTip = toHex(headerHash(blocks[HEIGHT - 1]?.header as Block['header'], AUTO));
  });
  after(async () => {
    for (const n of [...others, b, a]) {
      await n?.stop();
      if (n !== undefined) removeHome(n.home);
    }
    for (const x of servers) await x.close();
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

  it("A answers a TxHashSetRequest for any hash with Epic's archive for 280: entries, Stored, 0644, no pause while RandomX verifies", async () => {
    const peer = await EpicPeer.connect('127.0.0.1', p2pPortOf(a));
    try {
      const low = genesisHeader('automated').pow.totalDifficulty;
      peer.sendHand({ totalDifficulty: low, senderAddr: wireAddr('127.0.0.1', 23_999) });
      await peer.expect('Shake', 5_000);
      // RandomX verifications under way in A's pool while it streams: blocks whose proofs
      // name new seeds (each a cache to build); they fail, but only after the verification.
      const randomx = [1, 2, 3, 4].map((k) =>
        submit(a.url, randomXBlock(blocks[HEIGHT - 1] as Block, k)).then((r) => ({
          r,
          at: Date.now(),
        })),
      );
      await new Promise((r) => setTimeout(r, 50));
      peer.send({ type: 'TxHashSetRequest', hash: new Uint8Array(32).fill(0xee), height: 7n });
      const reply = (await peer.expect('TxHashSetArchive', 30_000)).message;
      const at = blocks[ARCHIVE_HEIGHT - 1]?.header as Block['header'];
      assert.equal(toHex(reply.hash), toHex(headerHash(at, AUTO)));
      assert.equal(reply.height, BigInt(ARCHIVE_HEIGHT));
      const size = Number(reply.bytes);
      // Arrival times of the attachment's bytes: no pause of a second or more mid-stream.
      const arrivals: number[] = [];
      let got = 0;
      const zip = await pollUntil(
        () => {
          const now = Buffer.concat(peer.attachments);
          if (now.length > got) arrivals.push(Date.now());
          got = now.length;
          return now;
        },
        (z) => z.length >= size,
        30_000,
        20,
      );
      assert.equal(zip.length, size);
      const verified = await Promise.all(randomx);
      assert.deepEqual(
        verified.map((v) => v.r.body.result),
        verified.map(() => ({ Err: { Internal: 'Invalid PoW' } })),
      );
      assert.ok(
        verified.some((v) => v.at > (arrivals.at(-1) as number)),
        'a RandomX verification outlasted the stream',
      );
      const gaps = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number));
      assert.ok(
        gaps.every((g) => g < 1_000),
        JSON.stringify(gaps),
      );
      const bytes = new Uint8Array(zip);
      const entries = readZip(bytes, {
        maxEntries: 10,
        allowName: () => true,
        maxEntrySize: () => 2 ** 30,
        maxTotalSize: 2 ** 31,
      });
      // Never compacted (an archive node): no prune lists, the other eight in Epic's order.
      const hash = headerHash(at, AUTO);
      assert.deepEqual(
        entries.map((e) => e.name),
        archiveFileList(hash).filter((n) => !n.includes('pmmr_prun')),
      );
      assert.deepEqual(
        centralModes(bytes),
        entries.map(() => 0o100644),
      );
      validateArchiveMmrs(readArchive(bytes, at, AUTO), at, AUTO);
      served = bytes;
    } finally {
      await peer.close();
    }
  });

  it("an independent reading of A's archive: sizes, roots, leaf hashes and leaf set as A's API shows its state", async () => {
    const files = walkStored(served as Uint8Array);
    const tip = blocks[HEIGHT - 1]?.header as Block['header'];
    const at = blocks[ARCHIVE_HEIGHT - 1]?.header as Block['header'];
    const v1 = async (path: string) => {
      const r = await fetch(`${a.url}${path}`, {
        headers: { authorization: basic(ownerSecret(a.home)) },
      });
      assert.equal(r.status, 200, path);
      return (await r.json()) as unknown;
    };
    const hashes = (kind: string) => hashFile(files.get(`${kind}/pmmr_hash.bin`) as Uint8Array);
    // Epic's files run to the tip at the build (A's 300, whose header roots they must give);
    // the leaf sets are rewound to 280.
    const [output, rangeproof, kernel] = ['output', 'rangeproof', 'kernel'].map(hashes);
    assert.deepEqual(
      [output?.length, rangeproof?.length, kernel?.length],
      [tip.outputMmrSize, tip.outputMmrSize, tip.kernelMmrSize].map(Number),
    );
    assert.equal(toHex(bagPeaks(kernel ?? [], kernel?.length ?? 0)), toHex(tip.kernelRoot));
    assert.equal(
      toHex(bagPeaks(rangeproof ?? [], rangeproof?.length ?? 0)),
      toHex(tip.rangeProofRoot),
    );
    const unspent = (await foreignOk(a.url, 'get_unspent_outputs', [
      1,
      Number(tip.outputMmrSize),
      1000,
      false,
    ])) as {
      outputs: Array<{ mmr_index: number }>;
    };
    const positions = unspent.outputs.map((o) => o.mmr_index);
    const last = (await v1(`/v1/txhashset/lastoutputs?n=${positions.length}`)) as Array<{
      hash: string;
    }>;
    // The last leaves, newest first (Epic's order).
    assert.deepEqual(
      positions.map((p) => toHex(output?.[p - 1] as Uint8Array)).reverse(),
      last.map((n) => n.hash),
    );
    // Coinbase-only blocks: unspent at 280 is every leaf up to its size, and Epic's rewind
    // keeps the set's highest position (the tip's coinbase).
    const leaves = roaringValues(
      files.get(`output/pmmr_leaf.bin.${shortHash(headerHash(at, AUTO))}`) as Uint8Array,
    );
    assert.deepEqual(leaves, [
      ...positions.filter((p) => p <= Number(at.outputMmrSize)),
      positions.at(-1),
    ]);
  });

  /** A's chain with one block more (mined on A), as the scripted nodes hold it. */
  let extraBlock: Block | undefined;

  /** A's archive for 280, as a scripted node serves it. */
  function goodArchive(): ServedArchive {
    const at = blocks[ARCHIVE_HEIGHT - 1]?.header as Block['header'];
    return {
      hash: headerHash(at, AUTO),
      height: BigInt(ARCHIVE_HEIGHT),
      bytes: served as Uint8Array,
    };
  }

  /**
   * A scripted node with A's chain and one block more, answering TxHashSetRequest with
   * `archive`; with `short`, it says it holds only A's 300 (so it is never the most-work peer)
   * but serves every header and block. A itself stays out: a node would relay the extra block.
   */
  async function scripted(
    archive: ServedArchive,
    short = false,
  ): Promise<{ server: ChainServer; tip: Block['header'] }> {
    extraBlock ??= await mineBlock(a.url);
    const extra = extraBlock;
    const chain = new HeldChain(
      AUTO,
      [genesisHeader('automated'), ...blocks.map((x) => x.header), extra.header],
      [...blocks, extra],
    );
    const server = await ChainServer.start(chain, 'automated', {
      archive,
      ...(short ? { advertise: blocks[HEIGHT - 1]?.header as Block['header'] } : {}),
    });
    servers.push(server);
    return { server, tip: extra.header };
  }

  /** `bad`, one block ahead, answers `archive(good)`; `good` says less but serves all. */
  async function pair(
    archive: (good: ServedArchive) => ServedArchive,
  ): Promise<{ bad: ChainServer; good: ChainServer; tip: Block['header'] }> {
    const { server: bad, tip } = await scripted(archive(goodArchive()));
    const { server: good } = await scripted(goodArchive(), true);
    return { bad, good, tip };
  }

  function joiner(seeds: readonly number[], home?: string): Promise<NodeProcess> {
    const list = seeds.map((p) => `"127.0.0.1:${p}"`).join(', ');
    return startNodeProcess({
      ...(home === undefined ? {} : { home }),
      serverLines: [CUCKATOO_ONLY, 'archive_mode = false'],
      p2pLines: [
        'seeding_type = "List"',
        `peer_min_preferred_outbound_count = ${seeds.length}`,
        `seeds = [${list}]`,
      ],
    });
  }

  /** Waits for the node to reach `tip`, then checks its chain. */
  async function finishes(n: NodeProcess, tip: Block['header']): Promise<void> {
    const want = toHex(headerHash(tip, AUTO));
    const got = await pollUntil(
      () => apiTip(n.url),
      (t) => t.last_block_pushed === want,
      SYNC_MS,
      250,
    );
    const syncs = events(n, 'p2p_sync').slice(-5);
    assert.equal(got.last_block_pushed, want, `at ${got.height}: ${JSON.stringify(syncs)}`);
    assert.deepEqual(await validateChain(n), { Ok: null });
  }

  it('a corrupt archive: sync_error, no ban, a new request, and the node finishes', async () => {
    const { bad, good, tip } = await pair((archive) => {
      const bytes = archive.bytes.slice();
      bytes[bytes.length >> 1] ^= 1;
      return { ...archive, bytes };
    });
    const n = await joiner([bad.port, good.port]);
    others.push(n);
    await finishes(n, tip);
    const states = await syncedStates(n);
    assert.ok(states.includes('sync_error'), JSON.stringify(states));
    assert.equal(events(n, 'p2p_peer_banned').length, 0);
    assert.ok(bad.served.requests.includes('TxHashSetRequest'));
  });

  it('an archive of an unknown header: the sender is banned BadTxHashSet, the node finishes', async () => {
    const { bad, good, tip } = await pair((archive) => ({
      ...archive,
      hash: new Uint8Array(32).fill(0x5a),
    }));
    const n = await joiner([bad.port, good.port]);
    others.push(n);
    await finishes(n, tip);
    assert.deepEqual(
      events(n, 'p2p_peer_banned').map((e) => [e.addr, e.reason]),
      [[`127.0.0.1:${bad.port}`, 'BadTxHashSet']],
    );
    assert.ok(good.served.requests.includes('TxHashSetRequest'));
  });

  it('a peer that stops mid-archive: another is asked within 60 s and the node finishes', async () => {
    const { bad, good, tip } = await pair((archive) => ({
      ...archive,
      sendBytes: archive.bytes.length >> 1,
    }));
    const n = await joiner([bad.port, good.port]);
    others.push(n);
    await finishes(n, tip);
    const [first, second] = events(n, 'p2p_state_sync_request');
    assert.equal(first?.peer, `127.0.0.1:${bad.port}`);
    assert.equal(second?.peer, `127.0.0.1:${good.port}`);
    const archived = events(n, 'p2p_state_sync_archive')[0];
    const waited = Date.parse(String(second?.ts)) - Date.parse(String(archived?.ts));
    // The stall is 60 s without a byte; the new request follows at the sync's next step.
    assert.ok(waited >= 59_000 && waited < 62_000, `asked again after ${waited} ms`);
    assert.equal(events(n, 'p2p_peer_banned').length, 0);
  });

  it('killed during the download: restarted, the partial file goes and the node finishes', async () => {
    const good = goodArchive();
    const { server: stall, tip } = await scripted({ ...good, sendBytes: good.bytes.length >> 1 });
    const n = await joiner([stall.port]);
    const archived = await pollUntil(
      () => events(n, 'p2p_state_sync_archive').length,
      (k) => k > 0,
      SYNC_MS,
      20,
    );
    assert.equal(archived, 1);
    await n.kill();
    // Gone too (the restarted node would dial it from its peer store and wait out its stall).
    await stall.close();
    const { server: honest } = await scripted(good);
    const again = await joiner([honest.port], n.home);
    others.push(again);
    await finishes(again, tip);
    assert.deepEqual(
      events(again, 'p2p_state_sync_stale_removed').map((e) => e.files),
      [1],
    );
    await sameStateAsA(again);
  });

  it('killed while validating: restarted, the node takes an archive again and finishes', async () => {
    const { server: honest, tip } = await scripted(goodArchive());
    const n = await joiner([honest.port]);
    const killed = new Promise<void>((resolve) => {
      let seen = '';
      n.proc.stderr?.on('data', (d: Buffer) => {
        seen += d.toString();
        if (!seen.includes('"status":"txhashset_rangeproofs_validation"')) return;
        n.proc.kill('SIGKILL');
        resolve();
      });
    });
    await killed;
    await n.kill();
    assert.ok(!n.stderr().includes('"status":"txhashset_save"'), 'killed after validation');
    const again = await joiner([honest.port], n.home);
    others.push(again);
    await finishes(again, tip);
    assert.equal(events(again, 'p2p_state_sync_done').length, 1);
    await sameStateAsA(again);
  });

  /** Unspent outputs up to A's tip as A's, and no block below the archive header. */
  async function sameStateAsA(n: NodeProcess): Promise<void> {
    const ours = await foreignRpc(n.url, 'get_unspent_outputs', [1, HEIGHT, 1000, true]);
    const theirs = await foreignRpc(a.url, 'get_unspent_outputs', [1, HEIGHT, 1000, true]);
    assert.deepEqual(ours, theirs);
    const below = await foreignRpc(n.url, 'get_block', [ARCHIVE_HEIGHT - 1, null, null]);
    assert.deepEqual(below.body.result, { Err: 'NotFound' });
  }
});

/**
 * A block on top of `tip` whose header claims a RandomX proof under seed `k` (never seen, so
 * verifying it builds a RandomX cache): the proof is wrong, which only the verification shows.
 */
function randomXBlock(tip: Block, k: number): Block {
  const h = tip.header;
  return {
    ...tip,
    header: {
      ...h,
      height: h.height + 1n,
      prevHash: headerHash(h, AUTO),
      timestamp: h.timestamp + 60,
      pow: {
        ...h.pow,
        proof: { kind: 'RandomX', hash: new Uint8Array(32) },
        seed: new Uint8Array(32).fill(k),
      },
    },
  };
}

/** Unix modes of a zip's central directory entries (external attributes >> 16). */
function centralModes(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const modes: number[] = [];
  for (let i = 0; i + 46 <= zip.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    modes.push(view.getUint32(i + 38, true) >>> 16);
    i +=
      45 +
      view.getUint16(i + 28, true) +
      view.getUint16(i + 30, true) +
      view.getUint16(i + 32, true);
  }
  return modes;
}
