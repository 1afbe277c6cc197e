import {
  createAuthSession,
  createEventBus,
  createHttpClient,
  createOpenClient,
  type AuthSession,
  type AxiosInstance,
  type EventBus,
  type EventMap,
  type TokenStorage,
} from '@tessera/contracts';
import { createAuthStore, type AuthStore } from '../auth/auth.store.js';

/** Everything the shell talks through, created once per page. */
export interface ShellServices {
  /** Origin the relative service paths resolve against ('' = this page's origin). */
  baseUrl: string;
  session: AuthSession;
  /** The sign-in phase and user, for React. */
  auth: AuthStore;
  /** The api, authenticated (paths /api/v1/...). */
  api: AxiosInstance;
  /** The ai-middleware through the shell server's /ai prefix, authenticated. */
  ai: AxiosInstance;
  /** Unauthenticated calls: sign-in, sign-up, auth status, health. */
  open: AxiosInstance;
  /** The one in-page event bus shared with every remote. */
  bus: EventBus<EventMap>;
}

export interface ShellServicesOptions {
  baseUrl?: string;
  storage?: TokenStorage;
}

export function createShellServices({ baseUrl = '', storage }: ShellServicesOptions = {}): ShellServices {
  const session = createAuthSession({ refreshUrl: `${baseUrl}/api/v1/auth/refresh`, storage });
  return {
    baseUrl,
    session,
    auth: createAuthStore(session),
    api: createHttpClient(session, baseUrl),
    ai: createHttpClient(session, `${baseUrl}/ai`),
    open: createOpenClient(baseUrl),
    bus: createEventBus(),
  };
}
