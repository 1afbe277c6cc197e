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

const REFRESH_LOCK = 'tessera-auth-refresh';

/**
 * Runs `fn` holding a browser-wide lock (Web Locks), so tabs refresh one at a
 * time; where there is no Web Locks API (Node, old browsers) it just runs.
 */
function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: { request(name: string, cb: () => Promise<T>): Promise<T> } } })
    .navigator?.locks;
  return locks ? locks.request(REFRESH_LOCK, fn) : fn();
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
      const stale = current;
      inflight ??= withRefreshLock(async () => {
        // Another tab of this browser may have refreshed while we waited for the lock: the
        // refresh cookie it used is spent, so sending ours would count as reuse. Adopt its token.
        const stored = storage?.getItem(AUTH_TOKEN_STORAGE_KEY) ?? null;
        if (stored && stored !== stale && isTokenLive(stored, now()) && userFromToken(stored)) {
          session.setToken(stored);
          return stored;
        }
        try {
          // No body at all: a null body makes browsers send a form content type the api refuses.
          const res = await axios.post(refreshUrl, undefined, { withCredentials: true });
          const parsed = TokenResponseSchema.safeParse(res.data);
          if (!parsed.success || !userFromToken(parsed.data.access_token)) return null;
          session.setToken(parsed.data.access_token);
          return parsed.data.access_token;
        } catch {
          return null;
        }
      }).finally(() => {
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
