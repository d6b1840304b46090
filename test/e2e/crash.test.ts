// Crash safety of the real node: a reference node mines N blocks without interruption; a victim
// node is fed the same blocks over HTTP while it is SIGKILLed 30 times at random moments —
// each during or just after a submit_block (crash_life.ts) — and restarted in the same home.
// After every restart its head must be a block of the reference chain and validate_chain must
// pass; at the end its head, and its whole database (headers, blocks, sums, spent index, UTXO
// and kernel indexes, every MMR table), must equal the reference's.
//
// The schedule comes from a seeded PRNG; the seed is printed, and CRASH_SEED=<n> replays it
// (the moments are fractions of measured submit times, so a replay is close, not exact).
// Each life costs a node start and a first block that warms the verification workers (about
// 2 s of CPU; 4–8 s of wall time on a busy 2-core machine): hence the generous timeout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  getTip,
  mineChain,
  type RecordedBlock,
  seededRandom,
  submitRecorded,
} from '../support/block_feed.js';
import { dumpTables, mmrTableNames } from '../support/chain_db.js';
import {
  checkOnChain,
  type Death,
  Latency,
  liveAndDie,
  validateChain,
} from '../support/crash_life.js';
import { type KillableNode, startKillable } from '../support/killable_node.js';
import { removeHome, tempHome } from '../support/node_process.js';

/** Past foundation heights 5, 10, … and the header-v7 fork at 6; enough for 30 interruptions. */
const N = 60;
const KILLS = 30;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * What to do in life `kill` when the victim's head is at most `height`. Mostly one block is fed
 * first, so the kill falls in a warm submit (the first after a start spends most of its time
 * warming the verification workers), but only while enough blocks remain for every later life
 * to interrupt one.
 */
function plan(random: () => number, kill: number, height: number) {
  const feedFirst = random() < 0.75;
  const fraction = random();
  const blocksLeft = N - height;
  const killsLeft = KILLS - kill + 1;
  return { before: feedFirst && blocksLeft >= killsLeft + 1 ? 1 : 0, fraction };
}

describe('crash safety under SIGKILL', { timeout: 600_000 }, () => {
  let reference: KillableNode;
  let chain: RecordedBlock[];
  const victimHome = tempHome();

  before(async () => {
    reference = await startKillable();
    chain = await mineChain(reference.url, N);
  });
  /** Set on a failure: both homes stay for a look at their databases. */
  let keep = false;
  after(async () => {
    await reference?.stop();
    if (keep) return;
    if (reference) removeHome(reference.home);
    removeHome(victimHome);
  });

  it(`${KILLS} kills while accepting blocks leave the chain a node without kills has (seed ${SEED})`, async (t) => {
    t.diagnostic(`CRASH_SEED=${SEED}`);
    const random = seededRandom(SEED);
    const latency = new Latency();
    const deaths: Death[] = [];
    let victim: KillableNode | null = null;
    const where = () =>
      `CRASH_SEED=${SEED}, homes kept: victim ${victimHome}, reference ${reference.home}; ` +
      `lives so far ${JSON.stringify(deaths)}; last stderr: ${victim?.stderr().slice(-1500)}`;
    let height = 0;
    let finalBack = 0;
    try {
      for (let kill = 1; kill <= KILLS; kill++) {
        victim = await startKillable(victimHome);
        try {
          const death = await liveAndDie(victim, chain, plan(random, kill, height), latency);
          deaths.push(death);
          height = death.inFlight;
        } finally {
          await victim.kill();
        }
      }
      const last = await startKillable(victimHome);
      victim = last;
      try {
        const tip = await checkOnChain(last, chain);
        finalBack = tip.height;
        for (const block of chain.slice(tip.height)) await submitRecorded(last.url, block);
        assert.deepEqual(await validateChain(last), { Ok: null });
        assert.deepEqual(await getTip(last.url), await getTip(reference.url));
        assert.equal(await last.stop(), 0);
      } finally {
        await last.kill();
      }
    } catch (e) {
      keep = true;
      throw new Error(`${where()}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    // Whether each interrupted block made it: the next life's head says.
    const kept = deaths.map((d, i) => (deaths[i + 1]?.cameBackAt ?? finalBack) >= d.inFlight);
    const count = (f: (d: Death, i: number) => boolean) => deaths.filter(f).length;
    t.diagnostic(
      `kills: ${count((d, i) => d.beforeReply && !kept[i])} before the block was kept, ` +
        `${count((d, i) => d.beforeReply && kept[i] === true)} after it was kept but before the reply, ` +
        `${count((d) => !d.beforeReply)} after the reply`,
    );
    t.diagnostic(`interrupted heights ${deaths.map((d) => d.inFlight).join(',')}`);
    t.diagnostic(`back at heights ${deaths.map((d) => d.cameBackAt).join(',')}`);
  });

  it('the victim’s database equals the reference’s, table by table', async () => {
    keep = true;
    assert.equal(await reference.stop(), 0);
    const mmr = mmrTableNames(reference.home);
    assert.deepEqual(mmrTableNames(victimHome), mmr);
    const tables = [
      'headers',
      'blocks',
      'block_sums',
      'spent',
      'tips',
      'output_pos',
      'kernel_pos',
      ...mmr,
    ];
    const ours = dumpTables(victimHome, tables);
    const theirs = dumpTables(reference.home, tables);
    for (const table of tables) assert.deepEqual(ours[table], theirs[table], table);
    assert.equal(ours.headers?.length, N + 1);
    // A coinbase kernel per block, and a foundation kernel at every fifth height.
    assert.equal(ours.kernel_pos?.length, N + N / 5);
    keep = false;
  });
});
