import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoginRateLimit } from './login-rate-limit.js';

describe('LoginRateLimit', () => {
  it('blocks a key at the limit until its oldest counted failure leaves the window', () => {
    let now = 1_000_000;
    const limit = new LoginRateLimit({ maxFailures: 3, windowMs: 60_000, now: () => now });
    limit.recordFailure(['k']);
    now += 10_000;
    limit.recordFailure(['k']);
    now += 10_000;
    assert.equal(limit.blockedFor(['k']), 0);
    limit.recordFailure(['k']);
    // Oldest failure at 1_000_000: free at 1_060_000, now is 1_020_000.
    assert.equal(limit.blockedFor(['k']), 40_000);
    now = 1_060_000;
    assert.equal(limit.blockedFor(['k']), 0);
  });

  it('reports the longest wait of several keys, and clear() forgets one key', () => {
    let now = 0;
    const limit = new LoginRateLimit({ maxFailures: 1, windowMs: 1000, now: () => now });
    limit.recordFailure(['a']);
    now = 500;
    limit.recordFailure(['b']);
    assert.equal(limit.blockedFor(['a', 'b']), 1000);
    limit.clear('b');
    assert.equal(limit.blockedFor(['a', 'b']), 500);
  });
});
