import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { WebSocket } from '@fastify/websocket';
import {
  applyOrder,
  LiveServerFrameSchema,
  type LiveServerFrame,
  type LiveGrid,
  type GridData,
  type CellValue,
  type WorkspaceServerFrame,
  WorkspaceServerFrameSchema,
} from '@tessera/contracts';
import type { FastifyInstance } from 'fastify';
import { widthOf } from '../src/sheets/cell-grid.js';
import type { StoredClearOp, StoredClearUndoOp, StoredStructureOp } from '../src/sheets/sheet-ops.tables.js';
import { restructure } from '../src/sheets/structure-op.js';

// `ws` is not a direct dependency of the api: load the copy @fastify/websocket itself uses.
const require = createRequire(import.meta.url);
type WsConstructor = new (url: string, protocols?: string | string[], options?: { autoPong?: boolean }) => WebSocket;
const { WebSocket: Ws } = createRequire(require.resolve('@fastify/websocket'))('ws') as { WebSocket: WsConstructor };

/** A hang guard for waits, not a timing assertion: a frame that never comes fails the test with a message. */
const WAIT_GUARD_MS = 20_000;

export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface Closed {
  code: number;
  reason: string;
}

/** A test client of a socket: records every frame (validated with the contracts' schema `F` of that socket) and the close. */
export class FrameClient<F extends { type: string }> {
  readonly frames: F[] = [];
  /** WebSocket messages received: the server sends the frames of one tick as one message (an array). */
  messages = 0;
  readonly closed: Promise<Closed>;
  readonly opened: Promise<boolean>;
  #waiters = new Set<() => void>();
  #closedWith: Closed | undefined;

