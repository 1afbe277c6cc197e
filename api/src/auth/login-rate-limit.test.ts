import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { testRedis } from '../../test/live-redis-server.js';
import { type AttemptDecision, type LoginRateLimit, MemoryLoginRateLimit, RedisLoginRateLimit, type ThrottlePolicy } from './login-rate-limit.js';

const POLICY: ThrottlePolicy = { windowMs: 60_000, pairMax: 3, addressMax: 5, accountFree: 3, delayBaseMs: 1_000, delayCapMs: 4_000 };

interface Clock {
  now: number;
}

/** The same cases on both stores: the Lua script and the in-memory code must agree. */
function throttleCases(name: string, make: (clock: Clock) => Promise<LoginRateLimit | { skip: string }>) {
  describe(name, () => {
    const clock: Clock = { now: 1_000_000 };
    let limit: LoginRateLimit | undefined;
    let skipReason: string | false = false;
    const skip = () => skipReason;
    const fail = async (account: string, address: string): Promise<AttemptDecision> => limit!.begin({ account, address });
    const waitOf = (d: AttemptDecision) => (d.allowed ? 0 : d.waitMs);

    before(async () => {
      const made = await make(clock);
      if ('skip' in made) skipReason = made.skip;
      else limit = made;
    });
    after(async () => {
      await limit?.close();
    });

    it('a pair at pairMax failures waits until its oldest failure leaves the window; the account from elsewhere does not', async (t) => {
      if (skip()) return t.skip(String(skip()));
      for (let i = 0; i < 3; i++) {
        assert.equal((await fail('x', '10.0.0.1')).allowed, true);
        clock.now += 1_000;
      }
      // Oldest at 1_000_000; now 1_003_000: free at 1_060_000.
      assert.equal(waitOf(await fail('x', '10.0.0.1')), 57_000);
      clock.now = 1_060_000;
      // The account has 3 failures (accountFree): this dirty pair now waits only the delay after its last failure.
      assert.equal(waitOf(await fail('x', '10.0.0.1')), 0);
    });

    it('an account over accountFree: dirty addresses wait a doubling, capped delay; a clean address is not delayed', async (t) => {
      if (skip()) return t.skip(String(skip()));
      clock.now += 120_000;
      for (let i = 1; i <= 3; i++) assert.equal((await fail('y', `10.1.0.${i}`)).allowed, true);
      // 3 account failures: 1 s after each address's own last failure.
      assert.equal(waitOf(await fail('y', '10.1.0.1')), 1_000);
      const clean = await fail('y', '10.1.0.99');
      assert.equal(clean.allowed, true);
      await limit!.succeeded({ account: 'y', address: '10.1.0.99' }, (clean as { attemptId: string }).attemptId);
      // A success withdraws its attempt: still 3 failures, still 1 s.
      assert.equal(waitOf(await fail('y', '10.1.0.2')), 1_000);
      clock.now += 1_000;
      assert.equal((await fail('y', '10.1.0.2')).allowed, true); // 4 failures: 2 s
      assert.equal(waitOf(await fail('y', '10.1.0.2')), 2_000);
      for (let i = 4; i <= 6; i++) assert.equal((await fail('y', `10.1.0.${i}`)).allowed, true); // 7: 16 s, capped at 4 s
      assert.equal(waitOf(await fail('y', '10.1.0.6')), 4_000);
      assert.equal(waitOf(await fail('y', '10.1.0.1')), 3_000); // its last failure was 1 s ago
      assert.equal((await fail('y', '10.1.0.100')).allowed, true);
    });

    it('an address at addressMax failures across accounts waits, for every account; other addresses do not', async (t) => {
      if (skip()) return t.skip(String(skip()));
      clock.now += 120_000;
      for (let i = 0; i < 5; i++) assert.equal((await fail(`spray-${i}`, '10.2.0.1')).allowed, true);
      assert.equal(waitOf(await fail('someone-else', '10.2.0.1')), 60_000);
      assert.equal((await fail('someone-else', '10.2.0.2')).allowed, true);
    });

    it("a success withdraws its pair's failures from the address and the account counts", async (t) => {
      if (skip()) return t.skip(String(skip()));
      clock.now += 120_000;
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 2; i++) assert.equal((await fail('z', '10.3.0.1')).allowed, true, `round ${round}`);
        const ok = await fail('z', '10.3.0.1');
        assert.equal(ok.allowed, true, `round ${round}`);
        await limit!.succeeded({ account: 'z', address: '10.3.0.1' }, (ok as { attemptId: string }).attemptId);
      }
      // 12 attempts from this address, none left counted: the address's budget (5) is whole.
      for (let i = 0; i < 5; i++) assert.equal((await fail(`other-${i}`, '10.3.0.1')).allowed, true);
    });

    it('parallel attempts of one pair: exactly pairMax get through', async (t) => {
      if (skip()) return t.skip(String(skip()));
      clock.now += 120_000;
      const decisions = await Promise.all(Array.from({ length: 20 }, () => fail('w', '10.4.0.1')));
      assert.equal(decisions.filter((d) => d.allowed).length, 3);
    });
  });
}

describe('MemoryLoginRateLimit memory', () => {
  it('holds at most maxKeys keys under a flood of distinct addresses, and still throttles the latest pair', async () => {
    const now = 1_000_000;
    const limit = new MemoryLoginRateLimit(POLICY, () => now, 1_000);
    for (let i = 0; i < 5_000; i++) {
      await limit.begin({ account: `flood-${i}`, address: `10.9.${i >> 8}.${i & 255}` });
      assert.ok(limit.size <= 1_000, `${limit.size} keys after ${i + 1} attempts`);
    }
    for (let i = 0; i < 3; i++) assert.equal((await limit.begin({ account: 'last', address: '10.8.0.1' })).allowed, true);
    assert.equal((await limit.begin({ account: 'last', address: '10.8.0.1' })).allowed, false);
  });
});

throttleCases('MemoryLoginRateLimit', async (clock) => new MemoryLoginRateLimit(POLICY, () => clock.now));

throttleCases('RedisLoginRateLimit', async (clock) => {
  const redis = await testRedis();
  if ('skip' in redis) return redis;
  const connection = new Redis(redis.url);
  // A prefix of its own: the same Redis may serve other tests at once.
  const prefix = `tessera-test:${crypto.randomUUID()}:`;
  return new RedisLoginRateLimit(connection, prefix, POLICY, async () => {
    await connection.quit();
    redis.stop();
  }, () => clock.now);
});
