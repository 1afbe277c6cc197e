import axios from 'axios';
import type { AuthUser } from '../auth/auth.schema.js';
import { createEventBus } from '../bus/event-bus.js';
import type { EventMap } from '../bus/event-map.js';
import { DEFAULT_FLAGS, type ShellContext, type ShellTab, type ShellUser } from './shell-context.js';

export interface DevShellOptions {
  user?: ShellUser;
  /** Base URL of the api client; calls use full paths such as `/api/v1/users`. Default: same origin. */
  apiBaseURL?: string;
  /** Base URL of the ai-middleware client (the shell serves it under `/ai`). */
  aiBaseURL?: string;
  sheetId?: string | null;
  tab?: ShellTab;
  /** Told when a remote calls logout, navigate or sheet.open, so the dev page can show it. */
  onAction?: (action: string) => void;
}

export const DEV_USER: AuthUser = { id: 'dev-user', username: 'dev', role: 'admin' };

/**
 * A ShellContext for a remote's standalone dev page: plain (unauthenticated)
 * clients against the same paths the shell proxies, a real event bus, no socket.
 * Never used by the shell itself.
 */
export function createDevShellContext(options: DevShellOptions = {}): ShellContext {
  const onAction = options.onAction ?? ((action: string) => console.info(`[dev shell] ${action}`));
  return {
    api: axios.create({ baseURL: options.apiBaseURL }),
    ai: axios.create({ baseURL: options.aiBaseURL ?? '/ai' }),
    user: options.user ?? DEV_USER,
    logout: async () => onAction('logout'),
    bus: createEventBus<EventMap>(),
    live: { state: 'disconnected' },
    presence: { onSheet: [], online: [] },
    sheet: { id: options.sheetId ?? null, open: (id) => onAction(`open sheet ${id ?? '(none)'}`) },
    flags: { ...DEFAULT_FLAGS },
    navigate: (to) => onAction(`navigate ${to}`),
    tab: options.tab ?? 'data',
  };
}
