import {
  EDIT_DROPPED_TEXT,
  LIVE_CLOSE,
  LiveClientFrameSchema,
  LiveGridSchema,
  STRUCTURE_DROPPED_TEXT,
  columnLabel,
  isInsertStructure,
  isRowStructure,
  isStructureType,
  liveTokenFromProtocols,
  transformOperationThrough,
  applyOrder,
  sortOrder,
  SORT_MAX_ROWS,
  SORT_ORDER_SENT_MAX_ROWS,
  inverseOrder,
  SORT_TEXTS,
  CLEAR_TEXTS,
  STRUCTURE_UNDO_TEXTS,
  clearBlocksThrough,
  transformChanges,
  type CellChange,
  type ClearBlock,
  type MoveStep,
  type AppliedOperation,
  type LiveClientFrame,
  type LiveGrid,
  type LiveOperation,
  type LiveServerFrame,
  type Sheet,
} from '@tessera/contracts';
import type { Server } from 'node:http';
import { acceptWebSockets, type TestSocket } from './ws-server.js';

/**
 * Test support: the live sheet socket `/sheets/{id}` as the api serves it, on the test api's
 * server and over its sheets: the token (offered as ['tessera.bearer', token]) is the user id
 * here; presence, user_joined / user_left, operations serialised per sheet with a version
 * each, ack to the sender and the operation to the others, a replay (or a sync) of what a
 * reconnecting client missed since `?since=`, reload_request, selections, and a sync after a
 * REST save — without the cells to a socket whose page holds the sheet windowed (`?grid=` or a
 * `grid` frame, contracts LIVE_GRIDS). An operation with a base_version is moved through the rows and columns inserted or
 * removed since, with the contracts' transform, as the api does (one with nothing left is refused
 * by name). A cells_clear_undo puts back the cells its clear emptied that are still empty, moved
 * through the rows and columns inserted, removed or sorted since, as the api does (live.schema.ts).
 * So does an insert with `undo` (the version of a remove): its new rows or columns get the cells the
 * remove took, moved with their rows (columns) through what was inserted, removed or sorted since.
 */
export interface LiveTestHub {
  /** Refuses an operation with this reason (an error frame naming it) when it returns one. */
  refuse: ((operation: LiveOperation) => string | null) | null;
  /** Every valid frame clients sent, in order, with who sent it. */
  received: { userId: string; frame: LiveClientFrame }[];
  /** Every sync sent, in order: to whom, and whether it carried the cells (not to a windowed page). */
  syncs: { userId: string; cells: boolean }[];
  /** Open sockets of a user. */
  sockets(userId: string): number;
  /** Drops the user's sockets as a lost network does, and refuses their new ones until `restore`. */
  cut(userId: string): void;
  restore(userId: string): void;
  /** Sends a frame to every socket on the sheet. */
  broadcast(sheetId: string, frame: LiveServerFrame): void;
  /** The whole sheet was saved over REST (PUT): everyone on it gets a sync. */
  restSaved(sheet: Sheet): void;
  /** Drops every socket (the server closes). */
  closeAll(): void;
  /** Keeps the acks to `userId`'s operations (applied and told to the others as usual) until releaseAcks. */
  holdAcks(userId: string): void;
  /** Sends the acks kept, in order, and stops keeping them. */
  releaseAcks(): void;
}

interface Connection {
  socket: TestSocket;
  userId: string;
  sheetId: string;
  selection: { row: number; column: number } | null;
  /** How its page holds the sheet: a windowed one's syncs come without the cells. */
  grid: LiveGrid;
}

