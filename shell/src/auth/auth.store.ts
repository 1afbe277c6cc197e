import { createStore, type StoreApi } from 'zustand';
import { LIVE_TEXTS, type AuthSession, type AuthUser, type User } from '@tessera/contracts';

/** 'starting' lasts until the stored token is checked and, without one, the silent refresh has answered. */
export type AuthPhase = 'starting' | 'signedOut' | 'signedIn';

export interface AuthState {
  phase: AuthPhase;
  user: AuthUser | null;
  /** Nickname and email from the users list, fetched after sign-in. */
  profile: Pick<User, 'nickname' | 'email'> | null;
  /**
   * Why the user was signed out, shown on the sign-in page: set when a signed-in session ended
   * without the user asking (revoked or expired: the live sockets were closed with 4401 / 4440
   * and no fresh token could be had, or a refresh failed); cleared by the next sign-in.
   */
  notice: string | null;
}

export type AuthStore = StoreApi<AuthState>;

/** Stores whose next sign-out the user asked for (Sign out): no notice for those. */
const requested = new WeakSet<AuthStore>();

/** The user asked to sign out: the sign-in page shows no 'session ended' notice. */
export function signOutRequested(store: AuthStore): void {
  requested.add(store);
}

/** Mirrors the session: every token change (sign-in, refresh, sign-out) updates the phase. */
export function createAuthStore(session: AuthSession): AuthStore {
  const store = createStore<AuthState>(() => ({ phase: 'starting', user: null, profile: null, notice: null }));
  session.subscribe((user) => {
    const { phase, notice } = store.getState();
    const asked = requested.delete(store);
    const ended = !user && phase === 'signedIn' && !asked;
    // A sign-out notice during start-up must not show sign-in before the silent refresh answered.
    store.setState({
      user,
      phase: user ? 'signedIn' : phase === 'starting' ? 'starting' : 'signedOut',
      profile: user ? store.getState().profile : null,
      notice: user ? null : ended ? LIVE_TEXTS.sessionEnded : notice,
    });
  });
  return store;
}

/**
 * Start-up (spec 01 §4): the session already kept a stored token only if it
 * decodes and is not past exp. Without one, ONE silent refresh through the
 * httpOnly cookie is tried before the sign-in screen shows, so a reload never
 * signs out a user whose session is still valid.
 */
export async function startAuth(session: AuthSession, store: AuthStore): Promise<void> {
  let user = session.user();
  if (!user) {
    const token = await session.refresh();
    user = token ? session.user() : null;
  }
  store.setState({ phase: user ? 'signedIn' : 'signedOut', user });
}
