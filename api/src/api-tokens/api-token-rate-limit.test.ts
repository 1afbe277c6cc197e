import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { testRedis } from '../../test/live-redis-server.js';
import { MemoryApiTokenRateLimit, RedisApiTokenRateLimit } from './api-token-rate-limit.js';

describe('MemoryApiTokenRateLimit', () => {
  it('allows `limit` requests per token in a window, then says how long until it ends; a new window starts afresh', async () => {
    let now = 1_000_000;
    const limit = new MemoryApiTokenRateLimit(3, () => now, 60_000);
    for (let i = 0; i < 3; i++) assert.deepEqual(await limit.hit('a'), { allowed: true });
    now += 20_000;
    assert.deepEqual(await limit.hit('a'), { allowed: false, retryAfterMs: 40_000 });
    assert.deepEqual(await limit.hit('b'), { allowed: true }, 'another token has its own count');
    now += 40_000;
    assert.deepEqual(await limit.hit('a'), { allowed: true });
  });
});

describe('RedisApiTokenRateLimit', () => {
  let stop = () => {};
  let connection: Redis | undefined;
  after(async () => {
    await connection?.quit();
    stop();
  });

  it('counts one token across every api process on the Redis; the key expires with the window', async (t) => {
    const redis = await testRedis();
    if ('skip' in redis) return t.skip(redis.skip);
    stop = redis.stop;
    connection = new Redis(redis.url);
    const prefix = `tessera-test:${crypto.randomUUID()}:`;
    // Two limiters on one Redis: two api processes.
    const [one, two] = [new RedisApiTokenRateLimit(connection, prefix, 3), new RedisApiTokenRateLimit(connection, prefix, 3)];
    assert.deepEqual(await one.hit('tok'), { allowed: true });
    assert.deepEqual(await two.hit('tok'), { allowed: true });
    assert.deepEqual(await one.hit('tok'), { allowed: true });
    const refused = await two.hit('tok');
    assert.equal(refused.allowed, false);
    assert.ok(!refused.allowed && refused.retryAfterMs > 0 && refused.retryAfterMs <= 60_000, JSON.stringify(refused));
    assert.deepEqual(await one.hit('other'), { allowed: true });
    const ttl = await connection.pttl(`${prefix}api-token-rate:tok`);
    assert.ok(ttl > 0 && ttl <= 60_000, `ttl ${ttl}`);
  });
});