export function attachLiveTestHub(server: Server, sheets: Map<string, Sheet>, touch: (sheet: Sheet) => void): LiveTestHub {
  const connections = new Set<Connection>();
  const refused = new Set<string>();
  /** sheet id → version → the operation applied at it. */
  const log = new Map<string, Map<number, AppliedOperation>>();
  /** `sheetId:operationId` → the version it was applied at (a resent operation is not applied twice). */
  const applied = new Map<string, number>();
  const received: LiveTestHub['received'] = [];
  /** `sheetId:version` of a cells_clear → the cells it emptied that held a value (what its undo puts back). */
  const emptied = new Map<string, CellChange[]>();
  /** sheet id → the version its whole grid was last replaced at (a REST save over it). */
  const replacedAt = new Map<string, number>();
  /** The cells the last cells_clear applied emptied (recorded under its version once it has one). */
  let lastEmptied: CellChange[] = [];
  /**
   * `sheetId:version` of a rows_remove / columns_remove → the cells it took that held a value, at
   * their row (column) and their place in the removed span along the removed axis (`col` k of a
   * column remove: its k-th column): what an insert undoing it fills in.
   */
  const took = new Map<string, CellChange[]>();
  /** The cells the last remove applied took (recorded under its version once it has one). */
  let lastTook: CellChange[] = [];
  /** holdAcks: whose acks are kept, and the sends kept. */
  let ackHeldFor: string | null = null;
  let heldAcks: (() => void)[] = [];
  const syncs: LiveTestHub['syncs'] = [];

  const send = (conn: Connection, frame: LiveServerFrame) => conn.socket.send(JSON.stringify(frame));
  const others = (conn: Connection) => [...connections].filter((c) => c.sheetId === conn.sheetId && c !== conn);
  const onSheet = (sheetId: string) => [...connections].filter((c) => c.sheetId === sheetId);
  const presenceData = (conn: Connection) => ({ user_id: conn.userId, sheet_id: conn.sheetId, display_name: conn.userId });

  /** The sheet to `conn`: without the cells when its page holds it windowed. */
  const syncFrame = (sheet: Sheet, conn: Connection): LiveServerFrame => {
    const cells = conn.grid === 'whole';
    syncs.push({ userId: conn.userId, cells });
    return {
      type: 'sync',
      data: { sheet_id: sheet.id, ...(cells ? { data: sheet.data } : {}), version: sheet.version, name: sheet.name, metadata: sheet.metadata, timestamp: sheet.updated_at },
    };
  };

  const record = (sheet: Sheet, operation: AppliedOperation) => {
    const byVersion = log.get(sheet.id) ?? new Map<number, AppliedOperation>();
    byVersion.set(sheet.version, operation);
    log.set(sheet.id, byVersion);
  };

  /** The order that undoes the sort logged at `version` (as the api's undoPlan), or why not. */
  function undoOrder(sheet: Sheet, version: number): number[] | string {
    const logged = [...(log.get(sheet.id) ?? new Map<number, AppliedOperation>()).entries()];
    const sort = logged.find(([v]) => v === version)?.[1];
    if (sort?.type !== 'rows_sort' || !sort.order) return SORT_TEXTS.undoNotSort(version);
    if (logged.some(([v, op]) => v > version && (op.type === 'rows_insert' || op.type === 'rows_remove' || op.type === 'rows_sort'))) return SORT_TEXTS.undoMoved;
    return Array.from(inverseOrder(sort.order));
  }

  /**
   * What the undo of the clear logged at `version` puts back (as the api): its emptied cells moved
   * through the moves since, and the block holding them now; or why not.
   */
  function clearUndoPlan(sheet: Sheet, version: number): { cells: CellChange[]; block: ClearBlock } | string {
    const byVersion = log.get(sheet.id) ?? new Map<number, AppliedOperation>();
    const clear = byVersion.get(version);
    if (clear?.type !== 'cells_clear') return CLEAR_TEXTS.undoNotClear(version);
    if ((replacedAt.get(sheet.id) ?? 0) > version) return CLEAR_TEXTS.undoReplaced;
    const since = [...byVersion.entries()]
      .filter(([v, op]) => v > version && (isStructureType(op.type) || op.type === 'rows_sort'))
      .sort(([a], [b]) => a - b)
      .map(([, op]) => op as AppliedOperation & MoveStep);
    const { changes } = transformChanges([...(emptied.get(`${sheet.id}:${version}`) ?? [])], since);
    if (changes.length > 0) {
      let [top, bottom, left, right] = [Infinity, -1, Infinity, -1];
      for (const { row, col } of changes) {
        [top, bottom] = [Math.min(top, row), Math.max(bottom, row)];
        [left, right] = [Math.min(left, col), Math.max(right, col)];
      }
      return { cells: changes, block: { rows: { start: top, count: bottom - top + 1 }, columns: { start: left, count: right - left + 1 } } };
    }
    // Nothing it emptied is left: applied still, with its block as it moved, unless that is gone too.
    const [block] = clearBlocksThrough([{ rows: clear.rows, columns: clear.columns }], since, 'after') ?? [];
    return block ? { cells: [], block } : CLEAR_TEXTS.undoGone;
  }

  /**
   * What an insert undoing the remove logged at `version` fills in (as the api): the cells it took,
   * moved with their rows (a column's) or columns (a row's) through what moved since; or why not.
   */
  function structureUndoPlan(sheet: Sheet, version: number, insert: { type: 'rows_insert' | 'columns_insert'; count: number }): CellChange[] | string {
    const byVersion = log.get(sheet.id) ?? new Map<number, AppliedOperation>();
    const remove = byVersion.get(version);
    const removeType = insert.type === 'rows_insert' ? 'rows_remove' : 'columns_remove';
    if (remove?.type !== removeType || remove.count !== insert.count) return STRUCTURE_UNDO_TEXTS.notRemove(version);
    if ((replacedAt.get(sheet.id) ?? 0) > version) return STRUCTURE_UNDO_TEXTS.replaced;
    const rows = insert.type === 'rows_insert';
    // A removed row's cells move with their columns; a removed column's with their rows (a sort too).
    const since = [...byVersion.entries()]
      .filter(([v, op]) => v > version && (rows ? op.type === 'columns_insert' || op.type === 'columns_remove' : op.type === 'rows_insert' || op.type === 'rows_remove' || op.type === 'rows_sort'))
      .sort(([a], [b]) => a - b)
      .map(([, op]) => op as AppliedOperation & MoveStep);
    return transformChanges([...(took.get(`${sheet.id}:${version}`) ?? [])], since).changes;
  }

  /** An insert undoing a remove filled: cell (row, k) of a column's at column index + k, (k, col) of a row's at row index + k. */
  function fill(sheet: Sheet, insert: { type: string; index: number }, cells: readonly CellChange[]): void {
    for (const { row, col, value } of cells) {
      const [r, c] = insert.type === 'rows_insert' ? [insert.index + row, col] : [row, insert.index + col];
      while (sheet.data.length <= r) sheet.data.push([]);
      const rowCells = sheet.data[r];
      while (rowCells.length < c) rowCells.push(null);
      rowCells[c] = value;
    }
  }

  /** Applies an operation to the stored sheet; returns the reason when it is refused. */
  function applyTo(sheet: Sheet, op: LiveOperation, order?: readonly number[]): string | null {
    const { metadata } = sheet;
    if (op.type === 'rows_sort') {
      if (op.column >= metadata.columns) return SORT_TEXTS.noColumn(op.column, metadata.columns);
      if (sheet.data.length > SORT_MAX_ROWS) return SORT_TEXTS.tooManyRows(sheet.data.length);
      sheet.data = applyOrder(sheet.data, order ?? sortOrder(sheet.data, op.column, op.direction));
      touch(sheet);
      return null;
    }
    if (op.type === 'cell_update' || op.type === 'cells_update') {
      const changes = op.type === 'cell_update' ? [{ row: op.position.row, col: op.position.column, value: op.value }] : op.changes;
      for (const { row, col, value } of changes) {
        while (sheet.data.length <= row) sheet.data.push([]);
        const cells = sheet.data[row];
        while (cells.length < col) cells.push(null);
        cells[col] = value;
        metadata.rows = Math.max(metadata.rows, row + 1);
        metadata.columns = Math.max(metadata.columns, col + 1);
      }
      touch(sheet);
      return null;
    }
    if (op.type === 'cells_clear') {
      // As the api: a block past the sheet is refused; cells past a row's end stay absent.
      if (op.rows.start + op.rows.count > metadata.rows || op.columns.start + op.columns.count > metadata.columns) return CLEAR_TEXTS.pastSheet(metadata.rows, metadata.columns);
      lastEmptied = [];
      for (let r = op.rows.start; r < Math.min(op.rows.start + op.rows.count, sheet.data.length); r++)
        for (let c = op.columns.start; c < Math.min(op.columns.start + op.columns.count, sheet.data[r].length); c++) {
          const value = sheet.data[r][c];
          if (value !== null && value !== undefined && value !== '') lastEmptied.push({ row: r, col: c, value });
          sheet.data[r][c] = null;
        }
      touch(sheet);
      return null;
    }
    // Put back by putBack (handle() plans it first: clearUndoPlan).
    if (op.type === 'cells_clear_undo') return null;
    const rows = isRowStructure(op.type);
    const size = rows ? metadata.rows : metadata.columns;
    const insert = isInsertStructure(op.type);
    if (insert ? op.index > size : op.index + op.count > size) return `${op.type} outside the sheet`;
    if (op.type === 'rows_insert') sheet.data.splice(Math.min(op.index, sheet.data.length), 0, ...Array.from({ length: op.count }, () => []));
    if (op.type === 'rows_remove' || op.type === 'columns_remove') lastTook = takenBy(sheet, op);
    if (op.type === 'rows_remove') sheet.data.splice(op.index, op.count);
    if (op.type === 'columns_insert') {
      for (const row of sheet.data) if (row.length > op.index) row.splice(op.index, 0, ...new Array(op.count).fill(null));
      metadata.headers.splice(op.index, 0, ...Array.from({ length: op.count }, (_, i) => columnLabel(op.index + i)));
    }
    if (op.type === 'columns_remove') {
      for (const row of sheet.data) row.splice(op.index, op.count);
      metadata.headers.splice(op.index, op.count);
    }
    if (rows) metadata.rows += insert ? op.count : -op.count;
    else metadata.columns += insert ? op.count : -op.count;
    touch(sheet);
    return null;
  }

  /** A clear's cells put back: those still empty get their value again (cells typed into since keep theirs). */
  function putBack(sheet: Sheet, cells: readonly CellChange[]): null {
    for (const { row, col, value } of cells) {
      const held = sheet.data[row]?.[col];
      if (held !== null && held !== undefined && held !== '') continue;
      while (sheet.data.length <= row) sheet.data.push([]);
      const rowCells = sheet.data[row];
      while (rowCells.length < col) rowCells.push(null);
      rowCells[col] = value;
    }
    touch(sheet);
    return null;
  }

  function join(conn: Connection, since: number | null) {
    const sheet = sheets.get(conn.sheetId)!;
    const first = onSheet(conn.sheetId).every((c) => c.userId !== conn.userId);
    connections.add(conn);
    const users = [...new Set(onSheet(conn.sheetId).map((c) => c.userId))].map((userId) => ({
      userId,
      joinedAt: '2026-01-01T00:00:00.000Z',
      display_name: userId,
      selection: onSheet(conn.sheetId).find((c) => c.userId === userId)?.selection ?? null,
    }));
    send(conn, { type: 'presence', data: { sheet_id: sheet.id, users } });
    if (first) for (const other of others(conn)) send(other, { type: 'user_joined', data: presenceData(conn) });
    if (since === null || since >= sheet.version) return;
    const byVersion = log.get(sheet.id);
    const missed: AppliedOperation[] = [];
    for (let v = since + 1; v <= sheet.version; v++) {
      const op = byVersion?.get(v);
      if (!op) return send(conn, syncFrame(sheet, conn));
      missed.push(op);
    }
    missed.forEach((operation, i) => send(conn, { type: 'operation', data: { sheet_id: sheet.id, version: since + 1 + i, operation } }));
  }

  function leave(conn: Connection) {
    if (!connections.delete(conn)) return;
    if (onSheet(conn.sheetId).some((c) => c.userId === conn.userId)) return;
    for (const other of onSheet(conn.sheetId)) send(other, { type: 'user_left', data: presenceData(conn) });
  }

  function handle(conn: Connection, text: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return send(conn, { type: 'error', data: { code: 'bad_request', message: 'The frame is not valid JSON' } });
    }
    const result = LiveClientFrameSchema.safeParse(parsed);
    if (!result.success) return send(conn, { type: 'error', data: { code: 'validation_failed', message: 'Invalid frame' } });
    const frame = result.data;
    received.push({ userId: conn.userId, frame });
    const sheet = sheets.get(conn.sheetId)!;
    if (frame.type === 'reload_request') {
      for (const c of onSheet(sheet.id)) send(c, syncFrame(sheet, c));
      return;
    }
    if (frame.type === 'grid') {
      conn.grid = frame.grid;
      return;
    }
    if (frame.type === 'selection') {
      conn.selection = frame.selection;
      for (const other of others(conn)) {
        send(other, { type: 'selection', data: { sheet_id: sheet.id, user_id: conn.userId, display_name: conn.userId, selection: frame.selection } });
      }
      return;
    }
    const op = frame.operation;
    const already = applied.get(`${sheet.id}:${op.id}`);
    if (already !== undefined) {
      return send(conn, { type: 'ack', data: { sheet_id: sheet.id, operation_id: op.id, version: already, timestamp: sheet.updated_at } });
    }
    const { base_version: base, ...sent } = op;
    const since = [...(log.get(sheet.id) ?? new Map<number, AppliedOperation>()).entries()]
      .filter(([version, applied]) => base !== undefined && version > base && (isStructureType(applied.type) || applied.type === 'rows_sort'))
      .sort(([a], [b]) => a - b)
      .map(([, applied]) => applied as AppliedOperation & MoveStep);
    // A clear's undo names a version: its cells are moved below (clearUndoPlan), the op itself is not.
    const moved = sent.type === 'cells_clear_undo' ? (sent as LiveOperation) : transformOperationThrough(sent as LiveOperation, since, 'after').operation;
    if (moved === null) {
      const message = isStructureType(op.type) ? STRUCTURE_DROPPED_TEXT : EDIT_DROPPED_TEXT;
      return send(conn, { type: 'error', data: { code: 'conflict', message, operation_id: op.id } });
    }
    // A sort's order, as the api computes it: on the rows held when it applies; an undo's, the logged sort's inverted (refused when rows moved since).
    const undone = moved.type === 'rows_sort' && moved.undo !== undefined ? undoOrder(sheet, moved.undo) : undefined;
    if (typeof undone === 'string') return send(conn, { type: 'error', data: { code: 'conflict', message: undone, operation_id: op.id } });
    const order = moved.type === 'rows_sort' ? (undone ?? sortOrder(sheet.data, moved.column, moved.direction)) : undefined;
    // A clear's undo: what it puts back (refused as the api refuses it).
    const plan = moved.type === 'cells_clear_undo' ? clearUndoPlan(sheet, moved.undo) : undefined;
    if (typeof plan === 'string') return send(conn, { type: 'error', data: { code: 'conflict', message: plan, operation_id: op.id } });
    // A remove's undo: the insert's cells (refused as the api refuses it).
    const filled = (moved.type === 'rows_insert' || moved.type === 'columns_insert') && moved.undo !== undefined ? structureUndoPlan(sheet, moved.undo, moved) : undefined;
    if (typeof filled === 'string') return send(conn, { type: 'error', data: { code: 'conflict', message: filled, operation_id: op.id } });
    const refusal = hub.refuse?.(moved) ?? (plan ? putBack(sheet, plan.cells) : applyTo(sheet, moved, order));
    if (!refusal && filled) fill(sheet, moved as { type: string; index: number }, filled);
    if (refusal) return send(conn, { type: 'error', data: { code: 'bad_request', message: refusal, operation_id: op.id } });
    const block = plan ? { rows: plan.block.rows, columns: plan.block.columns } : {};
    const operation = { ...moved, ...(order ? { order } : {}), ...block, user_id: conn.userId, timestamp: sheet.updated_at } as AppliedOperation;
    record(sheet, operation);
    if (moved.type === 'cells_clear') emptied.set(`${sheet.id}:${sheet.version}`, lastEmptied);
    if (moved.type === 'rows_remove' || moved.type === 'columns_remove') took.set(`${sheet.id}:${sheet.version}`, lastTook);
    applied.set(`${sheet.id}:${op.id}`, sheet.version);
    // As the api: a sort's frames carry its order up to SORT_ORDER_SENT_MAX_ROWS rows only.
    const carried = order && order.length <= SORT_ORDER_SENT_MAX_ROWS ? { order } : {};
    const told = order ? ({ ...moved, ...carried, user_id: conn.userId, timestamp: sheet.updated_at } as AppliedOperation) : operation;
    const ack: LiveServerFrame = { type: 'ack', data: { sheet_id: sheet.id, operation_id: op.id, version: sheet.version, timestamp: sheet.updated_at, ...carried } };
    if (ackHeldFor === conn.userId) heldAcks.push(() => send(conn, ack));
    else send(conn, ack);
    for (const other of others(conn)) send(other, { type: 'operation', data: { sheet_id: sheet.id, version: sheet.version, operation: told } });
  }

  /** The cells holding a value a remove takes, at their place in it along its axis (see `took`). */
  function takenBy(sheet: Sheet, op: { type: 'rows_remove' | 'columns_remove'; index: number; count: number }): CellChange[] {
    const out: CellChange[] = [];
    const held = (value: unknown) => value !== null && value !== undefined && value !== '';
    if (op.type === 'rows_remove') {
      for (let k = 0; k < op.count; k++) (sheet.data[op.index + k] ?? []).forEach((value, col) => held(value) && out.push({ row: k, col, value }));
      return out;
    }
    sheet.data.forEach((cells, row) => {
      for (let k = 0; k < op.count; k++) if (held(cells[op.index + k])) out.push({ row, col: k, value: cells[op.index + k] });
    });
    return out;
  }

  acceptWebSockets(
    server,
    (url) => /^\/sheets\/[^/]+$/.test(url.pathname),
    (socket) => {
      const sheetId = decodeURIComponent(socket.url.pathname.slice('/sheets/'.length));
      const userId = liveTokenFromProtocols(socket.protocols.join(', '));
      if (!userId) return socket.close(LIVE_CLOSE.policyViolation, 'Unauthorized');
      if (refused.has(userId)) return socket.destroy();
      if (!sheets.has(sheetId)) return socket.close(LIVE_CLOSE.sheetNotFound, 'Sheet not found');
      const since = socket.url.searchParams.get('since');
      const grid = LiveGridSchema.safeParse(socket.url.searchParams.get('grid') ?? 'whole');
      if (!grid.success) return socket.close(LIVE_CLOSE.policyViolation, 'Invalid connection parameters');
      const conn: Connection = { socket, userId, sheetId, selection: null, grid: grid.data };
      socket.onMessage = (text) => handle(conn, text);
      socket.onClose = () => leave(conn);
      join(conn, since === null ? null : Number(since));
    },
  );

  const hub: LiveTestHub = {
    refuse: null,
    received,
    syncs,
    sockets: (userId) => [...connections].filter((c) => c.userId === userId).length,
    cut(userId) {
      refused.add(userId);
      for (const c of [...connections]) if (c.userId === userId) c.socket.destroy();
    },
    restore(userId) {
      refused.delete(userId);
    },
    broadcast(sheetId, frame) {
      for (const c of onSheet(sheetId)) send(c, frame);
    },
    holdAcks(userId) {
      ackHeldFor = userId;
    },
    releaseAcks() {
      ackHeldFor = null;
      const kept = heldAcks;
      heldAcks = [];
      for (const sendAck of kept) sendAck();
    },
    closeAll() {
      for (const c of [...connections]) c.socket.destroy();
    },
    restSaved(sheet) {
      replacedAt.set(sheet.id, sheet.version);
      for (const c of onSheet(sheet.id)) send(c, syncFrame(sheet, c));
    },
  };
  return hub;
}
