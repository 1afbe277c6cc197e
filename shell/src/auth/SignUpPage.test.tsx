import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@tessera/contracts';
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

const noSession = { 'POST /api/v1/auth/refresh': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'No session' } } }) };

describe('sign-up screen', () => {
  it('hides the form and says so when signup is closed', async () => {
    server = await startLoopbackServer({ ...noSession, 'GET /api/v1/auth/status': () => ({ body: { signup_open: false } }) });
    renderApp(servicesFor(server.url), '/signup');
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(await screen.findByText('Signup disabled. Contact an admin for a new account.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Username/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign up' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it("shows the first-admin banner and fields, reads 'Signing up...', and shows the server's message", async () => {
    const release = gate();
    let attempts = 0;
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: true } }),
      'POST /api/v1/auth/signup': () => {
        attempts++;
        return {
          status: 400,
          body: { error: { code: 'validation_failed', message: 'Password must be at least 8 characters' } },
          hold: release.promise,
        };
      },
    });
    renderApp(servicesFor(server.url), '/signup');
    expect(await screen.findByText('Create admin first account')).toBeInTheDocument();
    expect(screen.getByLabelText(/Username/)).toBeRequired();
    expect(screen.getByLabelText(/Password/)).toBeRequired();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/Email/)).not.toBeRequired();
    expect(screen.getByLabelText(/Nickname/)).not.toBeRequired();

    fireEvent.change(screen.getByLabelText(/Username/), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('button', { name: 'Signing up...' })).toBeDisabled();
    release.open();
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
    expect(attempts).toBe(1);
  });

  it("says 'Signup failed' when the server gives no reason", async () => {
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: true } }),
      'POST /api/v1/auth/signup': () => ({ status: 500, body: { error: { code: 'internal_error', message: 'boom' } } }),
    });
    renderApp(servicesFor(server.url), '/signup');
    fireEvent.change(await screen.findByLabelText(/Username/), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.signupFailed);
  });

  it('signs up the first admin with the optional fields left out, and opens the workspace', async () => {
    let body: unknown;
    server = await startLoopbackServer({
      ...noSession,
      'GET /api/v1/auth/status': () => ({ body: { signup_open: true } }),
      'POST /api/v1/auth/signup': (_req, raw) => {
        body = JSON.parse(raw);
        return { status: 201, body: { access_token: fakeToken({ username: 'admin' }) } };
      },
      'GET /api/v1/users': () => ({ body: [{ id: 'u1', username: 'admin', role: 'admin' }] }),
    });
    renderApp(servicesFor(server.url), '/signup');
    fireEvent.change(await screen.findByLabelText(/Username/), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'long-enough-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('main-screen')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets'));
    expect(body).toEqual({ username: 'admin', password: 'long-enough-1' });
    await waitFor(() => expect(server?.calls).toContain('GET /api/v1/users'));
  });
});
