// The per-address API rate limit (gateway/rate_limit.ts): token buckets, refill, and a bounded
// table of addresses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter } from '../../gateway/rate_limit.js';

/** How many of `n` requests at `at` ms are let through for `address`. */
function allowed(l: RateLimiter, address: string, at: number, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (l.allow(address, at)) ok++;
  return ok;
}

describe('RateLimiter', () => {
  it('lets a burst through, then the rate; each address has its own bucket', () => {
    const l = new RateLimiter({ perSecond: 10, burst: 20 });
    assert.equal(allowed(l, '10.0.0.1', 0, 25), 20);
    assert.equal(allowed(l, '10.0.0.2', 0, 25), 20);
    assert.equal(allowed(l, '10.0.0.1', 100, 5), 1, '0.1 s refills one token');
    assert.equal(allowed(l, '10.0.0.1', 599, 10), 4, 'and 0.499 s four more, not five');
    assert.equal(
      allowed(l, '10.0.0.1', 60_000, 100),
      20,
      'a quiet minute refills to the burst only',
    );
  });

  it('never refills backwards when the clock does not move forward', () => {
    const l = new RateLimiter({ perSecond: 1, burst: 1 });
    assert.equal(allowed(l, 'a', 1000, 2), 1);
    assert.equal(allowed(l, 'a', 500, 1), 0);
    assert.equal(allowed(l, 'a', 1000, 1), 0);
    assert.equal(allowed(l, 'a', 2500, 1), 1);
  });

  it('keeps at most its cap of addresses, forgetting those seen longest ago', () => {
    const l = new RateLimiter({ perSecond: 1, burst: 1 }, 4);
    for (const [i, a] of ['a', 'b', 'c', 'd'].entries()) assert.ok(l.allow(a, i));
    assert.equal(l.tracked, 4);
    assert.ok(l.allow('e', 10), 'a new address at the cap');
    assert.equal(l.tracked, 3, 'a and b forgotten, e added');
    assert.equal(allowed(l, 'c', 10, 1), 0, 'c is still remembered: its token is spent');
    assert.equal(allowed(l, 'a', 10, 1), 1, 'a starts afresh');
  });

  it('refuses limits that make no sense', () => {
    assert.throws(() => new RateLimiter({ perSecond: 0, burst: 1 }), RangeError);
    assert.throws(() => new RateLimiter({ perSecond: 1, burst: 0 }), RangeError);
  });
});
