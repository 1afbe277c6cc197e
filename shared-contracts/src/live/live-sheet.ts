import { moveChart } from '../charts/chart-range.js';
import type { ChartDefinition } from '../charts/chart.schema.js';
import type { CellChange } from '../sheets/sheet.schema.js';
import { CLEAR_TEXTS, type ClearBlock, clearBlocksThrough, inBlock } from './cells-clear.js';
import type { AppliedOperation, LiveOperation, LiveServerFrame, StructureOperationType } from './live.schema.js';
import { SORT_TEXTS } from './rows-sort.js';
import {
  EDIT_DROPPED_TEXT,
  isStructureType,
  type MoveStep,
  type TransformSide,
  type SortStep,
  sortThrough,
  STRUCTURE_DROPPED_TEXT,
  type StructureStep,
  transformCell,
  transformOperation,
} from './transform-position.js';

export type SyncData = Extract<LiveServerFrame, { type: 'sync' }>['data'];
export type StructureOperation = Extract<LiveOperation, { type: StructureOperationType }>;

export interface LiveSheetOptions {
  /** The version the sheet was loaded at. */
  version: number;
  /** Hands an own operation (stamped with its base_version) to the socket (queued there while disconnected). */
  send(operation: LiveOperation): void;
  /** Someone else's cells, to show. */
  applyCells(changes: CellChange[]): void;
  /** Someone else's rows or columns inserted or removed, to show. */
  applyStructure(operation: StructureOperation): void;
  /**
   * The rows sorted (anyone's rows_sort, the own one when its ack brings the order the server
   * applied): the row shown at `order[r]` is shown at r now (rows past the order stay). Without it,
   * a sort makes the grid read the server's sheet again (replace).
   */
  applySort?(order: readonly number[]): void;
  /**
   * A sort applied (anyone's; `own`: the id of the user's own rows_sort, once its ack came), after
   * the grid shows it: `order` as the grid got it, null when it is not known here (no order in the
   * frame, or the grid is repaired from the server's sheet instead). For the user's undo steps.
   */
  onSorted?(sorted: { version: number; own?: string; order: readonly number[] | null }): void;
  /**
   * Someone else's cells_clear (cells-clear.ts), in the grid's terms: the cells of these blocks are
   * empty now, but for those `keep` says (own pending edits: they land after the clear on the
   * server). Also an own pending clear shown again after a sync (`keep` then keeps nothing). Without
   * it, a clear makes the grid read the server's sheet again (replace).
   */
  applyClear?(blocks: ClearBlock[], keep: (row: number, col: number) => boolean): void;
  /**
   * A cells_clear_undo applied (live.schema.ts: the server put back cells of a clear; it does not
   * send their values): the cells of `blocks` (in the grid's terms) are to be read again from the
   * server, at this version or later, with the own pending operations on top. Someone else's names
   * its block; the user's own (`own`: its id, once its ack came) none (null: the ack carries no
   * block; the grid knows what it undid). Without it, the grid is read again whole (replace), as
   * after a sort without its order.
   */
  applyClearUndo?(blocks: ClearBlock[] | null, own?: string): void;
  /** An own cells_clear applied: the version the server gave it (what a cells_clear_undo names). */
  onCleared?(id: string, version: number): void;
  /** An own row or column insert or remove applied: the version the server gave it (what an insert's `undo` names, for a remove). */
  onStructureApplied?(id: string, version: number): void;
  /** An own operation the server refused (after onError with its reason): the user's undo steps may hang on it. */
  onRefused?(id: string): void;
  /**
   * A chart added, changed (null: deleted) by anyone, including an own chart write through REST,
   * in the grid's terms (moved through own row/column operations still pending). Without it a
   * chart frame only advances the version.
   */
  applyChart?(chartId: string, chart: ChartDefinition | null): void;
  /** The server's sheet replaces what is shown (with its cells, unless `windowed`). */
  replace(sync: SyncData): void;
  /**
   * The page reads the sheet a window at a time (its socket says grid 'windowed'): a sync comes
   * without the cells and is applied so. Otherwise a sync without them (the server still took the
   * socket for a windowed page's: the page switched to whole just now) is repaired from fetch(),
   * and so is an insert that undid a remove (`undo`: the server filled it with cells it does not
   * send), anyone's: a windowed page reads its windows again after any row or column op.
   */
  windowed?: boolean;
  /** The version held changed; `at` is the commit time when an own operation was acknowledged. */
  onVersion(version: number, savedAt: string | null): void;
  /** How many own operations wait for the server's acknowledgement. */
  onPending(count: number): void;
  /** An `error` frame: the save error. */
  onError(message: string): void;
  /** The sheet as the server has it now (GET), to repair a grid that drifted from it. */
  fetch(): Promise<SyncData | null>;
}

