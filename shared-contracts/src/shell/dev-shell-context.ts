import axios from 'axios';
import type { AuthUser } from '../auth/auth.schema.js';
import { createEventBus } from '../bus/event-bus.js';
import type { EventMap } from '../bus/event-map.js';
import { createSheetLiveClient, liveSocketUrl, sheetSocketPath } from '../live/live-sockets.js';
import { LiveFrameRelay } from '../live/frame-relay.js';
import {
  DEFAULT_FLAGS,
  nextCellSelection,
  type SheetReport,
  type ShellContext,
  type ShellLive,
  type ShellRemotes,
  type ShellSheet,
  type ShellTab,
  type ShellUser,
} from './shell-context.js';
import { loadReported } from './sheet-cells.js';

export interface DevShellOptions {
  user?: ShellUser;
  /** Base URL of the api client; calls use full paths such as `/api/v1/users`. Default: same origin. */
  apiBaseURL?: string;
  /** Base URL of the ai-middleware client (the shell serves it under `/ai`). */
  aiBaseURL?: string;
  sheetId?: string | null;
  /**
   * The access token for the sheet's live socket. Given (with a sheetId), `live` connects to
   * `/sheets/{sheetId}` on `liveBaseURL` (default: this page's origin) as the shell does;
   * without it there is no socket: live stays disconnected and operations wait in its queue.
   */
  liveToken?: () => string | null;
  liveBaseURL?: string;
  tab?: ShellTab;
  /** Told when a remote calls logout, navigate or sheet.open, so the dev page can show it. */
  onAction?: (action: string) => void;
}

export const DEV_USER: AuthUser = { id: 'dev-user', username: 'dev', role: 'admin' };

/**
 * A ShellContext for a remote's standalone dev page: plain (unauthenticated)
 * clients against the same paths the shell proxies, a real event bus, the shell's live client
 * (connected only when given a token). Never used by the shell itself.
 */
export function createDevShellContext(options: DevShellOptions = {}): ShellContext {
  const onAction = options.onAction ?? ((action: string) => console.info(`[dev shell] ${action}`));
  const user = options.user ?? DEV_USER;
  return {
    api: axios.create({ baseURL: options.apiBaseURL }),
    ai: axios.create({ baseURL: options.aiBaseURL ?? '/ai' }),
    user,
    logout: async () => onAction('logout'),
    bus: createEventBus<EventMap>(),
    live: devLive(options.sheetId ?? null, user.id, options),
    presence: { onSheet: [], online: [] },
    sheet: devSheet(options.sheetId ?? null, onAction),
    remotes: devRemotes,
    flags: { ...DEFAULT_FLAGS },
    navigate: (to) => onAction(`navigate ${to}`),
    tab: options.tab ?? 'data',
  };
}

/**
 * The dev page's live socket of its sheet, on the shell's client; like devSheet a plain object
 * whose state and pending count are read when needed (getters, no re-render).
 */
function devLive(sheetId: string | null, userId: string, options: DevShellOptions): ShellLive {
  const token = options.liveToken;
  const client = createSheetLiveClient({ token: () => token?.() ?? null });
  const relay = new LiveFrameRelay(userId);
  if (sheetId !== null) client.subscribe((frame) => relay.receive(frame, sheetId));
  if (sheetId !== null && token) {
    const base = options.liveBaseURL ?? (globalThis as { location?: { href: string } }).location?.href;
    if (base) client.connect(liveSocketUrl(base, sheetSocketPath(sheetId)));
  }
  return {
    get state() {
      return client.state;
    },
    get pending() {
      return client.pending;
    },
    send(operation) {
      if (sheetId === null) return;
      relay.sent(operation);
      client.sendOperation(operation.id, { type: 'operation', operation, sheet_id: sheetId, user_id: userId, timestamp: Date.now() });
    },
    subscribe: (listener) => relay.subscribe(listener),
    requestReload() {
      if (sheetId !== null) client.send({ type: 'reload_request', sheet_id: sheetId });
    },
    pause: () => relay.pause(),
    resume: () => relay.resume(),
  };
}

/**
 * The current sheet of the dev page: a plain object updated in place by the Workspace's
 * reports and by select(), with the same rules as the shell's store (no re-render: the dev
 * page reads it when it needs it).
 */
function devSheet(id: string | null, onAction: (action: string) => void): ShellSheet {
  let held: SheetReport | null = null;
  const sheet: ShellSheet = {
    id,
    open: (next) => onAction(`open sheet ${next ?? '(none)'}`),
    name: null,
    headers: [],
    size: { rows: 0, cols: 0 },
    selection: null,
    version: null,
    getData: () => (held ? held.getData() : null),
    loadData: (rows) => loadReported(held, rows),
    report(report) {
      if (report !== null && report.id !== sheet.id) return;
      sheet.name = report?.name ?? null;
      sheet.headers = report?.headers ?? [];
      sheet.size = report?.size ?? { rows: 0, cols: 0 };
      sheet.version = report?.version ?? null;
      held = report;
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
