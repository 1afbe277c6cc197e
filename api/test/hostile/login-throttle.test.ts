// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is sign-in throttling.
// Issue 17 §5: sign-in throttling slows guessing but never locks out a correct password from a
// clean address; X-Forwarded-For is believed only from TRUST_PROXY.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_MAX_FAILURES } from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_THROTTLE_POLICY } from '../../src/auth/login-rate-limit.js';
import { testRedis } from '../live-redis-server.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { insertMember, MEMBER_PASSWORD } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

function attempt(app: FastifyInstance, username: string, password: string, remoteAddress: string, forwardedFor?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    payload: JSON.stringify({ username, password }),
  });
}

/** Sessions ever started for the user: a refused sign-in must start none. */
async function sessionCount(app: FastifyInstance, userId: string): Promise<number> {
  const row = await app.db
    .selectFrom('refresh_families')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function assertHealthy(app: FastifyInstance) {
  const health = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(health.statusCode, 200, health.body);
}

function assertThrottled(res: Awaited<ReturnType<typeof attempt>>, maxSeconds: number) {
  assert.equal(res.statusCode, 429, res.body);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= maxSeconds, String(res.headers['retry-after']));
  assert.equal(res.json().error.code, 'too_many_requests');
  assert.match(res.json().error.message, /^Too many failed sign-in attempts\. Try again in \d+ (seconds?|minutes?)\.$/);
}

const WINDOW_S = DEFAULT_THROTTLE_POLICY.windowMs / 1000;
const CAP_S = DEFAULT_THROTTLE_POLICY.delayCapMs / 1000;

describe('hostile: sign-in throttling', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await signupAdmin(t.app);
  });
  after(() => t.close());

  it(`${LOGIN_MAX_FAILURES} failures from address A on account X: A/X waits (429, Retry-After, minutes); X's password from B passes at once`, async () => {
    const x = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      assert.equal((await attempt(t.app, x.username, `wrong ${i}`, '203.0.113.10')).statusCode, 401);
    }
    // Even the right password (in another case) waits at A: the pair is throttled, not the account.
    const blocked = await attempt(t.app, x.username.toUpperCase(), MEMBER_PASSWORD, '203.0.113.10');
    assertThrottled(blocked, WINDOW_S);
    assert.match(blocked.json().error.message, /Try again in 15 minutes\.$/);
    assert.equal(await sessionCount(t.app, x.id), 0, 'a throttled attempt starts no session');
    const fromB = await attempt(t.app, x.username, MEMBER_PASSWORD, '198.51.100.20');
    assert.equal(fromB.statusCode, 200, fromB.body);
    assert.equal(await sessionCount(t.app, x.id), 1);
    // Another account from A is not affected either (A's own budget is larger).
    const other = await insertMember(t.app, 'user');
    assert.equal((await attempt(t.app, other.username, MEMBER_PASSWORD, '203.0.113.10')).statusCode, 200);
    await assertHealthy(t.app);
  });

  it(`spraying many accounts from one address stops at the address's budget (${DEFAULT_THROTTLE_POLICY.addressMax}); other addresses are unaffected`, async () => {
    const victim = await insertMember(t.app, 'user');
    for (let i = 0; i < DEFAULT_THROTTLE_POLICY.addressMax; i++) {
      const res = await attempt(t.app, `sprayed-${i}`, 'Summer2026!', '203.0.113.66');
      assert.equal(res.statusCode, 401, `attempt ${i}: ${res.body}`);
    }
    const blocked = await attempt(t.app, victim.username, MEMBER_PASSWORD, '203.0.113.66');
    assertThrottled(blocked, WINDOW_S);
    assert.equal(await sessionCount(t.app, victim.id), 0);
    assert.equal((await attempt(t.app, victim.username, MEMBER_PASSWORD, '203.0.113.67')).statusCode, 200);
    await assertHealthy(t.app);
  });

  it('an account attacked from many addresses: its attackers get growing delays (seconds), its owner from a clean address passes', async () => {
    const x = await insertMember(t.app, 'user');
    const attackers = Array.from({ length: DEFAULT_THROTTLE_POLICY.accountFree + 6 }, (_, i) => `192.0.2.${i + 1}`);
    for (const address of attackers) {
      assert.equal((await attempt(t.app, x.username, 'guess', address)).statusCode, 401, address);
    }
    // Each attacking address waits after its own failure, whatever password it sends now.
    for (const address of attackers) {
      const res = await attempt(t.app, x.username, MEMBER_PASSWORD, address);
      assertThrottled(res, CAP_S);
      assert.match(res.json().error.message, /Try again in \d+ seconds?\.$/);
    }
    assert.equal(await sessionCount(t.app, x.id), 0);
    const owner = await attempt(t.app, x.username, MEMBER_PASSWORD, '198.51.100.77');
    assert.equal(owner.statusCode, 200, owner.body);
    // The owner's success does not let the attackers in sooner.
    assertThrottled(await attempt(t.app, x.username, MEMBER_PASSWORD, attackers[0]), CAP_S);
    await assertHealthy(t.app);
  });

  it('X-Forwarded-For from an untrusted peer is ignored: its failures count against the peer whatever it claims', async () => {
    const x = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      assert.equal((await attempt(t.app, x.username, 'wrong', '203.0.113.99', `10.0.${i}.1`)).statusCode, 401);
    }
    assertThrottled(await attempt(t.app, x.username, MEMBER_PASSWORD, '203.0.113.99', '10.9.9.9'), WINDOW_S);
    assert.equal(await sessionCount(t.app, x.id), 0);
  });

  it('X-Forwarded-For from a trusted peer (loopback by default) is believed: each forwarded client has its own count', async () => {
    const x = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      assert.equal((await attempt(t.app, x.username, 'wrong', '127.0.0.1', '203.0.113.150')).statusCode, 401);
    }
    assertThrottled(await attempt(t.app, x.username, MEMBER_PASSWORD, '127.0.0.1', '203.0.113.150'), WINDOW_S);
    // A client further left than the trusted proxy's own entry is the attacker's claim: ignored.
    assertThrottled(await attempt(t.app, x.username, MEMBER_PASSWORD, '127.0.0.1', '198.51.100.1, 203.0.113.150'), WINDOW_S);
    assert.equal((await attempt(t.app, x.username, MEMBER_PASSWORD, '127.0.0.1', '203.0.113.151')).statusCode, 200);
  });
});

