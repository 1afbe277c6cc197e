import {
  type AppliedOperation,
  type AuthUser,
  type CellChange,
  ERROR_CODES,
  LIVE_CLOSE,
  LIVE_REPLAY_MAX_VERSIONS,
  LiveClientFrameSchema,
  type LiveOperation,
  type LiveServerFrame,
  type PresenceEntry,
} from '@tessera/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { HttpError } from '../http/http-error.js';
import type { SheetChange } from '../sheets/sheet-changes.js';
import type { SheetsService } from '../sheets/sheets.service.js';
import { SerialQueue } from './serial-queue.js';
import type { SheetOpsRepository } from './sheet-ops.repository.js';

/** Marks the patches the hub makes, so the change feed does not broadcast them a second time. */
const LIVE_ORIGIN = 'live-socket';
/** A concurrent REST edit of the same cell between reading the version and the write: read again. */
const MAX_CONFLICT_RETRIES = 5;
const OPEN = 1;
/** Operation ids remembered for replays (this process only), oldest dropped first. */
const REMEMBERED_OP_IDS = 100_000;

/** One authenticated socket on one sheet. */
export interface LiveConnection {
  socket: WebSocket;
  user: AuthUser;
  displayName: string;
  sheetId: string;
  /** Answered the last ping (see heartbeat). */
  alive: boolean;
}

interface PresentUser {
  joinedAt: string;
  displayName: string;
  /** Open sockets of this user on the sheet (tabs): the user leaves when the last one closes. */
  sockets: number;
}

interface Room {
  connections: Set<LiveConnection>;
  users: Map<string, PresentUser>;
}

export interface LiveHubDeps {
  sheets: SheetsService;
  ops: SheetOpsRepository;
  log: FastifyBaseLogger;
  /** Told of each operation once persisted and acknowledged, with its cell count (metrics). */
  onApplied?(cells: number): void;
}

/**
 * The live sheets: who is on each sheet, and the operations, applied one at a time per sheet
 * (server order), persisted through SheetsService.patchCells before the sender's ack, then
 * broadcast with their version. Cells are last-writer-wins in that order.
 */
export class LiveHub {
  readonly #rooms = new Map<string, Room>();
  readonly #queue = new SerialQueue();
  /**
   * `sheetId:version` → the client's operation id, so that a replay carries the id the sender
   * gave (a client whose ack was lost recognises its own op). The op log does not store it.
   */
  readonly #opIds = new Map<string, string>();

  constructor(private readonly deps: LiveHubDeps) {}

