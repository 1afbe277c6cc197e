import { createStore, type StoreApi } from 'zustand';
import {
  PRESENCE_TOAST_MS,
  WORKSPACE_SOCKET_PATH,
  LiveFrameRelay,
  createSheetLiveClient,
  createWorkspaceLiveClient,
  isNavigationChange,
  liveSocketUrl,
  sheetSocketPath,
  type AuthSession,
  type CellSelection,
  type ConnectionState,
  type EventBus,
  type EventMap,
  type LiveGrid,
  type LiveMessage,
  type LiveOperationInput,
  type LiveServerFrame,
  type LiveSocketFactory,
  type SheetLiveClient,
  type SheetPresenceUser,
  type ShellLive,
  type WorkspaceLiveClient,
} from '@tessera/contracts';
import { nextOnline, nextSheetPresence, type PresenceNotice } from './presence.js';

/** A join or leave toast on screen. */
export interface PresenceToast extends PresenceNotice {
  id: number;
}

export interface LiveSessionState {
  /** The sheet whose socket is the open one (the route's sheet), or null. */
  sheetId: string | null;
  state: ConnectionState;
  pending: number;
  onSheet: SheetPresenceUser[];
  online: string[];
  toasts: PresenceToast[];
}

export interface LiveSessionDeps {
  /** The page's (or the services') URL: the sockets live on its origin, ws or wss like it. */
  baseUrl: string;
  session: Pick<AuthSession, 'token' | 'refresh' | 'signOut'>;
  bus: EventBus<EventMap>;
  userId: string;
  createSocket?: LiveSocketFactory;
}

export interface LiveSession {
  store: StoreApi<LiveSessionState>;
  /** Opens the workspace socket (again after stop()). */
  start(): void;
  /** Closes every socket and forgets presence and toasts. */
  stop(): void;
  /** The route's sheet: its socket becomes the open one; null closes it. */
  openSheet(sheetId: string | null): void;
  /**
   * The version of `sheetId` the page holds (the Workspace's last report): the socket's `since` when
   * it (re)connects; and how it holds it (`grid`, contracts LIVE_GRIDS): told to the server at each
   * connect and, when it changes, on the open socket (a windowed page's syncs come without the cells).
   */
  holdVersion(sheetId: string, version: number | null, grid?: LiveGrid): void;
  /** The user's selected cell on `sheetId`, told to the others (again after each reconnect). */
  select(sheetId: string, selection: CellSelection | null): void;
  /** What ShellContext.live does for `sheetId` (send, subscribe, requestReload); state and pending come from the store. */
  channel(sheetId: string | null): LiveChannel;
  dismissToast(id: number): void;
}

/** ShellLive without its state: functions bound to one sheet, stable while that sheet is open. */
export type LiveChannel = Omit<ShellLive, 'state' | 'pending'>;

const INITIAL: LiveSessionState = { sheetId: null, state: 'disconnected', pending: 0, onSheet: [], online: [], toasts: [] };

/**
 * The shell's live side (DESIGN.md § Live collaboration): the open sheet's socket
 * `/sheets/{id}`, switched with the route, and the workspace socket `/live`; presence of the
 * sheet and of the workspace, join and leave toasts, and navigation changes and import progress on the bus.
 *
 * A sheet left with operations not acknowledged yet keeps its socket until they are (nothing
 * typed is lost by switching sheets); its frames no longer reach the page.
 */
