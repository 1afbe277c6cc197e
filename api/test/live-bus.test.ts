import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LiveBackend, openLiveBackend } from '../src/live/live-backend.js';
import { testRedis, type TestRedis } from './live-redis-server.js';

const log = { warn: () => {}, error: () => {} };
const TTL_MS = 400;

/** Collects what a handler gets; `until` waits (bounded) for a count. */
function collector() {
  const got: unknown[] = [];
  let wake = () => {};
  return {
    got,
    handler: (m: unknown) => {
      got.push(m);
      wake();
    },
    async until(n: number) {
      const guard = Date.now() + 10_000;
      while (got.length < n) {
        if (Date.now() > guard) throw new Error(`only ${got.length} of ${n} messages: ${JSON.stringify(got)}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return got;
    },
  };
}

/**
 * Two "processes" of one deployment: with Redis two backends (each its own connections and
 * process id); in memory there is only one process, so both names are the same backend.
 */
function suite(name: string, openPair: () => Promise<[LiveBackend, LiveBackend]>, skip?: () => string | undefined) {
  describe(name, () => {
    let a: LiveBackend;
    let b: LiveBackend;
    before(async () => {
      if (skip?.()) return;
      [a, b] = await openPair();
    });
    after(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });

    it('delivers to every subscriber of the channel, in publication order, and nothing after unsubscribe', async (t) => {
      if (skip?.()) return t.skip(skip());
      const channel = `test:${Math.random()}`;
      const onA = collector();
      const onB = collector();
      const offA = await a.bus.subscribe(channel, onA.handler);
      const offB = await b.bus.subscribe(channel, onB.handler);
      for (let i = 0; i < 50; i++) await a.bus.publish(channel, { i, from: 'a' });
      await b.bus.publish(channel, { i: 0, from: 'b' });
      await onA.until(51);
      await onB.until(51);
      for (const got of [onA.got, onB.got]) {
        const fromA = got.filter((m) => (m as { from: string }).from === 'a').map((m) => (m as { i: number }).i);
        assert.deepEqual(fromA, [...Array(50).keys()], 'one publisher\'s messages stay in order');
      }
      await offB();
      await a.bus.publish(channel, { i: 99, from: 'a' });
      await onA.until(52);
      assert.equal(onB.got.length, 51, 'nothing after unsubscribe');
      await offA();
    });

    it('counts a user once across processes and tabs; the last socket out makes them leave', async (t) => {
      if (skip?.()) return t.skip(skip());
      const scope = `sheet:${Math.random()}`;
      assert.deepEqual(await a.presence.enter(scope, 'u1', 'Ann'), { first: true });
      assert.deepEqual(await a.presence.enter(scope, 'u1', 'Ann'), { first: false }, 'second tab, same process');
      assert.deepEqual(await b.presence.enter(scope, 'u1', 'Ann'), { first: false }, 'third tab, other process');
      assert.deepEqual(await b.presence.enter(scope, 'u2', 'Bob'), { first: true });
      await b.presence.setData(scope, 'u2', { row: 1, column: 2 });
      const listed = await a.presence.list(scope);
      assert.deepEqual(
        listed.map((m) => [m.userId, m.displayName, m.data]),
        [
          ['u1', 'Ann', undefined],
          ['u2', 'Bob', { row: 1, column: 2 }],
        ],
      );
      assert.deepEqual(await a.presence.exit(scope, 'u1'), { last: false });
      assert.deepEqual(await a.presence.exit(scope, 'u1'), { last: false }, 'u1 still has a tab on b');
      assert.deepEqual(await b.presence.exit(scope, 'u1'), { last: true });
      assert.deepEqual(await b.presence.exit(scope, 'u2'), { last: true });
      assert.deepEqual(await b.presence.list(scope), []);
    });
  });
}

suite('live backend in memory', async () => {
  const one = await openLiveBackend({ databaseIdentity: 'memory', presenceTtlMs: TTL_MS, log });
  return [one, one];
});

let redis: TestRedis | undefined;
const identity = `test-db-${Math.random()}`;
before(async () => {
  redis = await testRedis();
});
after(() => {
  if (redis && 'url' in redis) redis.stop();
});
const redisSkip = () => (redis && 'skip' in redis ? redis.skip : undefined);
suite(
  'live backend on Redis',
  async () => {
    const open = () => openLiveBackend({ redisUrl: (redis as { url: string }).url, databaseIdentity: identity, presenceTtlMs: TTL_MS, log });
    return [await open(), await open()];
  },
  redisSkip,
);

describe('Redis presence of a process that dies', () => {
  it('expires its entries: the next renew of another process reports its users as left, once', async (t) => {
    if (redisSkip()) return t.skip(redisSkip());
    const url = (redis as { url: string }).url;
    const dying = await openLiveBackend({ redisUrl: url, databaseIdentity: identity, presenceTtlMs: TTL_MS, log });
    const alive = await openLiveBackend({ redisUrl: url, databaseIdentity: identity, presenceTtlMs: TTL_MS, log });
    const other = await openLiveBackend({ redisUrl: url, databaseIdentity: identity, presenceTtlMs: TTL_MS, log });
    try {
      const scope = `sheet:${Math.random()}`;
      await dying.presence.enter(scope, 'ghost', 'Gus');
      await dying.presence.enter(scope, 'both', 'Bea');
      await alive.presence.enter(scope, 'both', 'Bea');
      await alive.presence.enter(scope, 'me', 'Me');
      // The dying process stops renewing (as if killed); the others keep renewing past its TTL.
      await dying.close();
      const left: string[] = [];
      const until = Date.now() + 10_000;
      while (left.length === 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, TTL_MS / 2));
        for (const r of [await alive.presence.renew('sheet:'), await other.presence.renew('sheet:')]) left.push(...r.left.map((e) => `${e.userId}:${e.displayName}`));
      }
      assert.deepEqual(left, ['ghost:Gus'], 'the ghost leaves once; Bea stays (a live tab elsewhere)');
      assert.deepEqual(
        (await other.presence.list(scope)).map((m) => m.userId).sort(),
        ['both', 'me'],
      );
    } finally {
      await alive.close();
      await other.close();
    }
  });

  it('a different database on the same Redis sees nothing of it', async (t) => {
    if (redisSkip()) return t.skip(redisSkip());
    const url = (redis as { url: string }).url;
    const one = await openLiveBackend({ redisUrl: url, databaseIdentity: `db-one-${Math.random()}`, presenceTtlMs: TTL_MS, log });
    const two = await openLiveBackend({ redisUrl: url, databaseIdentity: `db-two-${Math.random()}`, presenceTtlMs: TTL_MS, log });
    try {
      const got = collector();
      await two.bus.subscribe('workspace', got.handler);
      await one.presence.enter('workspace', 'u', 'U');
      await one.bus.publish('workspace', { hello: 1 });
      await two.bus.publish('workspace', { hello: 2 });
      // Redis runs commands in order: hello 1 would have been dispatched before hello 2.
      await got.until(1);
      assert.deepEqual(got.got, [{ hello: 2 }]);
      assert.deepEqual(await two.presence.list('workspace'), []);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