  /** Registers an authenticated socket: presence to it, user_joined to the others, then what it missed since `since`. */
  join(conn: LiveConnection, since: number | undefined): Promise<void> {
    return this.#queue.run(conn.sheetId, async () => {
      // Closed while authenticating: nothing to register.
      if (conn.socket.readyState !== OPEN) return;
      let room = this.#rooms.get(conn.sheetId);
      if (!room) {
        room = { connections: new Set(), users: new Map() };
        this.#rooms.set(conn.sheetId, room);
      }
      room.connections.add(conn);
      let present = room.users.get(conn.user.id);
      const firstSocket = !present;
      if (!present) {
        present = { joinedAt: new Date().toISOString(), displayName: conn.displayName, sockets: 0 };
        room.users.set(conn.user.id, present);
      }
      present.sockets += 1;
      const users: PresenceEntry[] = [...room.users].map(([userId, u]) => ({ userId, joinedAt: u.joinedAt, display_name: u.displayName }));
      this.#send(conn, { type: 'presence', data: { sheet_id: conn.sheetId, users } });
      if (firstSocket) this.#broadcast(conn.sheetId, { type: 'user_joined', data: this.#presenceData(conn) }, conn);
      if (since !== undefined) await this.#catchUp(conn, since);
    });
  }

  /** On close: the user leaves the sheet when this was their last socket on it. */
  leave(conn: LiveConnection): void {
    const room = this.#rooms.get(conn.sheetId);
    if (!room || !room.connections.delete(conn)) return;
    const present = room.users.get(conn.user.id);
    if (present && --present.sockets === 0) {
      room.users.delete(conn.user.id);
      this.#broadcast(conn.sheetId, { type: 'user_left', data: this.#presenceData(conn) });
    }
    if (room.connections.size === 0) this.#rooms.delete(conn.sheetId);
  }

  /** One frame from a client. Anything malformed gets an error frame; the socket stays open. */
  handleFrame(conn: LiveConnection, raw: RawData): void {
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
    if (data.type === 'reload_request') {
      void this.#queue.run(conn.sheetId, () => this.#syncEveryone(conn.sheetId)).catch((err) => this.#failed(err, 'reload_request'));
      return;
    }
    void this.#queue.run(conn.sheetId, () => this.#apply(conn, data.operation)).catch((err) => this.#failed(err, 'operation'));
  }

  /** A change committed through SheetsService (REST, import, this hub) reaches the open sockets of the sheet. */
  onSheetChange(change: SheetChange): void {
    const room = this.#rooms.get(change.sheetId);
    if (!room) return;
    if (change.kind === 'deleted') {
      // The room goes at once (no user_left to sockets that are closing anyway).
      this.#rooms.delete(change.sheetId);
      for (const conn of room.connections) conn.socket.close(LIVE_CLOSE.sheetDeleted, 'Sheet deleted');
      return;
    }
    if (change.kind === 'cells') {
      if (change.origin === LIVE_ORIGIN) return;
      const operation: AppliedOperation = {
        id: `rest-${change.version}`,
        type: 'cells_update',
        changes: change.changes,
        user_id: change.userId,
        timestamp: change.updatedAt,
      };
      this.#broadcast(change.sheetId, { type: 'operation', data: { sheet_id: change.sheetId, version: change.version, operation } });
      return;
    }
    void this.#queue.run(change.sheetId, () => this.#syncEveryone(change.sheetId)).catch((err) => this.#failed(err, 'sync'));
  }

  /**
   * One heartbeat round: a socket that did not answer the previous ping is dropped (its user
   * leaves), the others are pinged again. Called every LIVE_HEARTBEAT_MS.
   */
  heartbeat(): void {
    for (const room of this.#rooms.values()) {
      for (const conn of room.connections) {
        if (!conn.alive) {
          conn.socket.terminate();
          continue;
        }
        conn.alive = false;
        conn.socket.ping();
      }
    }
  }

  /** Users on a sheet now, for tests and metrics. */
  presentUsers(sheetId: string): string[] {
    return [...(this.#rooms.get(sheetId)?.users.keys() ?? [])];
  }

  async #apply(conn: LiveConnection, op: LiveOperation): Promise<void> {
    const changes: CellChange[] =
      op.type === 'cell_update' ? [{ row: op.position.row, col: op.position.column, value: op.value }] : op.changes;
    let result;
    for (let attempt = 0; ; attempt++) {
      const current = await this.deps.ops.currentVersion(conn.sheetId);
      if (current === undefined) {
        this.#error(conn, ERROR_CODES.notFound, 'Sheet not found', op.id);
        return;
      }
      try {
        // Based on the current version: a live op is never stale (the server's order decides), so no 409.
        result = await this.deps.sheets.patchCells(conn.sheetId, { base_version: current, changes }, conn.user.id, LIVE_ORIGIN);
        break;
      } catch (err) {
        // Only a write from outside the socket (REST) between the read and the lock can make it stale.
        if (err instanceof HttpError && err.statusCode === 409 && attempt < MAX_CONFLICT_RETRIES) continue;
        if (err instanceof HttpError) {
          this.#error(conn, err.code, err.message, op.id);
          return;
        }
        throw err;
      }
    }
    const operation: AppliedOperation = { ...op, user_id: conn.user.id, timestamp: result.updated_at };
    this.#rememberOpId(conn.sheetId, result.version, op.id);
    this.#send(conn, {
      type: 'ack',
      data: { sheet_id: conn.sheetId, operation_id: op.id, version: result.version, timestamp: result.updated_at },
    });
    this.#broadcast(conn.sheetId, { type: 'operation', data: { sheet_id: conn.sheetId, version: result.version, operation } }, conn);
    this.deps.onApplied?.(changes.length);
  }

  /** Replays the cell ops after `since`, or sends the whole sheet when too far behind or when a whole-sheet change intervened. */
  async #catchUp(conn: LiveConnection, since: number): Promise<void> {
    const current = await this.deps.ops.currentVersion(conn.sheetId);
    if (current === undefined || since === current) return;
    if (since > current || current - since > LIVE_REPLAY_MAX_VERSIONS) {
      this.#send(conn, await this.#syncFrame(conn.sheetId));
      return;
    }
    const missed = await this.deps.ops.after(conn.sheetId, since, LIVE_REPLAY_MAX_VERSIONS);
    if (missed.some((op) => op.kind !== 'cells' || op.changes === null)) {
      this.#send(conn, await this.#syncFrame(conn.sheetId));
      return;
    }
    for (const op of missed) {
      const operation: AppliedOperation = {
        id: this.#opIds.get(`${conn.sheetId}:${op.version}`) ?? `replay-${op.version}`,
        type: 'cells_update',
        changes: (op.changes ?? []).map((d) => ({ row: d.row, col: d.col, value: d.new })),
        user_id: op.userId ?? '',
        timestamp: op.createdAt.toISOString(),
      };
      this.#send(conn, { type: 'operation', data: { sheet_id: conn.sheetId, version: op.version, operation } });
    }
  }

  async #syncFrame(sheetId: string): Promise<LiveServerFrame> {
    const { summary, data } = await this.deps.sheets.readGrid(sheetId);
    return {
      type: 'sync',
      data: {
        sheet_id: sheetId,
        data,
        version: summary.version,
        name: summary.name,
        metadata: summary.metadata,
        timestamp: new Date().toISOString(),
      },
    };
  }

  async #syncEveryone(sheetId: string): Promise<void> {
    if (!this.#rooms.has(sheetId)) return;
    try {
      this.#broadcast(sheetId, await this.#syncFrame(sheetId));
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) {
        this.#broadcast(sheetId, { type: 'error', data: { code: ERROR_CODES.notFound, message: 'Sheet not found' } });
        return;
      }
      throw err;
    }
  }

  #rememberOpId(sheetId: string, version: number, id: string): void {
    if (this.#opIds.size >= REMEMBERED_OP_IDS) {
      const oldest = this.#opIds.keys().next().value;
      if (oldest !== undefined) this.#opIds.delete(oldest);
    }
    this.#opIds.set(`${sheetId}:${version}`, id);
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
    if (conn.socket.readyState === OPEN) conn.socket.send(JSON.stringify(frame));
  }

  /** To every socket on the sheet but `except`; the frame is serialised once. */
  #broadcast(sheetId: string, frame: LiveServerFrame, except?: LiveConnection): void {
    const room = this.#rooms.get(sheetId);
    if (!room) return;
    const text = JSON.stringify(frame);
    for (const conn of room.connections) {
      if (conn !== except && conn.socket.readyState === OPEN) conn.socket.send(text);
    }
  }
}

/** What `ws` hands a message listener (the api does not depend on `ws` directly). */
export type RawData = Buffer | ArrayBuffer | Buffer[];

function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

/** The operation id of a frame that failed validation, when it has a usable one (so the client can match the error). */
function operationIdOf(frame: unknown): string | undefined {
  const id = (frame as { operation?: { id?: unknown } } | null)?.operation?.id;
  return typeof id === 'string' && id.length <= 128 ? id : undefined;
}