export function createLiveSession(deps: LiveSessionDeps): LiveSession {
  const store = createStore<LiveSessionState>(() => INITIAL);
  /** Frames of the open sheet to the remotes: acknowledged operations echoed to all of them, kept while paused. */
  const relay = new LiveFrameRelay(deps.userId);
  /** Sockets of sheets left with unacknowledged operations, by sheet id. */
  const retired = new Map<string, SheetLiveClient>();
  const toastTimers = new Map<number, ReturnType<typeof setTimeout>>();
  let current: { sheetId: string; client: SheetLiveClient } | null = null;
  let workspace: WorkspaceLiveClient | null = null;
  let selection: { sheetId: string; cell: CellSelection | null } | null = null;
  let held: { sheetId: string; version: number | null; grid?: LiveGrid } | null = null;
  let nextToastId = 1;

  const common = {
    token: () => deps.session.token(),
    // After a refusal (1008), an expired token (4440) or an ended session (4401): one refresh;
    // a fresh token reconnects, none signs out (the sign-in page then says the session ended).
    renewToken: () => deps.session.refresh(),
    onSessionEnded: () => deps.session.signOut(),
    createSocket: deps.createSocket,
    log: (message: string, detail?: unknown) => console.warn(message, detail),
  };

  const announceNavigation = ({ type, data }: LiveMessage) => {
    if (!isNavigationChange(type)) return;
    const fields = (typeof data === 'object' && data !== null ? data : {}) as { id?: unknown; user_id?: unknown };
    deps.bus.emit('navigation-changed', {
      type,
      id: typeof fields.id === 'string' ? fields.id : null,
      userId: typeof fields.user_id === 'string' ? fields.user_id : null,
    });
  };

  const toast = (notice: PresenceNotice) => {
    const id = nextToastId++;
    store.setState((s) => ({ toasts: [...s.toasts, { ...notice, id }] }));
    toastTimers.set(
      id,
      setTimeout(() => session.dismissToast(id), PRESENCE_TOAST_MS),
    );
  };

  const sendSelection = (client: SheetLiveClient, sheetId: string) => {
    if (selection?.sheetId !== sheetId) return;
    const cell = selection.cell;
    client.send({ type: 'selection', sheet_id: sheetId, selection: cell ? { row: cell.row, column: cell.col } : null });
  };

  /** How the page holds the sheet, told on the open socket (the socket opens before the page has loaded it). */
  const sendGrid = (client: SheetLiveClient, sheetId: string) => {
    if (held?.sheetId === sheetId && held.grid) client.send({ type: 'grid', sheet_id: sheetId, grid: held.grid });
  };

  const sheetClient = (sheetId: string): SheetLiveClient => {
    const client = createSheetLiveClient({
      ...common,
      heldVersion: () => (held?.sheetId === sheetId ? held.version : null),
      grid: () => (held?.sheetId === sheetId ? held.grid : undefined),
    });
    const isCurrent = () => current?.client === client;
    let connected = false;
    client.onChange(({ state, pending }) => {
      // On each (re)connect, not on every pending count: the page may have loaded while the socket was connecting.
      const justConnected = state === 'connected' && !connected;
      connected = state === 'connected';
      if (isCurrent()) {
        store.setState({ state, pending });
        if (justConnected) {
          sendGrid(client, sheetId);
          sendSelection(client, sheetId);
        }
      } else if (retired.get(sheetId) === client && pending === 0) {
        retired.delete(sheetId);
        client.close();
      }
    });
    client.subscribe((frame) => {
      if (!isCurrent()) return;
      const { onSheet, notice } = nextSheetPresence(store.getState().onSheet, frame, sheetId, deps.userId);
      if (onSheet !== store.getState().onSheet) store.setState({ onSheet });
      if (notice) toast(notice);
      relay.receive(frame, sheetId);
    });
    client.subscribeMessages((message) => {
      if (isCurrent()) announceNavigation(message);
    });
    client.connect(liveSocketUrl(deps.baseUrl, sheetSocketPath(sheetId)));
    return client;
  };

  /** The socket that carries operations of `sheetId`: the open one or one kept for its pending operations. */
  const clientOf = (sheetId: string | null): SheetLiveClient | null => {
    if (sheetId === null) return null;
    if (current?.sheetId === sheetId) return current.client;
    return retired.get(sheetId) ?? null;
  };

  const session: LiveSession = {
    store,
    start() {
      if (workspace) return;
      const client = createWorkspaceLiveClient(common);
      workspace = client;
      client.subscribe((frame) => {
        if (workspace !== client) return;
        // An import of this user's (the server sends them to no one else): the navigator that started it shows it.
        if (frame.type === 'import_progress') {
          const { import_id: importId, rows_stored: rowsStored, rows_total: rowsTotal } = frame.data;
          deps.bus.emit('import-progress', { importId, rowsStored, rowsTotal });
          return;
        }
        const online = nextOnline(store.getState().online, frame);
        if (online !== store.getState().online) store.setState({ online });
      });
      client.subscribeMessages((message) => {
        if (workspace === client) announceNavigation(message);
      });
      client.connect(liveSocketUrl(deps.baseUrl, WORKSPACE_SOCKET_PATH));
    },
    stop() {
      workspace?.close();
      workspace = null;
      current?.client.close();
      current = null;
      for (const client of retired.values()) client.close();
      retired.clear();
      for (const timer of toastTimers.values()) clearTimeout(timer);
      toastTimers.clear();
      store.setState(INITIAL);
    },
    openSheet(sheetId) {
      if ((current?.sheetId ?? null) === sheetId) return;
      const previous = current;
      current = null;
      relay.reset();
      if (previous) {
        if (previous.client.pending > 0) retired.set(previous.sheetId, previous.client);
        else previous.client.close();
      }
      if (sheetId === null) {
        store.setState({ sheetId: null, state: 'disconnected', pending: 0, onSheet: [] });
        return;
      }
      // Back to a sheet whose socket was kept for its pending operations: it is the open one again.
      const kept = retired.get(sheetId);
      retired.delete(sheetId);
      current = { sheetId, client: kept ?? sheetClient(sheetId) };
      store.setState({ sheetId, state: current.client.state, pending: current.client.pending, onSheet: [] });
      if (kept?.state === 'connected') sendSelection(kept, sheetId);
    },
    holdVersion(sheetId, version, grid) {
      const changed = grid !== undefined && (held?.sheetId !== sheetId || held.grid !== grid);
      held = { sheetId, version, grid };
      if (changed && current?.sheetId === sheetId) sendGrid(current.client, sheetId);
    },
    select(sheetId, cell) {
      selection = { sheetId, cell };
      if (current?.sheetId === sheetId) sendSelection(current.client, sheetId);
    },
    channel(sheetId) {
      return {
        send(operation: LiveOperationInput) {
          // Bound to its sheet: a Workspace still showing the previous sheet never writes into the new one.
          const client = clientOf(sheetId);
          if (!client || sheetId === null) return;
          if (current?.sheetId === sheetId) relay.sent(operation);
          client.sendOperation(operation.id, { type: 'operation', operation, sheet_id: sheetId, user_id: deps.userId, timestamp: Date.now() });
        },
        subscribe(listener) {
          if (sheetId === null) return () => {};
          const forSheet = (frame: LiveServerFrame) => {
            if (current?.sheetId === sheetId) listener(frame);
          };
          return relay.subscribe(forSheet);
        },
        requestReload() {
          if (sheetId !== null && current?.sheetId === sheetId) current.client.send({ type: 'reload_request', sheet_id: sheetId });
        },
        pause() {
          if (sheetId !== null && current?.sheetId === sheetId) relay.pause();
        },
        resume() {
          if (sheetId !== null && current?.sheetId === sheetId) relay.resume();
        },
      };
    },
    dismissToast(id) {
      const timer = toastTimers.get(id);
      if (timer) clearTimeout(timer);
      toastTimers.delete(id);
      store.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
  };
  return session;
}
