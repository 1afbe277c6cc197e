// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the single sign-on callback.
// Issue 21, single sign-on: what a hostile browser can send to the callback — an oversized or
// malformed body, a forged pending-sign-in cookie, a reply for someone else's sign-in — gets a
// clear 4xx, creates nobody, starts no session, and the api keeps answering.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SSO_CALLBACK_PATH, SSO_CALLBACK_QUERY_MAX_LENGTH, SSO_START_PATH, SSO_TEXTS } from '@tessera/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { postJson, refreshCookieOf, signupAdmin, userCount } from '../support/auth-helpers.js';
import { signInAtProvider, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const HOST = '127.0.0.1:3900';
const REDIRECT_URI = `http://${HOST}/login`;

describe('hostile: the single sign-on callback', () => {
  let provider: TestProvider;
  let t: TestApp;
  let users: number;
  before(async () => {
    provider = await startTestProvider({ redirectUris: [REDIRECT_URI] });
    t = await createTestApp({
      oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, name: 'Acme ID', scopes: ['openid', 'profile', 'email'] },
    });
    await signupAdmin(t.app);
    users = await userCount(t.app);
  });
  after(async () => {
    await t?.close();
    await provider?.close();
  });

  async function assertNothingHappened(res: LightMyRequestResponse, status: number, message: string) {
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.json().error.message, message);
    assert.equal(refreshCookieOf(res), undefined);
    assert.equal(await userCount(t.app), users);
    const identities = await t.app.db.selectFrom('oidc_identities').select('user_id').execute();
    assert.equal(identities.length, 0);
    assert.equal((await t.app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
  }

  const callback = (payload: unknown, cookie?: string) =>
    postJson(t.app, SSO_CALLBACK_PATH, payload, { host: HOST, ...(cookie ? { cookie: `tessera_sso=${cookie}` } : {}) });

  it('bodies that are not a reply: 400 with the schema text', async () => {
    await assertNothingHappened(await callback({ query: 'x'.repeat(SSO_CALLBACK_QUERY_MAX_LENGTH + 1) }), 400, `query cannot exceed ${SSO_CALLBACK_QUERY_MAX_LENGTH} characters`);
    await assertNothingHappened(await callback({ query: 42 }), 400, 'query must be the text of the reply from the identity provider');
    await assertNothingHappened(await callback({ query: 'code=x', extra: 1 }), 400, 'Unrecognized key: "extra"');
    await assertNothingHappened(await callback(undefined), 400, 'Request body is required');
  });

  it('a forged pending-sign-in cookie (not ours, mangled, oversized, or with a chosen verifier and state) is refused', async () => {
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const cookie of ['%%%', forged({ state: 's' }), 'a'.repeat(5000), forged({ state: 's', nonce: 'n', codeVerifier: 'v'.repeat(43), redirectUri: 'javascript:alert(1)', x: 1 })]) {
      await assertNothingHappened(await callback({ query: 'code=abc&state=s' }, cookie), 400, SSO_TEXTS.noPendingSignIn);
    }
    // Well-formed, but its state and verifier are the attacker's: the code (from the attacker's own
    // sign-in) fails at the provider, PKCE-bound to another verifier.
    const start = await t.app.inject({ method: 'POST', url: SSO_START_PATH, headers: { host: HOST } });
    const query = new URLSearchParams(await signInAtProvider(start.json().authorization_url, 'attacker', REDIRECT_URI));
    const mine = forged({ state: query.get('state'), nonce: 'n'.repeat(43), codeVerifier: 'v'.repeat(43), redirectUri: REDIRECT_URI });
    await assertNothingHappened(await callback({ query: query.toString() }, mine), 400, SSO_TEXTS.verificationFailed);
  });

  it("a reply made for another browser's sign-in (login CSRF) does not match this browser's state", async () => {
    const victim = await t.app.inject({ method: 'POST', url: SSO_START_PATH, headers: { host: HOST } });
    const victimPending = victim.cookies.find((c) => c.name === 'tessera_sso')?.value;
    const attacker = await t.app.inject({ method: 'POST', url: SSO_START_PATH, headers: { host: HOST } });
    const attackerReply = await signInAtProvider(attacker.json().authorization_url, 'attacker', REDIRECT_URI);
    await assertNothingHappened(await callback({ query: attackerReply }, victimPending), 400, SSO_TEXTS.stateMismatch);
  });
});