type Entry =
  /** `order`: an own rows_sort's, as the server applied it. */
  | { kind: 'ack'; id: string; at: string; order?: readonly number[] }
  | { kind: 'op'; operation: AppliedOperation }
  | { kind: 'chart'; chartId: string; chart: ChartDefinition | null };

/** An own operation not settled by the server yet. */
interface Own {
  /** In the terms of the grid shown, after the own operations before it; null once a remote removal took all of it (the server drops it too). */
  operation: LiveOperation | null;
  /** Handed to the socket (with its base_version); false while held back behind an own structure operation in flight. */
  sent: boolean;
  /** Its type as made. */
  made: LiveOperation['type'];
  /**
   * The version it is sent on, when not the one held then: it was not sent yet when a sort without
   * its order came (unsortedRows), so it is in the rows' order before that sort, and the server
   * moves it (through everything after this version); here it is no longer moved.
   */
  base?: number;
}

const RESYNC_ATTEMPTS = 3;
/**
 * Cells handed to the socket in one turn of the page, the rest in the next turns: a whole column
 * of a million rows cleared is a hundred operations whose frames (JSON text of some 36 MB) would
 * hold the page for a second or more if sent at once. Two full operations (CELL_PATCH_MAX_CHANGES each) a turn.
 */
export const SEND_CELLS_PER_TURN = 20_000;
const cellKey = (row: number, col: number) => `${row}:${col}`;

export function cellChangesOf(operation: LiveOperation): CellChange[] | null {
  if (operation.type === 'cell_update') return [{ row: operation.position.row, col: operation.position.column, value: operation.value }];
  if (operation.type === 'cells_update') return operation.changes;
  return null;
}

/** An insert that undoes a remove (live.schema.ts `undo`): the server fills it with cells no frame carries. */
const fillsFromRemove = (operation: { type: string }): boolean => (operation.type === 'rows_insert' || operation.type === 'columns_insert') && (operation as { undo?: number }).undo !== undefined;

const structureOf = (operation: LiveOperation | null): StructureOperation | null =>
  operation !== null && isStructureType(operation.type) ? (operation as StructureOperation) : null;

/**
 * An own pending operation through a remote move. A cells_clear_undo names a version, not cells:
 * the server moves the clear's cells itself, so it stays as it is.
 */
function moveOwn(op: LiveOperation, through: MoveStep, side: TransformSide): LiveOperation | null {
  return op.type === 'cells_clear_undo' ? op : transformOperation(op, through, side).operation;
}

/** The structure change that undoes `op`'s positions (a refused insert: its rows go away again). */
function inverse(op: StructureStep): StructureStep {
  const inverted = { rows_insert: 'rows_remove', rows_remove: 'rows_insert', columns_insert: 'columns_remove', columns_remove: 'columns_insert' } as const;
  return { type: inverted[op.type], index: op.index, count: op.count };
}

