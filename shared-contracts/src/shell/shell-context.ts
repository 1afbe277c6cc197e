import type { AxiosInstance } from 'axios';
import type { AuthUser } from '../auth/auth.schema.js';
import type { EventBus } from '../bus/event-bus.js';
import type { EventMap } from '../bus/event-map.js';
import type { GridData } from '../sheets/sheet.schema.js';
import type { LiveOperation, LiveServerFrame } from '../live/live.schema.js';
import type { ExposedModule, RemoteName } from './remotes.js';

export type ConnectionState = 'disconnected' | 'connected' | 'reconnecting';

/** An operation as a remote hands it to the shell: the shell adds the sheet id and sends it. */
export type LiveOperationInput = LiveOperation;

/**
 * The live socket of the open sheet, owned by the shell (spec 01 §4 "Live connection"):
 * disconnected / connected / reconnecting, reconnecting with backoff, and a queue of the
 * operations sent while disconnected, sent in order on reconnect (nothing typed offline is lost).
 */
export interface ShellLive {
  state: ConnectionState;
  /**
   * Operations sent but not acknowledged yet (queued offline ones included). Read when needed (a
   * handler, a check before leaving): it changes twice per edit, and the shell does not hand out a
   * new context for it — every remote's tree would render again. Nothing should render from it.
   */
  pending: number;
  /**
   * Sends an operation on the open sheet (queued while not connected). The Workspace applies
   * its own edits at once and calls this; the server's `ack` carries the operation's version.
   */
  send(operation: LiveOperationInput): void;
  /**
   * Frames from the open sheet's socket, unwrapped (custom_message's inner type decides):
   * operation, ack, sync, error, new_proposal, live_update_accepted, selection, ...
   * Returns the unsubscribe function.
   */
  subscribe(listener: (frame: LiveServerFrame) => void): () => void;
  /** After a checkout or switch: asks the server to send everyone on the sheet a sync (spec 02 §2). */
  requestReload(): void;
  /**
   * AI Editing Mode (spec 02 §4): live sync pauses — frames for the subscribers are kept, not
   * lost — until resume() tells them in order. Another sheet ends the pause.
   */
  pause(): void;
  resume(): void;
}

/** Someone on the current sheet, with the cell they selected (when they shared one) and their colour. */
export interface SheetPresenceUser {
  userId: string;
  joinedAt: string;
  displayName: string;
  selection: CellSelection | null;
  color: string;
}

/** Who is on the current sheet and online anywhere in the workspace. */
export interface ShellPresence {
  /** On the open sheet, the current user included (once, however many tabs). */
  onSheet: SheetPresenceUser[];
  /** User ids online anywhere (the workspace socket `/live`). */
  online: string[];
}

/** A user's colour for presence dots and selected cells: the same on every client. */
export function presenceColor(userId: string): string {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (Math.imul(hash, 31) + userId.charCodeAt(i)) >>> 0;
  // Mixed so that ids differing in one last character (u1, u2) get far-apart hues, not neighbours.
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
  hash = (hash ^ (hash >>> 16)) >>> 0;
  return `hsl(${hash % 360}, 70%, 45%)`;
}

export interface SheetSize {
  rows: number;
  cols: number;
}

/** The selected cell, 0-based. */
export interface CellSelection {
  row: number;
  col: number;
}

/** What the Workspace reports about the sheet it shows, once loaded and after each change. */
export interface SheetReport {
  /** The sheet this report is about: a report for another sheet than the route's is ignored. */
  id: string;
  name: string;
  headers: string[];
  size: SheetSize;
  version: number;
  /**
   * The grid's cells now (stored size, formulas as text), read when asked: copying 100k rows on
   * every edit would cost. null for a sheet shown a window at a time (issue 23): its cells are
   * not all in the browser (loadData() reads them).
   */
  getData(): GridData | null;
  /**
   * The sheet's cells now (stored size, formulas as text), for any sheet (issue 23): a sheet
   * loaded whole answers from its grid; a windowed one reads the rows it does not hold through
   * the api and brings them to the version reported (others' changes and own edits since each
   * read), so the cells and `version` go together. `rows`: only rows [start, start + count).
   * Rejects with the reason when the rows cannot be read. Optional: an mfe-sheets built before
   * it reports getData() only (sheetCells() falls back to it).
   */
  loadData?(rows?: RowRange): Promise<GridData>;
  /**
   * True for a sheet shown a window at a time (issue 23): the shell's socket then says
   * `grid: 'windowed'` (contracts LIVE_GRIDS) and its syncs come without the cells. Absent: whole.
   */
  windowed?: boolean;
}

