import { AUTH_TOKEN_STORAGE_KEY, decodeTokenClaims } from '@tessera/contracts';
import { fakeToken, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { servicesFor } from '../test/render-app.js';
import { syncRoleWithServer } from './role-sync.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  localStorage.clear();
});

describe('role check after sign-in (spec 01 §4)', () => {
  it('refreshes the token when the server knows another role', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, fakeToken({ sub: 'u2', username: 'bob', role: 'user' }));
    server = await startLoopbackServer({
      'GET /api/v1/users': () => ({ body: [{ id: 'u2', username: 'bob', role: 'admin' }] }),
      'POST /api/v1/auth/refresh': () => ({ body: { access_token: fakeToken({ sub: 'u2', username: 'bob', role: 'admin' }) } }),
    });
    const { api, session } = servicesFor(server.url);
    expect((await syncRoleWithServer(api, session)).refreshed).toBe(true);
    expect(session.user()?.role).toBe('admin');
    expect(decodeTokenClaims(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY))?.role).toBe('admin');
  });

  it('does nothing when the roles agree', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, fakeToken({ sub: 'u2', username: 'bob', role: 'user' }));
    server = await startLoopbackServer({ 'GET /api/v1/users': () => ({ body: [{ id: 'u2', username: 'bob', role: 'user' }] }) });
    const { api, session } = servicesFor(server.url);
    expect((await syncRoleWithServer(api, session)).refreshed).toBe(false);
    expect(server.calls).toEqual(['GET /api/v1/users']);
  });

  it('signs out when that refresh fails', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, fakeToken({ sub: 'u2', username: 'bob', role: 'admin' }));
    server = await startLoopbackServer({
      'GET /api/v1/users': () => ({ body: [{ id: 'u2', username: 'bob', role: 'user' }] }),
      'POST /api/v1/auth/refresh': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Revoked' } } }),
    });
    const { api, session } = servicesFor(server.url);
    await syncRoleWithServer(api, session);
    expect(session.user()).toBeNull();
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });
});
