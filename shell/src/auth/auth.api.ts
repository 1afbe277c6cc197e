import {
  AuthStatusSchema,
  TokenResponseSchema,
  userFromToken,
  type AuthStatus,
  type LoginBody,
  type SignupBody,
} from '@tessera/contracts';
import type { ShellServices } from '../services/shell-services.js';
import { signOutRequested } from './auth.store.js';
import { browser, endSessionUrlOf } from './sso.api.js';

/** GET /api/v1/auth/status: whether the first (admin) account may still be created. */
export async function fetchAuthStatus({ open }: ShellServices): Promise<AuthStatus> {
  const res = await open.get('/api/v1/auth/status');
  return AuthStatusSchema.parse(res.data);
}

/** Stores the token of a login or signup reply; a reply without a usable token is a failure. */
function acceptToken({ session }: ShellServices, data: unknown): void {
  const { access_token } = TokenResponseSchema.parse(data);
  if (!userFromToken(access_token)) throw new Error('The server returned an unusable token');
  session.setToken(access_token);
}

export async function login(services: ShellServices, body: LoginBody): Promise<void> {
  const res = await services.open.post('/api/v1/auth/login', body);
  acceptToken(services, res.data);
}

export async function signup(services: ShellServices, body: SignupBody): Promise<void> {
  const res = await services.open.post('/api/v1/auth/signup', body);
  acceptToken(services, res.data);
}

/**
 * Revokes the refresh token on the server, then signs out here whatever the server said. A
 * single sign-on member's reply names the provider's end-session page: the browser goes there
 * to end that session too, and the provider sends it back to /login.
 */
export async function logout({ api, session, auth }: ShellServices): Promise<void> {
  signOutRequested(auth);
  let endSessionUrl: string | undefined;
  try {
    endSessionUrl = endSessionUrlOf((await api.post('/api/v1/auth/logout')).data);
  } catch (error) {
    console.error('[shell] logout request failed; signing out locally', error);
  } finally {
    session.signOut();
  }
  if (endSessionUrl) browser.leave(endSessionUrl);
}