/** Rows [start, start + count) of a sheet. */
export interface RowRange {
  start: number;
  count: number;
}

/**
 * The sheet the route points at, and what the Workspace reported about it (spec 01 §4):
 * the chat and git remotes read name, headers, size, selection, version and the cells (sheetCells()).
 * Until a report arrives (loading, load error, no Workspace mounted) name and version are
 * null, headers empty, size 0 × 0 and getData() null.
 */
export interface ShellSheet {
  id: string | null;
  open(id: string | null): void;
  name: string | null;
  headers: string[];
  size: SheetSize;
  selection: CellSelection | null;
  version: number | null;
  getData(): GridData | null;
  /**
   * The report's loadData() (getData() when the Workspace reports none); null until a report
   * arrives. Optional: a shell built before it has none — read the cells with sheetCells().
   */
  loadData?(rows?: RowRange): Promise<GridData | null>;
  /** The Workspace reports the loaded sheet (null: it shows none any more). */
  report(report: SheetReport | null): void;
  /**
   * Selects a cell by the §4 Selection rules: row and col must be numeric and non-negative
   * (else ignored with a console warning); the same cell again changes nothing.
   */
  select(row: number, col: number): void;
}

export type SelectionOutcome = { kind: 'select'; selection: CellSelection } | { kind: 'same' } | { kind: 'invalid'; warning: string };

/** The §4 Selection rule, shared by the shell's store and the dev shell. */
export function nextCellSelection(current: CellSelection | null, row: unknown, col: unknown): SelectionOutcome {
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (!valid(row) || !valid(col)) {
    return { kind: 'invalid', warning: `Cell selection ignored: row and col must be non-negative numbers (got ${String(row)}, ${String(col)})` };
  }
  if (current && current.row === row && current.col === col) return { kind: 'same' };
  return { kind: 'select', selection: { row, col } };
}

/**
 * Lets a remote show another remote's exposed module (the toolbar's Code tab shows
 * mfe-git's ./CodeEditor) without importing it: the shell mounts it into the element with
 * its own loading, fallback card and Retry. Typed on a DOM element so the contracts need
 * no React.
 */
export interface ShellRemotes {
  /** Mounts `remote`'s `expose` into `element` with this shell context; the returned function unmounts it. */
  mount<R extends RemoteName>(element: HTMLElement, remote: R, expose: ExposedModule<R>): () => void;
}

/** The feature flags of spec 02 §9, all on by default; the ai-middleware's /config reports them (FEATURE_* env). */
export const FEATURE_FLAGS = ['contextWindow', 'enhancedChat', 'debugLogging', 'enhancedTableParsing', 'autoSheetCreation'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export type ShellTab = 'data' | 'git';

/** The signed-in user with the profile fields the server holds (spec 01 §2 user menu). */
export interface ShellUser extends AuthUser {
  nickname?: string | null;
  email?: string | null;
}

/**
 * What every remote receives from the shell, as a prop. Remotes never read
 * tokens, storage or globals themselves.
 */
export interface ShellContext {
  /** The api (`/api/v1` and the sheet routes), authenticated. */
  api: AxiosInstance;
  /** The ai-middleware (`/ai`), authenticated. */
  ai: AxiosInstance;
  user: ShellUser;
  logout(): Promise<void>;
  bus: EventBus<EventMap>;
  live: ShellLive;
  presence: ShellPresence;
  sheet: ShellSheet;
  remotes: ShellRemotes;
  flags: Record<FeatureFlag, boolean>;
  navigate(to: string): void;
  tab: ShellTab;
}

/** Props of every exposed remote component. */
export interface RemoteProps {
  shell: ShellContext;
}

export const DEFAULT_FLAGS: Record<FeatureFlag, boolean> = {
  contextWindow: true,
  enhancedChat: true,
  debugLogging: true,
  enhancedTableParsing: true,
  autoSheetCreation: true,
};
