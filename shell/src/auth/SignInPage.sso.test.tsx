import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_TOKEN_STORAGE_KEY, SSO_TEXTS } from '@tessera/contracts';
import { fakeToken, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { renderApp, servicesFor } from '../test/render-app.js';
import { logout } from './auth.api.js';
import { browser } from './sso.api.js';

// The main screen (Chakra + Module Federation) is beside the point here.
jest.mock('../main/MainRoute', () => ({
  __esModule: true,
  default: () => require('react').createElement('div', { 'data-testid': 'main-screen' }),
}));

let server: LoopbackServer | undefined;
let left: string[];
beforeEach(() => {
  left = [];
  jest.spyOn(browser, 'leave').mockImplementation((url) => void left.push(url));
});
afterEach(async () => {
  // Unmount first: the page's requests still in flight then end quietly when the server closes.
  cleanup();
  await server?.close();
  server = undefined;
  localStorage.clear();
  sessionStorage.clear();
  jest.restoreAllMocks();
});

const noSession = { 'POST /api/v1/auth/refresh': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'No session' } } }) };
const closed = { 'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }) };
const ssoOn = (password_login = true) => ({ 'GET /api/v1/auth/sign-in-options': () => ({ body: { password_login, sso: { name: 'Acme ID' } } }) });

describe('sign-in screen with single sign-on', () => {
  it("shows 'Sign in with <name>' beside the password form; the button goes to the provider's URL from the api", async () => {
    server = await startLoopbackServer({
      ...noSession,
      ...closed,
      ...ssoOn(),
      'POST /api/v1/auth/oidc/start': () => ({ body: { authorization_url: 'https://id.example.com/auth?client_id=tessera&state=s' } }),
    });
    renderApp(servicesFor(server.url), '/sheets/s-7');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme ID' }, { timeout: 20_000 }));
    await waitFor(() => expect(left).toEqual(['https://id.example.com/auth?client_id=tessera&state=s']));
    expect(screen.getByLabelText(/Username/)).toBeInTheDocument();
    expect(sessionStorage.getItem('tessera.sso.from')).toBe('/sheets/s-7');
  });

  it('hides the password form when password sign-in is off', async () => {
    server = await startLoopbackServer({ ...noSession, ...closed, ...ssoOn(false) });
    renderApp(servicesFor(server.url), '/login');
    expect(await screen.findByRole('button', { name: 'Sign in with Acme ID' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Username/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it("shows the api's text when the provider is down, and stays on the page with the password form", async () => {
    const message = `${SSO_TEXTS.providerDown('Acme ID')} ${SSO_TEXTS.providerDownPasswordHint}`;
    server = await startLoopbackServer({
      ...noSession,
      ...closed,
      ...ssoOn(),
      'POST /api/v1/auth/oidc/start': () => ({ status: 503, body: { error: { code: 'service_unavailable', message } } }),
    });
    renderApp(servicesFor(server.url), '/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with Acme ID' }, { timeout: 20_000 }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(left).toEqual([]);
    expect(screen.getByLabelText(/Username/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Acme ID' })).toBeEnabled();
  });

  it("hands the provider's reply on /login to the api once, signs in, and opens where the user was going", async () => {
    const token = fakeToken({ sub: 'u9', username: 'alice', role: 'user' });
    const bodies: unknown[] = [];
    server = await startLoopbackServer({
      ...noSession,
      ...closed,
      ...ssoOn(),
      'POST /api/v1/auth/oidc/callback': (_req, body) => {
        bodies.push(JSON.parse(body));
        return { body: { access_token: token, user: { id: 'u9', username: 'alice', role: 'user' } } };
      },
      'GET /api/v1/users': () => ({ body: [{ id: 'u9', username: 'alice', role: 'user' }] }),
    });
    sessionStorage.setItem('tessera.sso.from', '/sheets/s-7');
    renderApp(servicesFor(server.url), '/login?code=abc&state=xyz&iss=https%3A%2F%2Fid.example.com');
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s-7'));
    expect(bodies).toEqual([{ query: '?code=abc&state=xyz&iss=https%3A%2F%2Fid.example.com' }]);
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBe(token);
  });

  it("shows the api's refusal of a reply (a tampered state) on the sign-in page, without the reply in the address", async () => {
    server = await startLoopbackServer({
      ...noSession,
      ...closed,
      ...ssoOn(),
      'POST /api/v1/auth/oidc/callback': () => ({ status: 400, body: { error: { code: 'bad_request', message: SSO_TEXTS.stateMismatch } } }),
    });
    renderApp(servicesFor(server.url), '/login?code=abc&state=forged');
    expect(await screen.findByRole('alert')).toHaveTextContent(SSO_TEXTS.stateMismatch);
    expect(screen.getByTestId('location')).not.toHaveTextContent('code=');
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });

  it("signing out a single sign-on member goes to the provider's end-session page", async () => {
    server = await startLoopbackServer({
      ...noSession,
      ...closed,
      ...ssoOn(),
      'GET /api/v1/users': () => ({ body: [{ id: 'u9', username: 'alice', role: 'user' }] }),
      'POST /api/v1/auth/logout': () => ({ body: { end_session_url: 'https://id.example.com/session/end?client_id=tessera' } }),
    });
    const services = servicesFor(server.url);
    services.session.setToken(fakeToken({ sub: 'u9', username: 'alice', role: 'user' }));
    renderApp(services, '/sheets');
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    await act(() => logout(services));
    expect(left).toEqual(['https://id.example.com/session/end?client_id=tessera']);
    expect(localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });
});
