import crypto from 'node:crypto';
import {
  type AuthUser,
  ACCESS_TEXTS,
  API_TOKEN_TEXTS,
  type AccessLevel,
  CellPositionSchema,
  type GridData,
  type SheetSummary,
  ERROR_CODES,
  LIVE_CLOSE,
  LIVE_OUTBOUND_MAX_BYTES,
  LIVE_REPLAY_MAX_VERSIONS,
  LIVE_SHEET_QUEUE_MAX_BYTES,
  LIVE_RELOAD_MIN_INTERVAL_MS,
  LIVE_SHEET_QUEUE_MAX_OPS,
  LIVE_TEXTS,
  LiveClientFrameSchema,
  type LiveGrid,
  type LiveOperation,
  type LiveServerFrame,
  meetsAccess,
  type PresenceEntry,
  SHEET_READ_SLOT_MIN_BYTES,
} from '@tessera/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { HttpError } from '../http/http-error.js';
import type { SheetChange } from '../sheets/sheet-changes.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import type { TransferSlots } from '../transfers/transfer-slots.js';
import type { LiveBus, LiveBusUnsubscribe } from './live-bus.js';
import { changeFrame, frameVersion, replayFrames } from './live-frames.js';
import { cellChangesOf, commitCellGroup, commitOperation, type OperationOutcome } from './live-operation.js';
import { GROUP_FILL_OPS, GROUP_MAX_WAIT_MS, OperationBatcher } from './operation-batcher.js';
import { FrameOutbox, sendBounded } from './frame-outbox.js';
import type { PresenceStore } from './presence-store.js';
import { SHEET_SCOPE_PREFIX, type SheetBusMessage, SheetBusMessageSchema, sheetChannel, sheetScope } from './sheet-bus-message.js';
import type { SheetOpsRepository } from './sheet-ops.repository.js';
import { SheetRoom, type SyncFrame } from './sheet-room.js';
import { closeSocket } from './socket-close.js';

/** Marks the patches the hub makes, so the change feed does not broadcast them a second time. */
const LIVE_ORIGIN = 'live-socket';
const OPEN = 1;

/** A selected cell (row, column). */
type CellPosition = NonNullable<PresenceEntry['selection']>;

/** One authenticated socket on one sheet. */
export interface LiveConnection {
  socket: WebSocket;
  user: AuthUser;
  displayName: string;
  sheetId: string;
  /** Answered the last ping (see heartbeat). */
  alive: boolean;
  /** The member's level on the sheet (checked at join, reviewed on every sharing change): a viewer's operations are refused. */
  access: AccessLevel;
  /** Opened with a read-scope personal API token (issue 21): its operations are refused whatever the level. */
  readOnlyToken?: boolean;
  /** How its page holds the sheet (`?grid=`, then `grid` frames): a windowed page's syncs come without the cells. */
  grid: LiveGrid;
}

/** An operation waiting for its sheet's next group commit. */
interface QueuedOperation {
  conn: LiveConnection;
  op: LiveOperation;
  /** Its frame's size (the sheet's queue is bounded in bytes too). */
  bytes: number;
}

/** What the hub keeps per socket. */
interface ConnState {
  /** Names the socket across processes (a frame's `except`). */
  id: string;
  /** Counted in the presence store (an exit is owed when it closes). */
  entered: boolean;
  closed: boolean;
  /** When this socket's last reload_request was served (a sync published), and the one waiting for the interval's end. */
  lastReload?: number;
  reloadTimer?: NodeJS.Timeout;
}

interface RoomEntry {
  room: SheetRoom<LiveConnection>;
  /** Subscribed to the sheet's channel and started at the sheet's version. */
  ready: Promise<void>;
  unsubscribe?: LiveBusUnsubscribe;
}