  constructor(
    readonly socket: WebSocket,
    readonly label: string,
    schema: { parse(frame: unknown): F },
  ) {
    socket.on('message', (data: Buffer) => {
      // Frames of one server tick may come as one message holding an array of frames.
      const message: unknown = JSON.parse(data.toString('utf8'));
      this.messages += 1;
      for (const frame of Array.isArray(message) ? message : [message]) this.frames.push(schema.parse(frame));
      this.#wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code: number, reason: Buffer) => {
        this.#closedWith = { code, reason: reason.toString('utf8') };
        resolve(this.#closedWith);
        this.#wake();
      }),
    );
    this.opened = new Promise((resolve) => {
      socket.on('open', () => resolve(true));
      socket.on('error', () => resolve(false));
    });
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  #wake() {
    for (const w of [...this.#waiters]) w();
  }

  /** Waits until `pick` finds something in the frames from index `from` on. */
  async waitFor<T>(pick: (frames: F[]) => T | undefined, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = pick(this.frames);
        if (found !== undefined) {
          done();
          resolve(found);
        } else if (this.#closedWith) {
          done();
          reject(new Error(`${this.label}: closed (${this.#closedWith.code} ${this.#closedWith.reason}) while waiting for ${what}`));
        }
      };
      const guard = setTimeout(() => {
        done();
        reject(new Error(`${this.label}: no ${what}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`));
      }, WAIT_GUARD_MS);
      const done = () => {
        clearTimeout(guard);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  #cursor = 0;

  /** The next frame of this type after the ones already taken with next(). */
  async next<K extends F['type']>(type: K, match: (f: Extract<F, { type: K }>) => boolean = () => true) {
    const frame = await this.waitFor((frames) => {
      for (let i = this.#cursor; i < frames.length; i++) {
        const f = frames[i];
        if (f.type === type && match(f as Extract<F, { type: K }>)) return { f: f as Extract<F, { type: K }>, i };
      }
      return undefined;
    }, `a ${type} frame`);
    this.#cursor = frame.i + 1;
    return frame.f;
  }

  /** Frames received after the given count (for "nothing else came in between" checks). */
  since(count: number): F[] {
    return this.frames.slice(count);
  }

  close(): Promise<Closed> {
    this.socket.close();
    return this.closed;
  }
}

/** A test client of the live sheet socket. */
export class LiveClient extends FrameClient<LiveServerFrame> {
  constructor(socket: WebSocket, label: string) {
    super(socket, label, LiveServerFrameSchema);
  }

  static connect(base: string, path: string, opts: { protocols?: string[]; autoPong?: boolean; label?: string } = {}): LiveClient {
    return new LiveClient(new Ws(`${base}${path}`, opts.protocols, { autoPong: opts.autoPong ?? true }), opts.label ?? path);
  }

  /** Connects and waits for the presence frame (sent once the socket is authenticated and joined). */
  static async join(base: string, sheetId: string, token: string, opts: { since?: number; label?: string; autoPong?: boolean; grid?: LiveGrid } = {}) {
    const since = opts.since === undefined ? '' : `&since=${opts.since}`;
    const grid = opts.grid === undefined ? '' : `&grid=${opts.grid}`;
    const client = LiveClient.connect(base, `/sheets/${sheetId}?token=${encodeURIComponent(token)}${since}${grid}`, opts);
    await client.next('presence');
    // Every join is told the member's level right after presence.
    await client.next('access');
    return client;
  }
}

/** A test client of the workspace socket `/live`. */
export class WorkspaceClient extends FrameClient<WorkspaceServerFrame> {
  static connect(base: string, path: string, opts: { protocols?: string[]; autoPong?: boolean; label?: string } = {}): WorkspaceClient {
    return new WorkspaceClient(new Ws(`${base}${path}`, opts.protocols, { autoPong: opts.autoPong ?? true }), opts.label ?? path, WorkspaceServerFrameSchema);
  }

  /** Connects with `?token=` and waits for the `online` frame (sent once the socket is authenticated and joined). */
  static async join(base: string, token: string, opts: { label?: string; autoPong?: boolean } = {}) {
    const client = WorkspaceClient.connect(base, `/live?token=${encodeURIComponent(token)}`, opts);
    await client.next('online');
    return client;
  }
}

/** Applies cell changes the way the server does (rows grow as empty rows, a row pads with '' up to the column). */
export function applyChanges(grid: GridData, changes: { row: number; col: number; value: CellValue }[]): void {
  for (const c of changes) {
    while (grid.length <= c.row) grid.push([]);
    const row = grid[c.row];
    while (row.length < c.col) row.push('');
    row[c.col] = c.value;
  }
}

/** What one version does to a replica: cell changes, or rows / columns inserted or removed (as the server does it). */
export type ReplicaStep = { row: number; col: number; value: CellValue }[] | StoredStructureOp | { type: 'rows_sort'; order: number[] } | StoredClearOp | StoredClearUndoOp;

/**
 * The cells of a block as the server holds them at a version (rows × columns of the block): what a
 * replica reads again for a cells_clear_undo, whose frames carry the block, not the values.
 */
export type BlockReader = (version: number, block: { rows: { start: number; count: number }; columns: { start: number; count: number } }) => GridData;

/** A block emptied as the server does it (cells past a row's end stay absent). */
export function applyClearBlock(grid: GridData, { rows, columns }: StoredClearOp): void {
  for (let r = rows.start; r < Math.min(rows.start + rows.count, grid.length); r++)
    for (let c = columns.start; c < Math.min(columns.start + columns.count, grid[r].length); c++) grid[r][c] = null;
}

/**
 * A client's copy of the sheet: the grid it loaded at `version`, then every operation it
 * received (others' ops, and its own ops when acked), applied in version order.
 */
export class Replica {
  readonly pending = new Map<number, ReplicaStep>();
  readonly sent = new Map<string, ReplicaStep>();

  constructor(
    public grid: GridData,
    public version: number,
    /** For a cells_clear_undo: the block's cells read again (the test reads them from the server first). */
    private readonly reread?: BlockReader,
  ) {}

  /** Feeds every operation, ack and sync frame of the client. */
  absorb(frames: LiveServerFrame[]): void {
    for (const f of frames) {
      if (f.type === 'operation') {
        const op = f.data.operation;
        this.pending.set(
          f.data.version,
          op.type === 'cell_update'
            ? [{ row: op.position.row, col: op.position.column, value: op.value }]
            : op.type === 'cells_update'
              ? op.changes
              : op.type === 'rows_sort'
                ? { type: 'rows_sort', order: op.order ?? [] }
                : op,
        );
      } else if (f.type === 'ack') {
        const changes = this.sent.get(f.data.operation_id);
        if (f.data.order) this.pending.set(f.data.version, { type: 'rows_sort', order: f.data.order });
        else if (changes) this.pending.set(f.data.version, changes);
      } else if (f.type === 'sync' && f.data.version >= this.version) {
        // The test sockets hold the grid whole: their syncs carry it.
        this.grid = structuredClone(f.data.data ?? []);
        this.version = f.data.version;
      }
    }
    while (this.pending.has(this.version + 1)) {
      const step = this.pending.get(this.version + 1)!;
      if (Array.isArray(step)) applyChanges(this.grid, step);
      else if (step.type === 'rows_sort') this.grid = applyOrder(this.grid, step.order);
      else if (step.type === 'cells_clear') applyClearBlock(this.grid, step);
      else if (step.type === 'cells_clear_undo') {
        if (!this.reread) throw new Error(`A replica cannot apply the cells_clear_undo of version ${this.version + 1} without reading its block again`);
        const values = this.reread(this.version + 1, step);
        for (const [i, row] of values.entries()) for (const [j, value] of row.entries()) applyChanges(this.grid, [{ row: step.rows.start + i, col: step.columns.start + j, value }]);
      } else {
        const width = widthOf(this.grid);
        restructure(this.grid, [], width, step);
        // An insert undoing a remove: the server filled its new rows (columns); the replica reads them again.
        if (step.undo !== undefined && (step.type === 'rows_insert' || step.type === 'columns_insert')) {
          if (!this.reread) throw new Error(`A replica cannot apply the insert undoing a remove of version ${this.version + 1} without reading it again`);
          const block =
            step.type === 'rows_insert'
              ? { rows: { start: step.index, count: step.count }, columns: { start: 0, count: width } }
              : { rows: { start: 0, count: this.grid.length }, columns: { start: step.index, count: step.count } };
          const values = this.reread(this.version + 1, block);
          for (const [i, row] of values.entries()) for (const [j, value] of row.entries()) applyChanges(this.grid, [{ row: block.rows.start + i, col: block.columns.start + j, value }]);
        }
      }
      this.pending.delete(this.version + 1);
      this.version += 1;
    }
  }
}
