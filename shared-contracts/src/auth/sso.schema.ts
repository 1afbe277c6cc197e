import { z } from 'zod';

/**
 * Single sign-on through the company's OpenID Connect provider (issue 21): the sign-in page asks
 * which ways to sign in are on, starts the authorization code flow (PKCE, state, nonce) through
 * the api, and hands the provider's reply (the query it came back with to /login) to the api.
 */

export const SIGN_IN_OPTIONS_PATH = '/api/v1/auth/sign-in-options';
export const SSO_START_PATH = '/api/v1/auth/oidc/start';
export const SSO_CALLBACK_PATH = '/api/v1/auth/oidc/callback';
/** Where the provider sends the browser back (registered with the provider as `<Tessera URL>/login`). */
export const SSO_REDIRECT_PATH = '/login';
/** The pending sign-in (state, nonce, PKCE verifier) lives this long in its httpOnly cookie. */
export const SSO_PENDING_TTL_S = 600;
/** OIDC_NAME is a button's text: bounded so it fits. */
export const SSO_NAME_MAX_LENGTH = 40;
/** The query a provider sends back: code, state, iss and a few extras fit easily; larger is not a reply. */
export const SSO_CALLBACK_QUERY_MAX_LENGTH = 8192;

export const SignInOptionsSchema = z.object({
  /** False when PASSWORD_LOGIN=false: the sign-in page shows no password form. */
  password_login: z.boolean(),
  /** Null when single sign-on is not configured. */
  sso: z.object({ name: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof SignInOptionsSchema>;

export const SsoStartResponseSchema = z.object({ authorization_url: z.url() });
export type SsoStartResponse = z.infer<typeof SsoStartResponseSchema>;

export const SsoCallbackBodySchema = z.strictObject({
  /** location.search of /login as the provider left it, with or without the leading '?'. */
  query: z
    .string({ message: 'query must be the text of the reply from the identity provider' })
    .max(SSO_CALLBACK_QUERY_MAX_LENGTH, `query cannot exceed ${SSO_CALLBACK_QUERY_MAX_LENGTH} characters`),
});
export type SsoCallbackBody = z.infer<typeof SsoCallbackBodySchema>;

/** 200 reply of POST /auth/logout when the session came from a provider that can end its own session too. */
export const LogoutResponseSchema = z.object({ end_session_url: z.url() });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

export const SSO_TEXTS = {
  button: (name: string) => `Sign in with ${name}`,
  notConfigured: 'Single sign-on is not configured.',
  providerDown: (name: string) => `${name} cannot be reached right now. Try again later.`,
  providerDownPasswordHint: 'You can still sign in with your username and password.',
  noPendingSignIn: 'No sign-in is in progress in this browser, or it took longer than 10 minutes. Start the sign-in again.',
  stateMismatch: 'Sign-in refused: the reply does not belong to the sign-in started in this browser (state mismatch). Start the sign-in again.',
  nonceMismatch: "Sign-in refused: the identity provider's ID token was not issued for this sign-in (nonce mismatch). Start the sign-in again.",
  verificationFailed: "Sign-in refused: the identity provider's reply failed verification. Start the sign-in again.",
  providerRefused: (reason: string) => `The identity provider refused the sign-in: ${reason}`,
  firstAccountFirst: 'Tessera has no account yet: create the first admin account (Sign up) before signing in with single sign-on.',
  passwordLoginOff: (name: string) => `Password sign-in is turned off. Use 'Sign in with ${name}'.`,
} as const;