export interface LiveHubDeps {
  sheets: SheetsService;
  ops: SheetOpsRepository;
  /** The process's slots (transfer-slots.ts): a sync with the cells waits for a 'sheet read' one. */
  slots: TransferSlots;
  log: FastifyBaseLogger;
  /** Between api processes (memory or Redis): the sheets' frames and who is present. */
  bus: LiveBus;
  presence: PresenceStore;
  /** This process's id on the bus. */
  processId: string;
  /** Told of each operation once persisted and acknowledged, with its cell count (metrics). */
  onApplied?(cells: number): void;
  /** Told of each sync read: with the whole grid (`cells`) or the summary only (every socket on the sheet windowed) (metrics). */
  onSyncRead?(cells: boolean): void;
  /** Told of versions read from the op log because the bus did not bring them in time (metrics). */
  onGapRead?(versions: number): void;
  /** Unread bytes a socket may hold before it is closed as too far behind (LIVE_OUTBOUND_MAX_BYTES). */
  outboundMaxBytes?: number;
  /** How often a sheet's groups may start (GROUP_WINDOW_MS; LIVE_GROUP_WINDOW_MS). */
  groupWindowMs?: number;
  /** How long past the window a small group waits for more (GROUP_MAX_WAIT_MS; LIVE_GROUP_MAX_WAIT_MS). */
  groupMaxWaitMs?: number;
  /** A group smaller than this waits for more, up to groupMaxWaitMs (GROUP_FILL_OPS; LIVE_GROUP_FILL_OPS). */
  groupFillOps?: number;
  /** Told of each group commit with its operation count (metrics: operations per group). */
  onGroup?(ops: number): void;
  /** Operations waiting per sheet (LIVE_SHEET_QUEUE_MAX_OPS / _BYTES); tests lower them. */
  queueMaxOps?: number;
  queueMaxBytes?: number;
}

/**
 * The live sheets: who is on each sheet, and the operations, applied one at a time per sheet
 * (server order), persisted through SheetsService before the sender's ack, then delivered to
 * every socket in version order. Cells are last-writer-wins in that order.
 *
 * Everything a socket receives about its sheet goes through the live bus (live-bus.ts), this
 * process's own changes included: one path whether one api process runs or several (REDIS_URL).
 * Each process keeps a SheetRoom per sheet with sockets here; the room puts versions in order
 * (processes publish after their commits, so out of order) and fills gaps from the op log.
 */
