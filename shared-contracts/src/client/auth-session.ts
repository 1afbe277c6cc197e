import axios from 'axios';
import { TokenResponseSchema, type AuthUser } from '../auth/auth.schema.js';
import { isTokenLive, userFromToken } from '../auth/token.js';
import { AUTH_TOKEN_STORAGE_KEY } from '../constants.js';

export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface AuthSession {
  token(): string | null;
  user(): AuthUser | null;
  /** Stores a fresh access token (after login, signup or refresh). */
  setToken(token: string): void;
  /**
   * One refresh through the httpOnly cookie; concurrent callers share it.
   * Resolves to the new token, or null when the session cannot be renewed.
   */
  refresh(): Promise<string | null>;
  /** Clears the token and tells every subscriber (the shell shows sign-in). */
  signOut(): void;
  subscribe(listener: (user: AuthUser | null) => void): () => void;
}

export interface AuthSessionOptions {
  /** Absolute or same-origin URL of POST /api/v1/auth/refresh. */
  refreshUrl: string;
  storage?: TokenStorage;
  now?: () => number;
}

/**
 * Holds the access token in storage under `auth_token` (spec 01 §4). A stored
 * token survives start-up only if it decodes and is not past exp.
 */
export function createAuthSession({ refreshUrl, storage, now = Date.now }: AuthSessionOptions): AuthSession {
  const listeners = new Set<(user: AuthUser | null) => void>();
  let current = storage?.getItem(AUTH_TOKEN_STORAGE_KEY) ?? null;
  if (current && !isTokenLive(current, now())) {
    storage?.removeItem(AUTH_TOKEN_STORAGE_KEY);
    current = null;
  }
  let inflight: Promise<string | null> | null = null;

  const notify = () => {
    const user = userFromToken(current);
    for (const l of [...listeners]) l(user);
  };

  const session: AuthSession = {
    token: () => current,
    user: () => userFromToken(current),
    setToken(token) {
      current = token;
      storage?.setItem(AUTH_TOKEN_STORAGE_KEY, token);
      notify();
    },
    refresh() {
      inflight ??= axios
        // No body at all: a null body makes browsers send a form content type the api refuses.
        .post(refreshUrl, undefined, { withCredentials: true })
        .then((res) => {
          const parsed = TokenResponseSchema.safeParse(res.data);
          if (!parsed.success || !userFromToken(parsed.data.access_token)) return null;
          session.setToken(parsed.data.access_token);
          return parsed.data.access_token;
        })
        .catch(() => null)
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
    signOut() {
      current = null;
      storage?.removeItem(AUTH_TOKEN_STORAGE_KEY);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return session;
}
