import { screen, waitFor } from '@testing-library/react';
import { AUTH_TOKEN_STORAGE_KEY } from '@tessera/contracts';
import { fakeToken, gate, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { renderApp, servicesFor } from '../test/render-app.js';

jest.mock('../main/MainRoute', () => ({
  __esModule: true,
  default: () => require('react').createElement('div', { 'data-testid': 'main-screen' }),
}));

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  localStorage.clear();
});

const users = { 'GET /api/v1/users': () => ({ body: [{ id: 'u1', username: 'alice', role: 'admin' }] }) };
const status = { 'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }) };

describe('session start-up', () => {
  it('restores a live stored token without asking the server', async () => {
    const token = fakeToken({ sub: 'u1', username: 'alice', role: 'admin' });
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, token);
    server = await startLoopbackServer({ ...users, ...status });
    renderApp(servicesFor(server.url), '/sheets/s1?tab=data');
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s1?tab=data');
    expect(server.calls).not.toContain('POST /api/v1/auth/refresh');
    await waitFor(() => expect(server?.calls).toContain('GET /api/v1/users'));
  });

  it('removes an expired token, then tries one silent refresh before showing sign-in, which keeps the user signed in', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, fakeToken({ expInS: -60 }));
    const release = gate();
    const fresh = fakeToken({ sub: 'u1', username: 'alice', role: 'admin' });
    server = await startLoopbackServer({
      ...users,
      ...status,
      'POST /api/v1/auth/refresh': () => ({ body: { access_token: fresh }, hold: release.promise }),
    });
    renderApp(servicesFor(server.url), '/sheets/s1?tab=git');
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    await waitFor(() => expect(server?.calls).toContain('POST /api/v1/auth/refresh'));
    // While the refresh runs, the sign-in screen is not shown.
    expect(screen.getByTestId('startup-screen')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
    release.open();
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s1?tab=git');
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(fresh);
    await waitFor(() => expect(server?.calls).toContain('GET /api/v1/users'));
    expect(server.calls.filter((c) => c === 'POST /api/v1/auth/refresh')).toHaveLength(1);
  });

  it('shows sign-in after the one silent refresh fails', async () => {
    localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'not-a-token');
    server = await startLoopbackServer({
      ...status,
      'POST /api/v1/auth/refresh': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'No session' } } }),
    });
    renderApp(servicesFor(server.url), '/sheets');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(server.calls.filter((c) => c === 'POST /api/v1/auth/refresh')).toHaveLength(1);
  });
});