export class LiveHub {
  readonly #rooms = new Map<string, RoomEntry>();
  /** Operations per sheet, committed in groups (one transaction per group), in arrival order. */
  readonly #batcher: OperationBatcher<QueuedOperation>;
  readonly #conns = new WeakMap<LiveConnection, ConnState>();
  /**
   * Every frame to a socket goes through here: those of one event-loop turn leave as one message
   * (an array). A socket that holds more unread bytes than the bound is closed (backpressure).
   */
  readonly #outbox = new FrameOutbox<LiveConnection>((conn, data) => {
    if (sendBounded(conn.socket, data, this.deps.outboundMaxBytes ?? LIVE_OUTBOUND_MAX_BYTES) === 'behind') this.#tooFarBehind(conn);
  });

  constructor(private readonly deps: LiveHubDeps) {
    this.#batcher = new OperationBatcher<QueuedOperation>(
      (sheetId, group) => this.#applyGroup(sheetId, group),
      ({ op }) => cellChangesOf(op)?.length ?? 1,
      (err) => this.#failed(err, 'operation'),
      undefined,
      undefined,
      { maxItems: deps.queueMaxOps ?? LIVE_SHEET_QUEUE_MAX_OPS, maxBytes: deps.queueMaxBytes ?? LIVE_SHEET_QUEUE_MAX_BYTES, bytes: (q) => q.bytes },
      deps.groupWindowMs,
      { items: deps.groupFillOps ?? GROUP_FILL_OPS, maxWaitMs: deps.groupMaxWaitMs ?? GROUP_MAX_WAIT_MS },
    );
  }

  /** Registers an authenticated socket: presence to it, user_joined to the others, then what it missed since `since`. */
  async join(conn: LiveConnection, since: number | undefined): Promise<void> {
    // Closed while authenticating: nothing to register.
    if (conn.socket.readyState !== OPEN) return;
    const state: ConnState = { id: crypto.randomUUID(), entered: false, closed: false };
    this.#conns.set(conn, state);
    const entry = this.#room(conn.sheetId);
    // From here on the room holds what it delivers for this socket until it has caught up.
    entry.room.add(conn);
    let caughtUpAt: number | undefined;
    try {
      await entry.ready;
      if (state.closed) return;
      const scope = sheetScope(conn.sheetId);
      const { first } = await this.deps.presence.enter(scope, conn.user.id, conn.displayName);
      state.entered = true;
      if (state.closed) {
        this.#exitPresence(conn, state);
        return;
      }
      const users = (await this.deps.presence.list(scope)).map(
        (m): PresenceEntry => ({ userId: m.userId, joinedAt: m.joinedAt, display_name: m.displayName, ...selectionOf(m.data) }),
      );
      this.#send(conn, { type: 'presence', data: { sheet_id: conn.sheetId, users } });
      // The level is told at every join: a client that reconnects after a sharing change it missed
      // (its socket was down) would otherwise keep the level its page loaded with.
      // (No access never joins: the socket was closed as a sheet not found.)
      if (conn.access !== 'none') this.#send(conn, { type: 'access', data: { sheet_id: conn.sheetId, access: conn.access } });
      if (first) await this.#publishFrame(conn.sheetId, { type: 'user_joined', data: this.#presenceData(conn) }, conn);
      if (since !== undefined) caughtUpAt = await this.#catchUp(conn, since);
    } finally {
      entry.room.caughtUp(conn, caughtUpAt);
    }
  }

  /**
   * A reload_request: everyone on the sheet gets a sync, at most once per LIVE_RELOAD_MIN_INTERVAL_MS
   * for one socket. Within the interval at most one request waits (the others are coalesced into
   * it) and is served when the interval ends.
   */
  #reload(conn: LiveConnection): void {
    const state = this.#conns.get(conn);
    if (!state) return;
    if (state.reloadTimer) return;
    const publish = () => {
      state.reloadTimer = undefined;
      if (state.closed) return;
      state.lastReload = Date.now();
      this.#publish(conn.sheetId, { kind: 'sync' });
    };
    const wait = state.lastReload === undefined ? 0 : state.lastReload + LIVE_RELOAD_MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) publish();
    else state.reloadTimer = setTimeout(publish, wait).unref();
  }

  /** On close: the user leaves the sheet when this was their last socket on it (in any process). */
  leave(conn: LiveConnection): void {
    const state = this.#conns.get(conn);
    if (!state || state.closed) return;
    state.closed = true;
    clearTimeout(state.reloadTimer);
    const entry = this.#rooms.get(conn.sheetId);
    if (entry?.room.has(conn)) {
      entry.room.remove(conn);
      if (entry.room.size === 0) this.#dropRoom(conn.sheetId, entry);
    }
    this.#exitPresence(conn, state);
  }

  /** One frame from a client. Anything malformed gets an error frame; the socket stays open. */
  handleFrame(conn: LiveConnection, raw: RawData): void {
    // A socket being closed (too far behind, revoked) changes nothing more.
    if (this.#conns.get(conn)?.closed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawText(raw));
    } catch {
      this.#error(conn, ERROR_CODES.badRequest, 'The frame is not valid JSON');
      return;
    }
    const frame = LiveClientFrameSchema.safeParse(parsed);
    if (!frame.success) {
      const issue = frame.error.issues[0];
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      this.#error(conn, ERROR_CODES.validation, `Invalid frame: ${where}${issue.message}`, operationIdOf(parsed));
      return;
    }
    const data = frame.data;
    if (data.sheet_id !== conn.sheetId) {
      const opId = data.type === 'operation' ? data.operation.id : undefined;
      this.#error(conn, ERROR_CODES.badRequest, 'sheet_id does not match the sheet of this connection', opId);
      return;
    }
    if (data.type === 'selection') {
      this.#select(conn, data.selection);
      return;
    }
    if (data.type === 'reload_request') {
      this.#reload(conn);
      return;
    }
    if (data.type === 'grid') {
      conn.grid = data.grid;
      return;
    }
    if (conn.readOnlyToken) {
      this.#error(conn, ERROR_CODES.forbidden, API_TOKEN_TEXTS.readOnly, data.operation.id);
      return;
    }
    if (!meetsAccess(conn.access, 'edit')) {
      this.#error(conn, ERROR_CODES.forbidden, ACCESS_TEXTS.viewOnly, data.operation.id);
      return;
    }
    if (!this.#batcher.submit(conn.sheetId, { conn, op: data.operation, bytes: rawSize(raw) })) {
      this.#error(conn, ERROR_CODES.tooManyRequests, LIVE_TEXTS.sheetBusy, data.operation.id);
    }
  }

  /**
   * After a sharing change: every socket of this process gets its member's level again. One whose
   * level moved is told with an `access` frame (its grid locks or unlocks), after the new level
   * judges its operations; one that lost access leaves and is closed (sheetNotFound, with the
   * reason). `levelOf` reads the database.
   */
  async reviewAccess(levelOf: (conn: LiveConnection) => Promise<AccessLevel>): Promise<void> {
    const conns = [...this.#rooms.values()].flatMap(({ room }) => [...room.connections()]);
    for (const conn of conns) {
      const level = await levelOf(conn);
      // Closed while the level was read: nothing more to tell it.
      if (this.#conns.get(conn)?.closed) continue;
      if (level !== 'none') {
        if (level === conn.access) continue;
        conn.access = level;
        this.#send(conn, { type: 'access', data: { sheet_id: conn.sheetId, access: level } });
        continue;
      }
      this.leave(conn);
      this.#outbox.flush(conn);
      closeSocket(conn.socket, LIVE_CLOSE.sheetNotFound, ACCESS_TEXTS.accessRemoved);
    }
  }

  /**
   * A change committed through SheetsService in THIS process (REST, import, versions, this hub)
   * goes on the bus; every process (this one too) delivers it to its sockets on the sheet.
   */
  onSheetChange(change: SheetChange): void {
    if (change.kind === 'deleted') {
      this.#publish(change.sheetId, { kind: 'deleted' });
      return;
    }
    if (change.kind === 'sheet') {
      this.#publish(change.sheetId, { kind: 'sync', version: change.version });
      return;
    }
    // Cells, rows / columns, proposals (see live-frames.ts); the hub's own operations are published by #apply.
    const frame = changeFrame(change, LIVE_ORIGIN);
    if (!frame) return;
    // A chart change has its version too: delivered in version order like an operation.
    if (frame.type === 'operation' || frame.type === 'chart') this.#publish(change.sheetId, { kind: 'operation', version: frame.data.version, frame });
    else this.#publish(change.sheetId, { kind: 'frame', frame });
  }

  /**
   * One heartbeat round: a socket that did not answer the previous ping is dropped (its user
   * leaves), the others are pinged again; this process's presence entries are renewed and those
   * of processes that stopped renewing them (killed) are removed — their users leave. Called
   * every LIVE_HEARTBEAT_MS.
   */
  heartbeat(): void {
    for (const { room } of this.#rooms.values()) {
      for (const conn of room.connections()) {
        if (!conn.alive) {
          conn.socket.terminate();
          continue;
        }
        conn.alive = false;
        conn.socket.ping();
      }
    }
    void this.#renewPresence().catch((err) => this.#failed(err, 'presence renewal'));
  }

  /** Users on a sheet now (every process), for tests and metrics. */
  async presentUsers(sheetId: string): Promise<string[]> {
    return (await this.deps.presence.list(sheetScope(sheetId))).map((m) => m.userId);
  }

  /** App shutdown: stop listening to the bus. */
  async close(): Promise<void> {
    const entries = [...this.#rooms.entries()];
    this.#rooms.clear();
    for (const [, entry] of entries) for (const conn of entry.room.connections()) clearTimeout(this.#conns.get(conn)?.reloadTimer);
    for (const [, entry] of entries) entry.room.close();
    await Promise.allSettled(entries.map(([, entry]) => entry.ready.then(() => entry.unsubscribe?.())));
  }

  /**
   * A group of operations that queued for a sheet: runs of cell operations are committed in one
   * transaction each (group commit), rows and columns one by one, in arrival order. Then each is
   * acknowledged and published in version order.
   */
  async #applyGroup(sheetId: string, group: QueuedOperation[]): Promise<void> {
    this.deps.onGroup?.(group.length);
    const publishes: Promise<void>[] = [];
    for (let i = 0; i < group.length; ) {
      let end = i;
      while (end < group.length && cellChangesOf(group[end].op)) end++;
      if (end > i) {
        const run = group.slice(i, end);
        const outcomes = await commitCellGroup(this.deps.sheets, this.deps.ops, sheetId, run.map(({ conn, op }) => ({ userId: conn.user.id, op })), LIVE_ORIGIN);
        for (const [k, outcome] of outcomes.entries()) publishes.push(this.#applied(run[k].conn, run[k].op, outcome));
        i = end;
      } else {
        const { conn, op } = group[i++];
        const outcome = await commitOperation(this.deps.sheets, this.deps.ops, sheetId, conn.user.id, op, LIVE_ORIGIN);
        publishes.push(this.#applied(conn, op, outcome));
      }
    }
    // Published without waiting one by one (one connection keeps their order; the rooms order by version anyway).
    await Promise.all(publishes);
  }

  /** After the commit: the sender's ack (or error), and the operation to everyone through the bus. */
  async #applied(conn: LiveConnection, op: LiveOperation, outcome: OperationOutcome): Promise<void> {
    if (!outcome.ok) {
      this.#error(conn, outcome.code, outcome.message, op.id);
      return;
    }
    const ack: LiveServerFrame = {
      type: 'ack',
      data: {
        sheet_id: conn.sheetId,
        operation_id: op.id,
        version: outcome.version,
        timestamp: outcome.timestamp,
        // The sort's author learns the order it got here (the others from the operation frame); none past SORT_ORDER_SENT_MAX_ROWS rows.
        ...(outcome.operation.type === 'rows_sort' && outcome.operation.order ? { order: outcome.operation.order } : {}),
      },
    };
    const entry = this.#rooms.get(conn.sheetId);
    // A re-sent operation (same id) was applied and delivered the first time: only the ack again,
    // after that version (the first may be in the same group commit, not delivered yet).
    if (outcome.duplicate) {
      if (entry?.room.has(conn)) entry.room.sendAfter(outcome.version, conn, ack);
      else this.#send(conn, ack);
      return;
    }
    // The sender gets its ack when the room delivers that version (acks too come in version order).
    if (entry?.room.has(conn)) entry.room.setAck(outcome.version, conn, ack);
    this.deps.onApplied?.(outcome.cells);
    const frame: LiveServerFrame = { type: 'operation', data: { sheet_id: conn.sheetId, version: outcome.version, operation: outcome.operation } };
    try {
      await this.deps.bus.publish(sheetChannel(conn.sheetId), { kind: 'operation', version: outcome.version, frame } satisfies SheetBusMessage);
    } catch (err) {
      // Redis unreachable: this process's sockets still get it; the others read it from the op log at their next version.
      this.#failed(err, 'publish');
      entry?.room.push({ kind: 'operation', version: outcome.version, frame });
    }
  }

  /**
   * Brings a joining socket from `since` to the sheet's current version: the ops in between
   * (live-frames.ts), or the whole sheet when too far behind, ahead, or past a whole-sheet change.
   * Returns the version the socket then holds.
   */
  async #catchUp(conn: LiveConnection, since: number): Promise<number | undefined> {
    const current = await this.deps.ops.currentVersion(conn.sheetId);
    if (current === undefined) return undefined;
    if (since === current) return current;
    if (since < current && current - since <= LIVE_REPLAY_MAX_VERSIONS) {
      const frames = replayFrames(conn.sheetId, await this.deps.ops.after(conn.sheetId, since, LIVE_REPLAY_MAX_VERSIONS));
      const versions = (frames ?? []).map(frameVersion);
      // Replayable and without a hole up to the current version: send the ops.
      if (frames !== null && versions.every((v, i) => v === since + 1 + i) && since + versions.length >= current) {
        for (const frame of frames) this.#send(conn, frame);
        return since + versions.length;
      }
    }
    let synced: number | undefined;
    await this.#readSync(conn.sheetId, conn.grid === 'whole', (sync) => {
      this.#send(conn, sync);
      synced = sync.data.version;
    });
    return synced;
  }

  /**
   * The sheet now as a sync frame, handed to `use`; nothing when it no longer exists (its deletion
   * closes the sockets). Without `withCells` only its summary is read (a windowed page's sync).
   * With them, a sheet of SHEET_READ_SLOT_MIN_BYTES or more is read parsed (up to SHEET_MAX_CELLS
   * cells, its frame text beside it) under a process 'sheet read' slot, the REST reads' bound
   * (TRANSFER_BOUNDS): waited for, not refused — every whole page on the sheet must get it — and
   * held until `use` has put the frame's text in the sockets' outboxes.
   */
  async #readSync(sheetId: string, withCells: boolean, use: (frame: SyncFrame) => void): Promise<void> {
    const frame = (summary: SheetSummary, data?: GridData): SyncFrame => ({
      type: 'sync',
      data: { sheet_id: sheetId, ...(data ? { data } : {}), version: summary.version, name: summary.name, metadata: summary.metadata, timestamp: new Date().toISOString() },
    });
    let release = () => {};
    try {
      const summary = await this.deps.sheets.readSummary(sheetId);
      this.deps.onSyncRead?.(withCells);
      if (!withCells) {
        use(frame(summary));
        return;
      }
      if ((summary.metadata.size ?? Number.POSITIVE_INFINITY) >= SHEET_READ_SLOT_MIN_BYTES) release = await this.deps.slots.wait('sheet read');
      const whole = await this.deps.sheets.readGrid(sheetId);
      use(frame(whole.summary, whole.data));
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) return;
      throw err;
    } finally {
      release();
    }
  }

  /** The room of a sheet in this process, subscribed to the sheet's channel on first use. */
  #room(sheetId: string): RoomEntry {
    const existing = this.#rooms.get(sheetId);
    if (existing) return existing;
    const room = new SheetRoom<LiveConnection>({
      sendText: (conn, text) => this.#outbox.send(conn, text),
      readSync: (withCells, use) => this.#readSync(sheetId, withCells, use),
      wantsCells: (conn) => conn.grid === 'whole',
      readOps: async (after, upTo) => {
        const frames = replayFrames(sheetId, await this.deps.ops.after(sheetId, after, upTo - after));
        return frames?.map((frame) => ({ version: frameVersion(frame), frame }));
      },
      onError: (err) => this.#failed(err, 'delivery'),
      onGapRead: (versions) => this.deps.onGapRead?.(versions),
    });
    const entry: RoomEntry = { room, ready: Promise.resolve() };
    entry.ready = (async () => {
      // Subscribe first, then read the version: nothing committed after the read can be missed.
      const unsubscribe = await this.deps.bus.subscribe(sheetChannel(sheetId), (message) => this.#onBusMessage(sheetId, entry, message));
      if (this.#rooms.get(sheetId) !== entry) {
        await unsubscribe();
        return;
      }
      entry.unsubscribe = unsubscribe;
      room.start((await this.deps.ops.currentVersion(sheetId)) ?? 0);
    })();
    // A failed start (Redis down) must not stick: the next join tries again.
    entry.ready.catch(() => {
      if (this.#rooms.get(sheetId) === entry) this.#rooms.delete(sheetId);
      room.close();
    });
    this.#rooms.set(sheetId, entry);
    return entry;
  }

  #dropRoom(sheetId: string, entry: RoomEntry): void {
    if (this.#rooms.get(sheetId) === entry) this.#rooms.delete(sheetId);
    entry.room.close();
    void entry.ready.then(() => entry.unsubscribe?.()).catch(() => {});
  }

  #onBusMessage(sheetId: string, entry: RoomEntry, raw: unknown): void {
    const parsed = SheetBusMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn({ sheetId, issue: parsed.error.issues[0]?.message }, 'live bus: malformed sheet message ignored');
      return;
    }
    const message = parsed.data;
    const { room } = entry;
    switch (message.kind) {
      case 'operation':
        room.push({ kind: 'operation', version: message.version, frame: message.frame });
        return;
      case 'sync':
        room.push({ kind: 'sync', version: message.version });
        return;
      case 'frame': {
        const except = message.except?.process === this.deps.processId ? message.except.conn : undefined;
        room.broadcast(JSON.stringify(message.frame), except ? (conn) => this.#conns.get(conn)?.id === except : undefined);
        return;
      }
      case 'deleted':
        // The room goes at once: presence is cleared before the close; a user_left then reaches no room (every process drops its own).
        this.#dropRoom(sheetId, entry);
        for (const conn of [...room.connections()]) {
          this.leave(conn);
          this.#outbox.flush(conn);
          conn.socket.close(LIVE_CLOSE.sheetDeleted, 'Sheet deleted');
        }
        return;
    }
  }

  /**
   * Backpressure: the socket did not read what it was sent and holds more than the bound. It
   * leaves the sheet now (nothing more is queued for it; the others see it leave) and is closed
   * with tooFarBehind; its client reconnects with `?since=` and gets the ops or a sync.
   */
  #tooFarBehind(conn: LiveConnection): void {
    this.deps.log.warn({ sheetId: conn.sheetId, userId: conn.user.id, buffered: conn.socket.bufferedAmount }, 'live socket too far behind: closed');
    this.leave(conn);
    closeSocket(conn.socket, LIVE_CLOSE.tooFarBehind, LIVE_TEXTS.tooFarBehind);
  }

  /** The user's selected cell: kept with their presence entry, told to every other socket on the sheet. */
  #select(conn: LiveConnection, selection: CellPosition | null): void {
    if (!this.#conns.get(conn)?.entered) return;
    this.deps.presence.setData(sheetScope(conn.sheetId), conn.user.id, selection).catch((err) => this.#failed(err, 'selection'));
    void this.#publishFrame(conn.sheetId, { type: 'selection', data: { ...this.#presenceData(conn), selection } }, conn);
  }

  #exitPresence(conn: LiveConnection, state: ConnState): void {
    if (!state.entered) return;
    state.entered = false;
    this.deps.presence
      .exit(sheetScope(conn.sheetId), conn.user.id)
      .then(({ last }) => {
        if (last) return this.#publishFrame(conn.sheetId, { type: 'user_left', data: this.#presenceData(conn) });
      })
      .catch((err) => this.#failed(err, 'leave'));
  }

  /** Users of processes that died leave; users of this one that another process had expired come back. */
  async #renewPresence(): Promise<void> {
    const { left, rejoined } = await this.deps.presence.renew(SHEET_SCOPE_PREFIX);
    for (const [events, type] of [
      [left, 'user_left'],
      [rejoined, 'user_joined'],
    ] as const) {
      for (const e of events) {
        const sheetId = e.scope.slice(SHEET_SCOPE_PREFIX.length);
        await this.#publishFrame(sheetId, { type, data: { user_id: e.userId, sheet_id: sheetId, display_name: e.displayName } });
      }
    }
  }

  #presenceData(conn: LiveConnection) {
    return { user_id: conn.user.id, sheet_id: conn.sheetId, display_name: conn.displayName };
  }

  #error(conn: LiveConnection, code: string, message: string, operationId?: string): void {
    this.#send(conn, { type: 'error', data: { code, message, ...(operationId ? { operation_id: operationId } : {}) } });
  }

  #failed(err: unknown, what: string): void {
    this.deps.log.error({ err }, `live ${what} failed`);
  }

  #send(conn: LiveConnection, frame: LiveServerFrame): void {
    this.#outbox.send(conn, JSON.stringify(frame));
  }

  /** A frame without a version to every socket on the sheet, in every process, but `except`. */
  async #publishFrame(sheetId: string, frame: LiveServerFrame, except?: LiveConnection): Promise<void> {
    const id = except ? this.#conns.get(except)?.id : undefined;
    await this.#publishNow(sheetId, { kind: 'frame', frame, ...(id ? { except: { process: this.deps.processId, conn: id } } : {}) });
  }

  #publish(sheetId: string, message: SheetBusMessage): void {
    void this.#publishNow(sheetId, message);
  }

  async #publishNow(sheetId: string, message: SheetBusMessage): Promise<void> {
    try {
      await this.deps.bus.publish(sheetChannel(sheetId), message);
    } catch (err) {
      this.#failed(err, 'publish');
    }
  }
}

/** The selection stored with a presence entry (it came back from the presence store: checked). */
function selectionOf(data: unknown): Pick<PresenceEntry, 'selection'> {
  const parsed = CellPositionSchema.nullable().safeParse(data);
  return parsed.success && parsed.data ? { selection: parsed.data } : {};
}

/** What `ws` hands a message listener (the api does not depend on `ws` directly). */
export type RawData = Buffer | ArrayBuffer | Buffer[];

/** A received frame's size in bytes. */
export function rawSize(raw: RawData): number {
  if (Array.isArray(raw)) return raw.reduce((sum, part) => sum + part.length, 0);
  return raw.byteLength;
}

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

/** The operation id of a frame that failed validation, when it has a usable one (so the client can match the error). */
function operationIdOf(frame: unknown): string | undefined {
  const id = (frame as { operation?: { id?: unknown } } | null)?.operation?.id;
  return typeof id === 'string' && id.length <= 128 ? id : undefined;
}
