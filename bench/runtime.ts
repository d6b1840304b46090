// `npm run bench -- runtime`: the actor runtime's costs. Ask round trips to a thread actor
// against the same actor inline (the baseline: same codec, no thread hop), one at a time and
// with 64 in flight at concurrency 1 and 16; the same asks made by another thread actor through
// a link (routed by the main thread: two more hops and a decode/encode there each way), small
// and 1 MiB; and sha256 of 217-byte items through the worker pool against a plain loop on the
// main thread. Writes bench/results/runtime.json.
import { createHash } from 'node:crypto';
import { ActorSystem } from '../runtime/system.js';
import { WorkPool } from '../runtime/workpool.js';
import { probeActor } from '../test/support/actors/probe_messages.js';
import { relayActor } from '../test/support/actors/relay_messages.js';
import { type Measurement, saveResults } from './lib/harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

/** Runs `batch` (which does `ops` operations) for about SECONDS and reports ops/s. */
async function measureAsync(
  name: string,
  ops: number,
  batch: () => Promise<unknown>,
): Promise<Measurement> {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) await batch();
  let iterations = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  let now = start;
  while (now < end) {
    await batch();
    iterations += ops;
    now = performance.now();
  }
  const opsPerSec = iterations / ((now - start) / 1000);
  process.stdout.write(`${name.padEnd(48)} ${opsPerSec.toFixed(0).padStart(10)} ops/s\n`);
  return { name, opsPerSec, iterations };
}

const HEADER = Uint8Array.from({ length: 217 }, (_, i) => i & 0xff);
const body = { height: 123_456n, hash: new Uint8Array(32).fill(7) };
const results: Measurement[] = [];
const ratios: Record<string, number> = {};

const system = new ActorSystem();
const inline = await system.spawn(probeActor, {
  name: 'inline',
  placement: 'inline',
  init: { start: 0n },
});
const narrow = await system.spawn(probeActor, { name: 'narrow', init: { start: 0n } });
const wide = await system.spawn(probeActor, { name: 'wide', init: { start: 0n }, concurrency: 16 });
// Asks `narrow` from its own thread; each bench call runs many rounds there, so the main
// thread's ask to the relay itself is amortised away.
const relay = await system.spawn(relayActor, {
  name: 'relay',
  init: { target: 'narrow' },
  links: ['narrow'],
});

const one = (ref: typeof inline) => () => ref.ask('echo', body);
const many = (ref: typeof inline) => () =>
  Promise.all(Array.from({ length: 64 }, () => ref.ask('echo', body)));

const inlineOne = await measureAsync('ask echo, inline, one at a time', 1, one(inline));
const threadOne = await measureAsync('ask echo, thread, one at a time', 1, one(narrow));
const inlineMany = await measureAsync('ask echo, inline, 64 in flight', 64, many(inline));
const threadMany = await measureAsync('ask echo, thread c=1, 64 in flight', 64, many(narrow));
const wideMany = await measureAsync('ask echo, thread c=16, 64 in flight', 64, many(wide));
const linkOne = await measureAsync('ask echo, actor→thread link, one at a time', 100, () =>
  relay.ask('echoLoop', { rounds: 100, parallel: 1, body }),
);
const linkMany = await measureAsync('ask echo, actor→thread c=1 link, 64 in flight', 640, () =>
  relay.ask('echoLoop', { rounds: 10, parallel: 64, body }),
);
const big = { block: new Uint8Array(1 << 20).fill(3) };
const bigMain = await measureAsync('ask echo 1 MiB, main→thread, one at a time', 1, () =>
  narrow.ask('echo', big),
);
const bigLink = await measureAsync('ask echo 1 MiB, actor→thread link, one at a time', 10, () =>
  relay.ask('echoLoop', { rounds: 10, parallel: 1, body: big }),
);
results.push(inlineOne, threadOne, inlineMany, threadMany, wideMany);
results.push(linkOne, linkMany, bigMain, bigLink);
ratios.thread_vs_inline_one = threadOne.opsPerSec / inlineOne.opsPerSec;
ratios.thread_c1_vs_inline_64 = threadMany.opsPerSec / inlineMany.opsPerSec;
ratios.thread_c16_vs_c1_64 = wideMany.opsPerSec / threadMany.opsPerSec;
ratios.link_vs_main_one = linkOne.opsPerSec / threadOne.opsPerSec;
ratios.link_vs_main_c1_64 = linkMany.opsPerSec / threadMany.opsPerSec;
ratios.link_vs_main_1mib = bigLink.opsPerSec / bigMain.opsPerSec;
await system.shutdown();

const items = Array.from({ length: 10_000 }, () => HEADER);
const mainThread = await measureAsync('sha256 217 B, main thread loop', items.length, async () => {
  for (const item of items) createHash('sha256').update(item).digest();
});
const pool = new WorkPool({
  kindModules: [new URL('../test/support/actors/test_kinds.js', import.meta.url)],
});
const pooled = await measureAsync(`sha256 217 B, pool of ${pool.threads}`, items.length, () =>
  pool.runBatch('sha256', items),
);
await pool.close();
results.push(mainThread, pooled);
ratios.pool_vs_main_sha256 = pooled.opsPerSec / mainThread.opsPerSec;

for (const [k, v] of Object.entries(ratios)) process.stdout.write(`  ${k}: ×${v.toFixed(2)}\n`);
saveResults('runtime', results, ratios);