/**
 * One client's copy of a live sheet (DESIGN.md § Live collaboration: server-ordered). Own
 * edits are shown at once and sent; the server's frames are applied in version order, each
 * version once: an `ack` ends an own operation, an `operation` is someone else's (or an own
 * one replayed after a lost ack, which counts as its ack).
 *
 * Positions (transform-position.ts): every own operation goes with `base_version`, the version
 * held when it is sent; the server moves it through the rows and columns inserted or removed
 * since. A remote operation is committed before every own one still pending, so it is moved
 * through them before it is shown (a remote write to a cell an own pending operation writes is
 * not shown: the own value follows it on the server too), and the pending ones are moved
 * through it — the grid never shows a value on the wrong row in between, and an own edit whose
 * row was removed is gone here as it will be on the server (whose error frame then only tells).
 *
 * An own operation made after an own structure operation that is still in flight is held back
 * until that one is applied here, then sent on the version that holds it: the server moves an
 * operation through everything after its base, and must not move it through the structure
 * change it was made on. (Cell operations alone never wait.)
 *
 * Where positions cannot be known — a sync that jumps over versions while own operations are
 * in flight, an operation the server refused, a version never received — the grid is marked
 * drifted and replaced with the server's sheet as soon as no own operation is in flight.
 */
export class LiveSheet {
  private held: number;
  /** Own operations not settled yet, in the order made. */
  private readonly own = new Map<string, Own>();
  /** The cells own pending operations hold in the grid shown (cached until `own` changes). */
  private ownCells: Set<string> | null = null;
  /** The blocks own pending clears hold empty in the grid shown (cached until `own` changes). */
  private ownBlocks: ClearBlock[] | null = null;
  /** Frames that came before the version before them. */
  private readonly ahead = new Map<number, Entry>();
  private drifted = false;
  private resyncing = false;
  private resyncAttempts = 0;
  private stopped = false;
  private idle: (() => void)[] = [];
  /** The next turn's sendReady, when one turn's SEND_CELLS_PER_TURN were handed to the socket. */
  private nextTurn: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: LiveSheetOptions) {
    this.held = options.version;
  }

  get version(): number {
    return this.held;
  }

  get pending(): number {
    return this.own.size;
  }

  /**
   * What the own operations still pending hold in the grid shown (replace() shows them again on top
   * of the server's sheet): whether a cell is written by one of them; null when one of them inserts or
   * removes rows or columns (the positions shown are not the server's then).
   */
  ownCellsShown(): ((row: number, col: number) => boolean) | null {
    for (const { operation } of this.own.values()) if (structureOf(operation) !== null) return null;
    const cells = this.cellsHeld();
    return (row, col) => cells.has(cellKey(row, col));
  }

  /** Own operations, already shown in the grid (made on it as it is now). */
  send(operations: readonly LiveOperation[]): void {
    if (this.stopped || operations.length === 0) return;
    for (const operation of operations) this.own.set(operation.id, { operation, sent: false, made: operation.type });
    this.ownChanged();
    this.sendReady();
    this.options.onPending(this.own.size);
  }

  receive(frame: LiveServerFrame): void {
    if (this.stopped) return;
    switch (frame.type) {
      case 'ack':
        if (this.own.has(frame.data.operation_id))
          this.queue(frame.data.version, { kind: 'ack', id: frame.data.operation_id, at: frame.data.timestamp, ...(frame.data.order ? { order: frame.data.order } : {}) });
        return;
      case 'operation': {
        const { version, operation } = frame.data;
        if (this.own.has(operation.id))
          this.queue(version, { kind: 'ack', id: operation.id, at: operation.timestamp, ...(operation.type === 'rows_sort' ? { order: operation.order } : {}) });
        else this.queue(version, { kind: 'op', operation });
        return;
      }
      case 'chart':
        this.queue(frame.data.version, { kind: 'chart', chartId: frame.data.chart_id, chart: frame.data.chart });
        return;
      case 'sync':
        if (frame.data.data === undefined && !this.options.windowed) {
          this.drifted = true;
          this.repairWhenIdle();
          return;
        }
        this.sync(frame.data);
        return;
      case 'error': {
        const id = frame.data.operation_id;
        const refused = id === undefined ? undefined : this.own.get(id);
        this.options.onError(frame.data.message);
        if (id !== undefined && refused) this.refused(id, refused);
        this.repairWhenIdle();
        return;
      }
      default:
        return;
    }
  }

  /** Resolves once every own operation is acknowledged (or refused), or the sheet is closed. */
  whenSaved(): Promise<void> {
    if (this.own.size === 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    if (this.nextTurn !== null) clearTimeout(this.nextTurn);
    this.nextTurn = null;
    this.settle(true);
  }

  /**
   * Hands the held-back own operations to the socket, in order, up to the first one behind an
   * own structure operation in flight: each on the version held now (base_version). At most
   * SEND_CELLS_PER_TURN cells a turn: the others wait for the next turn (still pending here, moved
   * through others' operations as they come, and sent in order on the version held then).
   */
  private sendReady(): void {
    if (this.nextTurn !== null || this.stopped) return;
    let cells = 0;
    for (const [id, entry] of this.own) {
      if (entry.sent) {
        if (structureOf(entry.operation) !== null) return;
        continue;
      }
      const operation = entry.operation;
      if (operation === null) {
        // A remote removal took it before it went: dropped here, as the server would have.
        this.own.delete(id);
        this.ownChanged();
        this.options.onError(isStructureType(entry.made) ? STRUCTURE_DROPPED_TEXT : entry.made === 'cells_clear' ? CLEAR_TEXTS.removed : EDIT_DROPPED_TEXT);
        continue;
      }
      if (cells >= SEND_CELLS_PER_TURN) {
        this.nextTurn = setTimeout(() => {
          this.nextTurn = null;
          this.sendReady();
        }, 0);
        return;
      }
      entry.sent = true;
      cells += cellChangesOf(operation)?.length ?? 1;
      this.options.send({ ...operation, base_version: entry.base ?? this.held });
      if (structureOf(operation) !== null) return;
    }
  }

  /** The server refused an own operation: it never happens there, while the grid shows it. */
  private refused(id: string, entry: Own): void {
    const later = [...this.own.keys()].slice([...this.own.keys()].indexOf(id) + 1);
    this.own.delete(id);
    this.options.onRefused?.(id);
    // A remote removal had taken it already, or it was a sort or a clear's undo (shown only once the server applies it): the grid is right.
    if (entry.operation !== null && entry.made !== 'rows_sort' && entry.made !== 'cells_clear_undo') {
      this.drifted = true;
      // The own operations made after a refused structure change were made on rows that do not exist on the server.
      const structure = structureOf(entry.operation);
      if (structure !== null) {
        const undo = inverse(structure);
        for (const key of later) {
          const other = this.own.get(key);
          if (other?.operation) other.operation = moveOwn(other.operation, undo, 'after');
        }
      }
    }
    this.ownChanged();
    this.sendReady();
    this.options.onPending(this.own.size);
    this.settle();
    // A gap held open for its ack (it never comes now) goes on.
    this.drain();
  }

  private queue(version: number, entry: Entry): void {
    if (version > this.held) {
      this.ahead.set(version, entry);
      this.drain();
      return;
    }
    // Already held: a sync brought a version that includes this own operation before its ack came.
    if (entry.kind === 'ack' && this.own.has(entry.id)) {
      this.applied(entry.id, version);
      this.own.delete(entry.id);
      this.ownChanged();
      this.sendReady();
      this.options.onPending(this.own.size);
      this.settle();
      this.repairWhenIdle();
    }
  }

  private drain(): void {
    let changed = false;
    let savedAt: string | null = null;
    for (;;) {
      const entry = this.ahead.get(this.held + 1);
      if (!entry) {
        if (this.ahead.size === 0) break;
        // A gap: the missing versions may be acks of own operations still on their way. When
        // no own operation can fill it, a version was missed: go on and repair with the server's sheet.
        const acksAhead = [...this.ahead.values()].filter((e) => e.kind === 'ack').length;
        const inFlight = [...this.own.values()].filter((o) => o.sent).length;
        if (inFlight > acksAhead) break;
        this.drifted = true;
        this.held = Math.min(...this.ahead.keys()) - 1;
        continue;
      }
      this.ahead.delete(this.held + 1);
      this.held += 1;
      changed = true;
      if (entry.kind === 'ack') {
        const made = this.own.get(entry.id)?.made;
        const sorted = made === 'rows_sort';
        this.applied(entry.id, this.held);
        this.own.delete(entry.id);
        this.ownChanged();
        savedAt = entry.at;
        // An own sort is shown now, in the order the server gave it (every own operation left was made after it).
        if (sorted) {
          if (entry.order) this.sortRows({ type: 'rows_sort', order: entry.order }, entry.id);
          else this.unsortedRows(entry.id);
        }
        // An own clear's undo: its cells are read again now (every own operation left was made after it).
        if (made === 'cells_clear_undo') this.clearUndone(null, entry.id);
        // Applied: what was held back behind it goes now, on this version.
        this.sendReady();
      } else if (entry.kind === 'chart') {
        this.applyChart(entry.chartId, entry.chart);
      } else {
        this.apply(entry.operation);
      }
    }
    if (changed) {
      this.options.onVersion(this.held, savedAt);
      this.options.onPending(this.own.size);
      this.settle();
    }
    this.repairWhenIdle();
  }

  /**
   * Someone else's operation, committed before every own pending one: moved through them to
   * the grid shown (an own insert at the same index stays after it), while they move through it.
   */
  private apply(operation: AppliedOperation): void {
    if (operation.type === 'rows_sort') {
      if (operation.order) this.sortRows({ type: 'rows_sort', order: operation.order });
      else this.unsortedRows();
      return;
    }
    if (operation.type === 'cells_clear') {
      this.clearRemote(operation);
      return;
    }
    if (operation.type === 'cells_clear_undo') {
      this.clearUndone(this.throughOwnStructure({ rows: operation.rows, columns: operation.columns }));
      return;
    }
    let remote: AppliedOperation | null = operation;
    for (const entry of this.own.values()) {
      if (remote === null) break;
      const mine = entry.operation;
      if (mine === null || entry.base !== undefined) continue;
      if (isStructureType(remote.type)) entry.operation = moveOwn(mine, remote as StructureStep & AppliedOperation, 'after');
      const structure = structureOf(mine);
      if (structure !== null) remote = transformOperation(remote, structure, 'before').operation;
    }
    if (isStructureType(operation.type)) this.ownChanged();
    if (remote === null) return;
    const changes = cellChangesOf(remote);
    if (changes === null) {
      this.options.applyStructure(remote as StructureOperation);
      // Its cells are not in the frame: a grid holding every cell reads the server's sheet once settled.
      if (fillsFromRemove(remote) && !this.options.windowed) this.drifted = true;
      return;
    }
    const mine = this.cellsHeld();
    const cleared = this.blocksHeld();
    const shown =
      mine.size === 0 && cleared.length === 0 ? changes : changes.filter((c) => !mine.has(cellKey(c.row, c.col)) && !cleared.some((b) => inBlock(b, c.row, c.col)));
    if (shown.length > 0) this.options.applyCells(shown);
  }

  /**
   * Someone else's clear, committed before every own pending operation: its block moved through
   * the own rows and columns inserted or removed (the server puts those after it: rows inserted
   * inside it are not cleared, so it may come apart in several blocks), emptied but for the cells
   * own pending edits hold (they land after it).
   */
  private clearRemote(block: ClearBlock): void {
    const blocks = this.throughOwnStructure({ rows: block.rows, columns: block.columns });
    if (blocks === null || blocks.length === 0) return;
    if (this.options.applyClear === undefined) {
      this.drifted = true;
      return;
    }
    const mine = this.cellsHeld();
    this.options.applyClear(blocks, (row, col) => mine.has(cellKey(row, col)));
  }

  /**
   * An own operation acknowledged at `version` (before it leaves `own`): its step in the user's undo
   * may hang on the version; an own insert that undid a remove is read again (the server filled it).
   */
  private applied(id: string, version: number): void {
    const entry = this.own.get(id);
    if (!entry) return;
    if (entry.made === 'cells_clear') this.options.onCleared?.(id, version);
    if (isStructureType(entry.made)) this.options.onStructureApplied?.(id, version);
    if (entry.operation !== null && fillsFromRemove(entry.operation) && !this.options.windowed) this.drifted = true;
  }

  /** A remote block in the grid shown: through the own rows and columns inserted or removed still pending (the server puts them after it). */
  private throughOwnStructure(block: ClearBlock): ClearBlock[] | null {
    let blocks: ClearBlock[] | null = [block];
    for (const entry of this.own.values()) {
      const structure = structureOf(entry.operation);
      if (structure !== null && blocks !== null) blocks = clearBlocksThrough(blocks, [structure], 'before');
    }
    return blocks;
  }

  /**
   * A clear undone (someone's: its block in the grid shown, null when an own row op pending scattered
   * it; the user's own: `own`): its cells are read again, or the grid is once settled (no applyClearUndo).
   */
  private clearUndone(blocks: ClearBlock[] | null, own?: string): void {
    if (blocks !== null && blocks.length === 0) return;
    if (this.options.applyClearUndo === undefined || (blocks === null && own === undefined)) {
      this.drifted = true;
      return;
    }
    this.options.applyClearUndo(blocks, own);
  }

  /**
   * Rows sorted on the server before every own operation still pending: they move through the
   * order (the server moves them so too), and the order through the own rows inserted or removed
   * (sortThrough: where the server will put them), and the grid shows the rows in it. Own rows
   * removed that the sort parted (the server refuses that removal), or a grid without applySort:
   * the grid is repaired from the server's sheet once the own operations are settled.
   */
  private sortRows(sorted: SortStep, own?: string): void {
    let step: SortStep | null = sorted;
    for (const entry of this.own.values()) {
      const mine = entry.operation;
      if (mine === null || entry.base !== undefined) continue;
      if (step !== null) entry.operation = moveOwn(mine, step, 'after');
      // An own clear whose rows the sort scattered: shown cleared here, refused by the server.
      if (mine.type === 'cells_clear' && entry.operation === null) this.drifted = true;
      const structure = structureOf(mine);
      if (structure !== null && step !== null) step = sortThrough(step, structure);
    }
    this.ownChanged();
    if (step === null || this.options.applySort === undefined) this.drifted = true;
    else this.options.applySort(step.order);
    this.options.onSorted?.({ version: this.held, ...(own ? { own } : {}), order: step?.order ?? null });
  }

  /**
   * Rows sorted on the server without their order in the frame (a sheet past
   * SORT_ORDER_SENT_MAX_ROWS rows): the rows shown cannot be moved here, so the grid is repaired
   * from the server's sheet once the own operations are settled (a windowed page reads its windows
   * again). Own operations already sent were sent on a version before the sort: the server moves
   * them. Those not sent yet were made on the rows before it too: they go on the version before
   * it (`base`), and the server moves them — unless one of them follows an own row or column
   * insert or remove (made on rows the server will have moved through the sort first: no way to
   * tell where), which are dropped with SORT_TEXTS.editsDropped.
   */
  private unsortedRows(own?: string): void {
    const before = this.held - 1;
    let behindStructure = false;
    for (const [id, entry] of this.own) {
      if (entry.operation === null) continue;
      if (!entry.sent) {
        if (behindStructure) {
          this.own.delete(id);
          this.options.onError(SORT_TEXTS.editsDropped);
          continue;
        }
        entry.base ??= before;
      }
      if (structureOf(entry.operation) !== null) behindStructure = true;
    }
    this.ownChanged();
    this.drifted = true;
    this.options.onSorted?.({ version: this.held, ...(own ? { own } : {}), order: null });
  }

  /** A chart as the server stored it, moved through the own row/column operations it was committed before. */
  private applyChart(chartId: string, chart: ChartDefinition | null): void {
    let shown = chart;
    for (const entry of this.own.values()) {
      const structure = structureOf(entry.operation);
      if (shown !== null && structure !== null) shown = moveChart(shown, structure);
    }
    this.options.applyChart?.(chartId, shown);
  }

  /** The cells own pending operations hold in the grid shown: each moved through the own structure changes after it. */
  private cellsHeld(): Set<string> {
    if (this.ownCells) return this.ownCells;
    const cells = new Set<string>();
    const entries = [...this.own.values()];
    for (const [i, entry] of entries.entries()) {
      const changes = entry.operation === null ? null : cellChangesOf(entry.operation);
      if (changes === null) continue;
      for (const change of changes) {
        let cell: { row: number; col: number } | null = change;
        for (let k = i + 1; k < entries.length && cell !== null; k++) {
          const later = structureOf(entries[k].operation);
          if (later !== null) cell = transformCell(cell, later);
        }
        if (cell !== null) cells.add(cellKey(cell.row, cell.col));
      }
    }
    this.ownCells = cells;
    return cells;
  }

  /** The blocks own pending clears empty in the grid shown: each moved through the own structure changes after it (which the server puts after it). */
  private blocksHeld(): ClearBlock[] {
    if (this.ownBlocks) return this.ownBlocks;
    const blocks: ClearBlock[] = [];
    const entries = [...this.own.values()];
    for (const [i, entry] of entries.entries()) {
      const op = entry.operation;
      if (op?.type !== 'cells_clear') continue;
      const later = entries.slice(i + 1).flatMap((e) => {
        const structure = structureOf(e.operation);
        return structure === null ? [] : [structure];
      });
      blocks.push(...(clearBlocksThrough([{ rows: op.rows, columns: op.columns }], later, 'before') ?? []));
    }
    this.ownBlocks = blocks;
    return blocks;
  }

  private ownChanged(): void {
    this.ownCells = null;
    this.ownBlocks = null;
  }

  private sync(data: SyncData): void {
    if (data.version < this.held || (data.version === this.held && !this.drifted)) return;
    // Versions not seen one by one may have moved rows under own operations in flight: what the
    // server made of them is only known from its sheet, once they are settled.
    const jumped = data.version > this.held + 1 && [...this.own.values()].some((o) => o.sent && o.operation !== null);
    for (const [version, entry] of this.ahead) {
      if (version > data.version) continue;
      this.ahead.delete(version);
      if (entry.kind !== 'ack') continue;
      this.applied(entry.id, version);
      this.own.delete(entry.id);
    }
    this.ownChanged();
    this.held = data.version;
    this.drifted = jumped;
    this.resyncAttempts = 0;
    this.options.replace(data);
    // Own operations still pending come after this version on the server: show them again on top, in order.
    for (const { operation } of this.own.values()) {
      if (operation === null) continue;
      const changes = cellChangesOf(operation);
      if (changes) this.options.applyCells(changes);
      else if (operation.type === 'cells_clear') this.options.applyClear?.([{ rows: operation.rows, columns: operation.columns }], () => false);
      else if (structureOf(operation) !== null) this.options.applyStructure(operation as StructureOperation);
    }
    this.sendReady();
    this.options.onVersion(this.held, null);
    this.options.onPending(this.own.size);
    this.settle();
    this.drain();
  }

  /** A drifted grid is replaced with the server's sheet once no own operation is in flight. */
  private repairWhenIdle(): void {
    if (!this.drifted || this.own.size > 0 || this.resyncing || this.stopped) return;
    if (this.resyncAttempts >= RESYNC_ATTEMPTS) return;
    this.resyncing = true;
    this.resyncAttempts += 1;
    void this.options.fetch().then(
      (data) => {
        this.resyncing = false;
        if (this.stopped || !data) return;
        this.sync(data);
        // Read before the last versions that arrived: read again.
        this.repairWhenIdle();
      },
      () => {
        this.resyncing = false;
      },
    );
  }

  private settle(always = false): void {
    if (!always && this.own.size > 0) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
