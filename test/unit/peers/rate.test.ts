// The per-minute message counter: sixty one-second buckets, so a minute's count forgets each
// second exactly 60 s after it, with directed edges at bucket and minute boundaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MinuteCounter } from '../../../actors/peers/rate.js';

describe('MinuteCounter', () => {
  it('counts every event of the last 60 one-second buckets', () => {
    const c = new MinuteCounter();
    assert.equal(c.count(0), 0);
    assert.equal(c.add(0), 1);
    assert.equal(c.add(999), 2);
    assert.equal(c.add(1_000), 3);
    assert.equal(c.add(59_999), 4);
    // Second 0 leaves the window at second 60; second 1 at second 61.
    assert.equal(c.count(60_000), 2);
    assert.equal(c.count(61_000), 1);
    assert.equal(c.count(118_999), 1);
    assert.equal(c.count(119_000), 0);
  });

  it('a bucket reused a minute later starts from zero', () => {
    const c = new MinuteCounter();
    for (let i = 0; i < 5; i++) c.add(3_000);
    assert.equal(c.add(63_000), 1);
    assert.equal(c.count(63_500), 1);
  });

  it('5,001 events in one second are all counted', () => {
    const c = new MinuteCounter();
    let n = 0;
    for (let i = 0; i < 5_001; i++) n = c.add(1_700_000_000_000);
    assert.equal(n, 5_001);
  });
});
