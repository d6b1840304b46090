import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startLoopLag, statsIntervalMs } from '../../../actors/peers/loop_lag.js';

test('MWNODE_P2P_STATS_MS: a positive integer turns the report on, anything else leaves it off', () => {
  assert.equal(statsIntervalMs('250'), 250);
  for (const v of [undefined, '', '0', '-5', '1.5', 'x']) assert.equal(statsIntervalMs(v), null);
});

test('off: nothing is logged and stop is harmless', async () => {
  const lines: string[] = [];
  const stop = startLoopLag(
    null,
    () => 0,
    (e) => lines.push(e),
  );
  await new Promise((r) => setTimeout(r, 60));
  stop();
  assert.deepEqual(lines, []);
});

test('on: p2p_loop_lag lines carry the lag of the interval and the peer count', async () => {
  const lines: Record<string, unknown>[] = [];
  const stop = startLoopLag(
    100,
    () => 7,
    (event, fields) => lines.push({ event, ...fields }),
  );
  // Blocks the loop 40 ms: the largest lag of the interval is about that.
  await new Promise((r) => setTimeout(r, 30));
  const until = performance.now() + 40;
  while (performance.now() < until);
  await new Promise((r) => setTimeout(r, 250));
  stop();
  const n = lines.length;
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(lines.length, n, 'no line after stop');
  assert.ok(n >= 1, 'at least one line');
  const first = lines[0] as Record<string, number | string>;
  assert.equal(first.event, 'p2p_loop_lag');
  assert.equal(first.peers, 7);
  const max = Math.max(...lines.map((l) => l.max_ms as number));
  assert.ok(max >= 25 && max < 200, `max lag ${max} ms`);
  for (const l of lines) {
    const { p50_ms, p99_ms, max_ms } = l as Record<string, number>;
    // Percentiles come from histogram buckets (3 significant digits): the top one may sit a
    // fraction above the recorded maximum.
    assert.ok(0 <= p50_ms && p50_ms <= p99_ms && p99_ms <= max_ms + 1, JSON.stringify(l));
  }
});
