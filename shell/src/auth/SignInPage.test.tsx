import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_TOKEN_STORAGE_KEY, LIVE_TEXTS } from '@tessera/contracts';
import { fakeToken, gate, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { logout } from './auth.api.js';
import { renderApp, servicesFor } from '../test/render-app.js';

// The main screen (Chakra + Module Federation) is beside the point here.
jest.mock('../main/MainRoute', () => ({
  __esModule: true,
  default: () => require('react').createElement('div', { 'data-testid': 'main-screen' }),
}));

let server: LoopbackServer | undefined;
afterEach(async () => {
  // Unmount first: the page's requests still in flight then end quietly when the server closes.
  cleanup();
  await server?.close();
  server = undefined;
  localStorage.clear();
});

const noSession = { 'POST /api/v1/auth/refresh': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'No session' } } }) };

function fillAndSubmit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText(/Username/), { target: { value: username } });
  fireEvent.change(screen.getByLabelText(/Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in screen', () => {
  it('shows the spec texts and no Sign up link while signup is closed', async () => {
    server = await startLoopbackServer({ ...noSession, 'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }) });
    renderApp(servicesFor(server.url), '/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back')).toBeInTheDocument();
    expect(screen.getByText('Enter your credentials to access your account.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Username/)).toBeRequired();
    expect(screen.getByLabelText(/Password/)).toBeRequired();
    await waitFor(() => expect(server?.calls).toContain('GET /api/v1/auth/status'));
    expect(screen.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
  });

  it('shows the Sign up link when the server says signup is open', async () => {
    server = await startLoopbackServer({ ...noSession, 'GET /api/v1/auth/status': () => ({ body: { signup_open: true } }) });
    renderApp(servicesFor(server.url), '/login');
    expect(await screen.findByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });

  it("reads 'Signing in...' while the request runs, then 'Invalid credentials' on failure", async () => {
    const release = gate();
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }),
      'POST /api/v1/auth/login': () => ({
        status: 401,
        body: { error: { code: 'unauthorized', message: 'Invalid credentials' } },
        hold: release.promise,
      }),
    });
    renderApp(servicesFor(server.url), '/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    fillAndSubmit('alice', 'wrong-password');
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release.open();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('signs in, stores the token and returns to the path the user wanted', async () => {
    const token = fakeToken({ sub: 'u1', username: 'alice', role: 'admin' });
    let loginBody: unknown;
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }),
      'POST /api/v1/auth/login': (_req, body) => {
        loginBody = JSON.parse(body);
        return { body: { access_token: token, user: { id: 'u1', username: 'alice', role: 'admin' } } };
      },
      'GET /api/v1/users': () => ({ body: [{ id: 'u1', username: 'alice', role: 'admin' }] }),
    });
    // A signed-out visit to a sheet link goes to sign-in first.
    renderApp(servicesFor(server.url), '/sheets/s-42?tab=git');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    fillAndSubmit('alice', 'correct-horse');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s-42?tab=git'));
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    expect(loginBody).toEqual({ username: 'alice', password: 'correct-horse' });
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(token);
    // After sign-in the users list is fetched (spec 01 §4).
    await waitFor(() => expect(server?.calls).toContain('GET /api/v1/users'));
  });

  it("says 'Your session has ended. Sign in again.' after a session ended without the user asking; not after Sign out", async () => {
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }),
      'GET /api/v1/users': () => ({ body: [{ id: 'u1', username: 'alice', role: 'admin' }] }),
      'POST /api/v1/auth/logout': () => ({ status: 204, body: '' }),
    });
    const services = servicesFor(server.url);
    services.session.setToken(fakeToken({ sub: 'u1', username: 'alice', role: 'admin' }));
    renderApp(services, '/sheets/s1');
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    // What the live sockets do on a 4401 whose refresh failed (revoked: deleted, password reset).
    act(() => services.session.signOut());
    expect(await screen.findByText(LIVE_TEXTS.sessionEnded)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();

    // Signing in again clears it; a Sign out the user asked for shows nothing.
    act(() => services.session.setToken(fakeToken({ sub: 'u1', username: 'alice', role: 'admin' })));
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    await act(() => logout(services));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByText(LIVE_TEXTS.sessionEnded)).not.toBeInTheDocument();
  });
});
