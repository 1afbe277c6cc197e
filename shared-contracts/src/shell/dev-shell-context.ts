import axios from 'axios';
import type { AuthUser } from '../auth/auth.schema.js';
import { createEventBus } from '../bus/event-bus.js';
import type { EventMap } from '../bus/event-map.js';
import {
  DEFAULT_FLAGS,
  nextCellSelection,
  type ShellContext,
  type ShellRemotes,
  type ShellSheet,
  type ShellTab,
  type ShellUser,
} from './shell-context.js';

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
    sheet: devSheet(options.sheetId ?? null, onAction),
    remotes: devRemotes,
    flags: { ...DEFAULT_FLAGS },
    navigate: (to) => onAction(`navigate ${to}`),
    tab: options.tab ?? 'data',
  };
}

/**
 * The current sheet of the dev page: a plain object updated in place by the Workspace's
 * reports and by select(), with the same rules as the shell's store (no re-render: the dev
 * page reads it when it needs it).
 */
function devSheet(id: string | null, onAction: (action: string) => void): ShellSheet {
  let getData: (() => ReturnType<ShellSheet['getData']>) | null = null;
  const sheet: ShellSheet = {
    id,
    open: (next) => onAction(`open sheet ${next ?? '(none)'}`),
    name: null,
    headers: [],
    size: { rows: 0, cols: 0 },
    selection: null,
    version: null,
    getData: () => (getData ? getData() : null),
    report(report) {
      if (report !== null && report.id !== sheet.id) return;
      sheet.name = report?.name ?? null;
      sheet.headers = report?.headers ?? [];
      sheet.size = report?.size ?? { rows: 0, cols: 0 };
      sheet.version = report?.version ?? null;
      getData = report ? report.getData : null;
    },
    select(row, col) {
      const outcome = nextCellSelection(sheet.selection, row, col);
      if (outcome.kind === 'invalid') console.warn(outcome.warning);
      else if (outcome.kind === 'select') sheet.selection = outcome.selection;
    },
  };
  return sheet;
}

/** The dev page has no other remotes: the mount point says what the shell would show there. */
const devRemotes: ShellRemotes = {
  mount(element, remote, expose) {
    element.textContent = `${remote} ${expose} is mounted here by the shell`;
    return () => {
      element.textContent = '';
    };
  },
};
