import os from 'node:os';
import path from 'node:path';

/** A Redis for a test: TEST_REDIS_URL (scripts/test.mjs starts one), else a redis-server of our own, else a reason to skip. */
export type TestRedis = { url: string; stop(): void } | { skip: string };

interface RedisLib {
  redisAvailable(): boolean;
  startRedis(opts: { dir: string; port: number }): { url: string; stop(): void };
}

export async function testRedis(): Promise<TestRedis> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: () => {} };
  // One implementation for tests, scripts/test.mjs and the benchmark (a plain .mjs: typed here).
  const lib = (await import(new URL('../../scripts/lib/redis.mjs', import.meta.url).href)) as RedisLib;
  if (!lib.redisAvailable()) return { skip: 'no TEST_REDIS_URL and no redis-server (apt-get install -y redis-server)' };
  // Ports 6390–6399 are this suite's; test files may run side by side, so try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = 6390 + Math.floor(Math.random() * 10);
    try {
      return lib.startRedis({ dir: path.join(os.tmpdir(), `tessera-test-redis-${process.pid}-${port}`), port });
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
