import {
  ErrorBodySchema,
  LogoutResponseSchema,
  SIGN_IN_OPTIONS_PATH,
  SignInOptionsSchema,
  SSO_CALLBACK_PATH,
  SSO_START_PATH,
  SsoStartResponseSchema,
  TokenResponseSchema,
  userFromToken,
  type SignInOptions,
} from '@tessera/contracts';
import type { ShellServices } from '../services/shell-services.js';

/** Where the sign-in page was going before the trip to the provider (router state does not survive it). */
const RETURN_KEY = 'tessera.sso.from';

/** What the sign-in page offers; when the api cannot say, the password form (the server has the last word). */
export const FALLBACK_SIGN_IN_OPTIONS: SignInOptions = { password_login: true, sso: null };

export async function fetchSignInOptions({ open }: ShellServices): Promise<SignInOptions> {
  const res = await open.get(SIGN_IN_OPTIONS_PATH);
  return SignInOptionsSchema.parse(res.data);
}

/** Leaves the page for another site (the provider); a module of its own so tests can see where. */
export const browser = {
  leave(url: string): void {
    window.location.assign(url);
  },
};

/** Asks the api for the provider's sign-in URL (it keeps PKCE, state and nonce in a cookie) and goes there. */
export async function startSso(services: ShellServices, returnTo: string | undefined): Promise<void> {
  const res = await services.open.post(SSO_START_PATH);
  const { authorization_url } = SsoStartResponseSchema.parse(res.data);
  if (returnTo) sessionStorage.setItem(RETURN_KEY, returnTo);
  else sessionStorage.removeItem(RETURN_KEY);
  browser.leave(authorization_url);
}

/** Whether /login's query is a provider's reply (code or error, with state). */
export function isSsoReply(search: string): boolean {
  const q = new URLSearchParams(search);
  return q.has('state') && (q.has('code') || q.has('error'));
}

/** The path kept by startSso, once. */
export function takeSsoReturnPath(): string | undefined {
  const from = sessionStorage.getItem(RETURN_KEY) ?? undefined;
  sessionStorage.removeItem(RETURN_KEY);
  return from;
}

/** Hands the provider's reply to the api, which checks it and starts the same session a password sign-in does. */
export async function finishSso(services: ShellServices, search: string): Promise<void> {
  const res = await services.open.post(SSO_CALLBACK_PATH, { query: search });
  const { access_token } = TokenResponseSchema.parse(res.data);
  if (!userFromToken(access_token)) throw new Error('The server returned an unusable token');
  services.session.setToken(access_token);
}

/** The api's `error.message` for any failed status (a 503 of a provider that is down too), else `fallback`. */
export function serverErrorText(error: unknown, fallback: string): string {
  const body = ErrorBodySchema.safeParse((error as { response?: { data?: unknown } } | null)?.response?.data);
  return body.success && body.data.error.message ? body.data.error.message : fallback;
}

/** A logout reply's provider end-session URL, when it gave one. */
export function endSessionUrlOf(data: unknown): string | undefined {
  const parsed = LogoutResponseSchema.safeParse(data);
  return parsed.success ? parsed.data.end_session_url : undefined;
}