describe('hostile: TRUST_PROXY names the proxies (CIDRs, IPv4 and IPv6)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ trustProxy: ['172.28.0.0/16', 'fd00:28::/64'] });
  });
  after(() => t.close());

  it('a proxy in a trusted CIDR is believed, over IPv4 and IPv6; loopback is not trusted any more', async () => {
    for (const proxy of ['172.28.0.5', 'fd00:28::5']) {
      const x = await insertMember(t.app, 'user');
      for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
        assert.equal((await attempt(t.app, x.username, 'wrong', proxy, '203.0.113.7')).statusCode, 401);
      }
      assertThrottled(await attempt(t.app, x.username, MEMBER_PASSWORD, proxy, '203.0.113.7'), WINDOW_S);
      assert.equal((await attempt(t.app, x.username, MEMBER_PASSWORD, proxy, '2001:db8::7')).statusCode, 200, proxy);
    }
    const y = await insertMember(t.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      assert.equal((await attempt(t.app, y.username, 'wrong', '127.0.0.1', `203.0.113.${i + 20}`)).statusCode, 401);
    }
    assertThrottled(await attempt(t.app, y.username, MEMBER_PASSWORD, '127.0.0.1', '203.0.113.99'), WINDOW_S);
    await assertHealthy(t.app);
  });
});

describe('hostile: sign-in throttling across api instances on one Redis', async () => {
  const redis = await testRedis();
  const skip = 'skip' in redis ? redis.skip : !process.env.TEST_PG_URL ? 'two api instances on one database need TEST_PG_URL' : false;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    if (skip) return;
    const redisUrl = (redis as { url: string }).url;
    a = await createTestApp({ redisUrl });
    b = await createTestApp({ redisUrl, databaseUrl: a.config.databaseUrl });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    if ('stop' in redis) redis.stop();
  });

  it('failures on one instance count on the other: the pair waits there too, the owner elsewhere passes', { skip }, async () => {
    await signupAdmin(a.app);
    const x = await insertMember(a.app, 'user');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const app = i % 2 === 0 ? a.app : b.app;
      assert.equal((await attempt(app, x.username, 'wrong', '203.0.113.44')).statusCode, 401);
    }
    assertThrottled(await attempt(a.app, x.username, MEMBER_PASSWORD, '203.0.113.44'), WINDOW_S);
    assertThrottled(await attempt(b.app, x.username, MEMBER_PASSWORD, '203.0.113.44'), WINDOW_S);
    assert.equal((await attempt(b.app, x.username, MEMBER_PASSWORD, '198.51.100.44')).statusCode, 200);
    await assertHealthy(a.app);
    await assertHealthy(b.app);
  });
});
