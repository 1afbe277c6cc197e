import type { CellChange, CellValue, ClearBlock, GridData, RowRange, SheetRows, StructureOperationType } from '@tessera/contracts';
import { movedRows, type StructureMove } from './moved-rows.js';
import { columnRows, projectRows, RowWindows } from './row-windows.js';
import { UndoStack } from '../undo/undo-stack.js';
import { sizeAfterEdits } from '../grid/grid-shape.js';

/** Columns [start, start + count) of each row (GET /sheets/:id/rows' col_start and col_count). */
export interface ColumnRange {
  start: number;
  count: number;
}

/**
 * Reads rows [start, start + count) of the sheet (GET /sheets/:id/rows); null when the read failed.
 * With `columns`, each row of the answer holds only those columns (row[k] is column columns.start + k).
 */
export type ReadRows = (start: number, count: number, columns?: ColumnRange) => Promise<SheetRows | null>;

/** Windows read ahead of the rows a filter shows (showRows), beyond those of the rows on screen. */
const SHOW_ROWS_AHEAD_WINDOWS = 4;
/** A read that failed is tried again after this long while its rows are still shown. */
const RETRY_MS = 2_000;
/**
 * Windows read at once for cells(): two keep the api busy while the last answer is parsed, and
 * only one window's reply is in flight per reader (the copies are the memory cells() needs).
 */
const CELLS_READERS = 2;
/** cells() starts again when rows or columns move while it reads; this many times at most. */
const CELLS_ATTEMPTS = 3;
/**
 * Windows columnWindows() holds read but not yet given out, at most (the readers wait): one slow read
 * lets the others run this far ahead, not through the whole sheet.
 */
const WINDOWS_AHEAD = 4;
/** A window read ahead of the session waits this long for the live frames between, then is read again. */
const AHEAD_WAIT_MS = 5_000;

/** Why cells() gave up. */
export const CELLS_UNREADABLE = 'The sheet\'s rows could not be read';

/**
 * A sheet too large to load whole (issue 23), as the session holds it: its size, the windows of
 * rows read so far (RowWindows), and the reads of the windows the grid shows. Others' changes go
 * to the windows; the grid follows through `subscribe`.
 */
export class WindowedSheet {
  readonly windows: RowWindows;
  /** The user's undo and redo steps, at absolute rows: they follow rows and columns moved here, whoever moved them. */
  readonly undo = new UndoStack();
  rowCount: number;
  colCount: number;
  /** Rows or columns moved (inserted, removed, the sheet replaced) so far, the user's or others': a place noted before is still right while this is unchanged. */
  moves = 0;
  /** Windows the grid shows now: read when missing, never dropped. */
  private shown = new Set<number>();
  private readonly reading = new Set<number>();
  /** Windows shown as they were until read again (putBack): a failed read of one is tried again, as of a window missing. */
  private readonly outdated = new Set<number>();
  private readonly listeners = new Set<(reset: boolean, move?: StructureMove) => void>();
  private stopped = false;
  /** Own row or column ops not yet acknowledged: the windows are read again once they are. */
  private ownMoves: StructureMove[] = [];
  /** Someone else moved rows or columns meanwhile: the rows held cannot be moved as the own ops say. */
  private movesUnknown = false;
  /** The rows held before the own ops, at their new places: shown read-only until read again. */
  private moved: ((row: number) => CellValue[] | undefined) | null = null;

  constructor(
    first: SheetRows,
    private readonly read: ReadRows,
  ) {
    this.rowCount = first.row_count;
    this.colCount = first.column_count;
    this.windows = new RowWindows(first.version);
    if (first.start === 0 && (first.data.length === this.windows.size || first.data.length === this.rowCount)) this.windows.arrived(0, first.version, first.data);
  }

  /**
   * Called with `reset` true when rows or columns moved (every row shown is read again), with the
   * move when someone else's row or column op is known (not the user's own: the rows shown moved with it already).
   */
  subscribe(listener: (reset: boolean, move?: StructureMove) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Row `row` as it was before the user's own row or column op (not read again yet), if known: shown read-only. */
  staleRowAt(row: number): CellValue[] | undefined {
    return this.moved?.(row);
  }

  /** Row `row`'s cells when its window is held, else undefined (the grid shows a placeholder). */
  rowAt(row: number): CellValue[] | undefined {
    const index = this.windows.indexOf(row);
    return this.windows.get(index)?.[row - index * this.windows.size];
  }

  /**
   * The grid shows rows [first, last] and may soon show `ahead` rows either side: the windows
   * missing are read, those of the rows shown first (the api answers one read after another).
   */
  show(first: number, last: number, ahead = 0): void {
    const end = Math.max(0, this.rowCount - 1);
    const from = Math.max(0, first - ahead);
    const to = Math.min(last + ahead, end);
    const shown = new Set<number>();
    for (let i = this.windows.indexOf(from); i <= this.windows.indexOf(to); i++) shown.add(i);
    this.shown = shown;
    const now = this.windows.missing(Math.max(0, first), Math.min(last, end));
    for (const index of now) void this.load(index);
    for (const index of this.windows.missing(from, to)) if (!now.includes(index)) void this.load(index);
  }

  /**
   * As show, for the rows a row filter shows (absolute rows, not one span: filtered-rows.ts): the
   * windows holding rows `now` read first, then those of `soon`; the windows of both kept.
   */
  showRows(now: readonly number[], soon: readonly number[]): void {
    const shown = new Set<number>();
    for (const row of now) shown.add(this.windows.indexOf(row));
    // A sparse filter's rows ahead may each be in a window of its own: a few windows more at most, not the sheet.
    const before = shown.size;
    for (const row of soon) {
      if (shown.size - before >= SHOW_ROWS_AHEAD_WINDOWS) break;
      shown.add(this.windows.indexOf(row));
    }
    this.shown = shown;
    // Those of the rows shown first (the set keeps the order they were added in).
    for (const index of shown) if (this.windows.missing(index * this.windows.size, index * this.windows.size).length > 0) void this.load(index);
  }

  /**
   * The sheet's cells now, rows [start, start + count) (all by default), for the chat and the Code
   * tab (SheetReport.loadData): the windows held are copied, the others read (not stored: they
   * would push out the windows shown) and brought to the session's version; every change made
   * while the others are read reaches the copies too, so the whole answer is at the version
   * held when it resolves, own edits included. Rows trimmed to the sheet's columns, as getData().
   * With `columns` (asked again on each attempt: columns may move meanwhile), each row holds only
   * those columns' cells, in that order (projectRows): a whole-column Delete or Copy of a million
   * rows keeps one column of each row, not all of them, from the moment its window arrives (every
   * column asked for, Ctrl+A: the rows as they are). The windows not held are read of those
   * columns only too (their span, GET /sheets/:id/rows' col_start and col_count): a million rows of
   * one column of ten is a tenth of the replies to parse.
   */
  async cells(range?: RowRange, columns?: () => readonly number[]): Promise<GridData> {
    const start = Math.max(0, range?.start ?? 0);
    for (let attempt = 0; attempt < CELLS_ATTEMPTS; attempt++) {
      const end = Math.min(this.rowCount, range ? start + Math.max(0, range.count) : this.rowCount);
      if (end <= start) return [];
      const asked = columns?.();
      // Every column (Ctrl+A): the rows as they are, not copied once more cell by cell.
      const only = asked && !(asked.length === this.colCount && asked.every((col, k) => col === k)) ? asked : undefined;
      const kept = await this.copies(this.windows.indexOf(start), this.windows.indexOf(end - 1), false, only);
      if (!kept) continue;
      const copies = kept.windows;
      const out: GridData = new Array(end - start);
      const cols = this.colCount;
      for (let row = start; row < end; row++) {
        const index = this.windows.indexOf(row);
        const cells = copies.get(index)?.[row - index * this.windows.size] ?? (only ? new Array<CellValue>(only.length).fill(null) : []);
        out[row - start] = !only && cells.length > cols ? cells.slice(0, cols) : cells;
      }
      return out;
    }
    throw new Error(CELLS_UNREADABLE);
  }

  /**
   * The cells of columns `columns()` in rows [start, start + count) (all by default), at the
   * session's version as cells() gives them, but in column form: values[k] holds column cols[k]'s
   * cell of each row, in order. A whole-column Delete of a million rows reads its columns so: each
   * window is turned into one array per column as it arrives (the rows of its reply are garbage at
   * once), instead of a million one-cell row arrays held until the last window is in.
   */
  async columns(range: RowRange | undefined, columns: () => readonly number[]): Promise<{ cols: readonly number[]; values: CellValue[][] }> {
    const start = Math.max(0, range?.start ?? 0);
    for (let attempt = 0; attempt < CELLS_ATTEMPTS; attempt++) {
      const end = Math.min(this.rowCount, range ? start + Math.max(0, range.count) : this.rowCount);
      const cols = columns();
      if (end <= start || cols.length === 0) return { cols, values: cols.map(() => []) };
      const first = this.windows.indexOf(start);
      const last = this.windows.indexOf(end - 1);
      const kept = await this.copies(first, last, false, cols, true);
      if (!kept) continue;
      const size = this.windows.size;
      const values = cols.map(() => [] as CellValue[]);
      for (let k = 0; k < cols.length; k++) {
        const column = values[k];
        for (let index = first; index <= last; index++) {
          const held = kept.windows.get(index)?.[k];
          const from = Math.max(start, index * size);
          const to = Math.min(end, (index + 1) * size);
          for (let row = from; row < to; row++) column.push(held?.[row - index * size] ?? null);
        }
      }
      return { cols, values };
    }
    throw new Error(CELLS_UNREADABLE);
  }

  /**
   * columns()' cells given out a window at a time, in row order, as soon as the windows before it
   * are in (`onWindow(values, from)`: values[k][i] is column cols[k] of row from + i; it may be
   * async: the next waits for it), then let go: a Copy of a million rows turns each into its text
   * (copy-columns.ts) and never holds every row's values. Windows are read by CELLS_READERS at once;
   * at most WINDOWS_AHEAD read ones wait for an earlier one. A window given out is at the session's
   * version then (later changes do not reach it). When rows or columns move meanwhile, `restart()`
   * is called (what was given out is to be dropped) and every window is given out again, up to
   * CELLS_ATTEMPTS times. Resolves with the columns read; rejects as columns() does, or with what
   * onWindow threw (no window is read after it).
   */
  async columnWindows(
    range: RowRange | undefined,
    columns: () => readonly number[],
    onWindow: (values: CellValue[][], from: number) => void | Promise<void>,
    restart: () => void,
  ): Promise<readonly number[]> {
    const start = Math.max(0, range?.start ?? 0);
    for (let attempt = 0; attempt < CELLS_ATTEMPTS; attempt++) {
      if (attempt > 0) restart();
      const end = Math.min(this.rowCount, range ? start + Math.max(0, range.count) : this.rowCount);
      const cols = columns();
      if (end <= start || cols.length === 0) return cols;
      const size = this.windows.size;
      const done = await this.inOrder(this.windows.indexOf(start), this.windows.indexOf(end - 1), cols, (index, window) => {
        const from = Math.max(start, index * size);
        const to = Math.min(end, (index + 1) * size);
        const count = to - from;
        // Each column cut to the range's rows, as long as they are (a row missing from a reply is empty).
        const values = window.map((column) => {
          const cut = column.length === count && from === index * size ? column : column.slice(from - index * size, to - index * size);
          while (cut.length < count) cut.push(null);
          return cut;
        });
        return onWindow(values, from);
      });
      if (done) return cols;
    }
    throw new Error(CELLS_UNREADABLE);
  }

  /**
   * Windows first..last of columns `cols` (column form) given to `deliver` in order, each followed
   * (at the session's version) until given; false when rows or columns moved meanwhile.
   */
  private async inOrder(first: number, last: number, cols: readonly number[], deliver: (index: number, window: GridData) => void | Promise<void>): Promise<boolean> {
    const copies = new Map<number, GridData>();
    let moved = false;
    let failed = false;
    /** Readers waiting for room (WINDOWS_AHEAD), woken each time a window is given out (or the read ends). */
    let waiting: (() => void)[] = [];
    const wake = () => {
      const woken = waiting;
      waiting = [];
      for (const resolve of woken) resolve();
    };
    const stop = this.windows.follow(
      copies,
      () => {
        moved = true;
        wake();
      },
      cols,
      true,
    );
    /** The next window to give out, and the next one a reader takes. */
    let next = first;
    let taken = first;
    // One giving-out at a time (both readers may bring the window it waits for).
    let giving: Promise<void> = Promise.resolve();
    const give = async () => {
      while (!moved && !failed && copies.has(next)) {
        const window = copies.get(next)!;
        copies.delete(next);
        await deliver(next, window);
        next++;
        wake();
      }
    };
    const reader = async () => {
      while (!moved && !failed && taken <= last) {
        if (taken - next >= WINDOWS_AHEAD) {
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        const index = taken++;
        // A window held is copied when its turn comes (at the session's version then); the others read.
        const held = this.windows.peek(index);
        const window = held ? columnRows(held, cols) : await this.readNow(index, () => moved || failed, cols).then((rows) => rows && columnRows(rows, cols.map((_, k) => k)));
        if (!window || moved || failed) continue;
        copies.set(index, window);
        // Given out meanwhile: the reader goes on to its next window (WINDOWS_AHEAD bounds how far).
        giving = giving.then(give);
        giving.catch(() => {
          failed = true;
          wake();
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(CELLS_READERS, last - first + 1) }, () => reader().catch((error: unknown) => {
        failed = true;
        wake();
        throw error;
      })));
      // The last windows given out (or what `deliver` threw).
      await giving;
      return !moved;
    } finally {
      failed = true;
      wake();
      stop();
    }
  }

  /**
   * Rows [start, end) kept at the session's version for as long as something reads them (a chart's
   * range, issue 23): copies of their windows (those held copied, the others read and not stored, as
   * cells() does), which every cell change then reaches, own and others', as it reaches the windows.
   * `onRows` gets them (a row not there is undefined) once read, and again each time rows or columns
   * moved or the sheet was replaced: they are read again then — after the user's own row or column
   * ops are on the server (until then the windows held are of before them). A read that fails is
   * tried again after RETRY_MS. Returns the function that stops it.
   */
  keep(start: number, end: number, onRows: (rowAt: (row: number) => CellValue[] | undefined) => void): () => void {
    // Each read's number: a read overtaken by a later one (rows moved again) is dropped.
    let generation = 0;
    let stopFollowing = () => {};
    let retry: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const mine = ++generation;
      stopFollowing();
      stopFollowing = () => {};
      clearTimeout(retry);
      // The reset once the server has them reads again (subscribe below).
      if (this.ownMoves.length > 0 || this.stopped) return;
      const last = Math.min(end, this.rowCount) - 1;
      if (last < start) return onRows(() => undefined);
      try {
        const kept = await this.copies(this.windows.indexOf(start), this.windows.indexOf(last), true);
        if (mine !== generation || this.stopped || !kept) {
          kept?.stop();
          return;
        }
        stopFollowing = kept.stop;
        const size = this.windows.size;
        onRows((row) => kept.windows.get(Math.floor(row / size))?.[row % size]);
      } catch {
        if (mine === generation) retry = setTimeout(() => mine === generation && void read(), RETRY_MS);
      }
    };
    const unsubscribe = this.subscribe((reset) => {
      if (reset) void read();
    });
    void read();
    return () => {
      generation++;
      clearTimeout(retry);
      unsubscribe();
      stopFollowing();
    };
  }

  /**
   * Windows first..last at the session's version, kept there until they are all in (with `keep`,
   * until `stop` is called); null when rows or columns moved meanwhile. With `cols`, of those
   * columns only (projectRows), cut as each window arrives.
   */
  private async copies(first: number, last: number, keep = false, cols?: readonly number[], columnar = false): Promise<{ windows: Map<number, GridData>; stop(): void } | null> {
    const copies = new Map<number, GridData>();
    let moved = false;
    const stop = this.windows.follow(
      copies,
      () => {
        moved = true;
      },
      cols,
      columnar,
    );
    // Column form (columns()): one array per column of each window (RowWindows columnRows).
    const shape = (rows: GridData, projected: boolean) => (columnar && cols ? columnRows(rows, projected ? cols.map((_, k) => k) : cols) : rows);
    let kept = false;
    try {
      const toRead: number[] = [];
      for (let index = first; index <= last; index++) {
        const held = this.windows.peek(index);
        if (held) copies.set(index, columnar && cols ? columnRows(held, cols) : cols ? projectRows(held, cols) : held.map((row) => row.slice()));
        else toRead.push(index);
      }
      const reader = async () => {
        for (let index = toRead.shift(); index !== undefined && !moved; index = toRead.shift()) {
          // Read of `cols` only: the rows come projected.
          const rows = await this.readNow(index, () => moved, cols);
          if (rows && !moved) copies.set(index, shape(rows, true));
        }
      };
      await Promise.all(Array.from({ length: Math.min(CELLS_READERS, toRead.length) }, reader));
      if (moved) return null;
      kept = keep;
      return { windows: copies, stop };
    } finally {
      if (!kept) stop();
    }
  }

  /**
   * Window `index` read and brought to the session's version (null: rows moved meanwhile); with
   * `cols`, only the span of those columns is read, and the rows come projected to them (projectRows).
   */
  private async readNow(index: number, moved: () => boolean, cols?: readonly number[]): Promise<GridData | null> {
    const size = this.windows.size;
    const span = cols && cols.length > 0 ? columnSpan(cols) : undefined;
    for (let tries = 0; tries < CELLS_ATTEMPTS; tries++) {
      if (this.stopped) break;
      const answer = await this.read(index * size, size, span);
      if (!answer) throw new Error(CELLS_UNREADABLE);
      if (moved()) return null;
      // A reader that gave whole rows (col_start absent) is projected as whole rows are.
      const data = cols ? projectRows(answer.data, span && answer.col_start === span.start ? cols.map((col) => col - span.start) : cols) : answer.data;
      let rows = this.windows.catchUp(index, answer.version, data, cols);
      if (rows === 'ahead') {
        await this.reached(answer.version);
        if (moved()) return null;
        rows = this.windows.catchUp(index, answer.version, data, cols);
      }
      if (rows !== 'ahead' && rows !== 'stale') return rows;
    }
    throw new Error(CELLS_UNREADABLE);
  }

  /** Resolves once the session is at `version` (the live frames between arrived), or after AHEAD_WAIT_MS. */
  private reached(version: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, AHEAD_WAIT_MS);
      const unsubscribe = this.subscribe(() => {
        if (this.windows.version >= version) done();
      });
    });
  }

  /** Own edits (already in the rows the grid edits in place). */
  ownEdits(changes: readonly CellChange[]): void {
    this.windows.applyOwn(changes);
    this.grow(changes);
  }

  /**
   * Cells written past the last column or row (a paste's right or bottom end, own or another user's)
   * make the sheet larger, as the server makes it: the grid shows the new columns and rows.
   */
  private grow(changes: readonly CellChange[]): void {
    const size = sizeAfterEdits({ rows: this.rowCount, cols: this.colCount }, changes);
    this.colCount = size.cols;
    this.rowCount = size.rows;
  }

  /**
   * Own cells written outside the grid's rows (an undo of cells the grid does not show): into the
   * rows held, as the grid writes the ones it shows; a row not held shows them once read (the
   * session's ownEdits logs them for a window read before the server has them).
   */
  writeOwn(changes: readonly CellChange[]): void {
    this.windows.writeHeld(changes);
  }

  /** Every own edit acknowledged: windows read before an own row or column op are read again. */
  ownSaved(): void {
    this.windows.ownSaved();
    if (this.ownMoves.length > 0) {
      this.moved = this.movesUnknown ? null : movedRows(this.windows.atVersion(), this.windows.size, this.ownMoves);
      this.ownMoves = [];
      this.movesUnknown = false;
      this.reload(this.windows.version);
    }
  }

  /**
   * Own rows or columns inserted or removed (sent as the op `id`): the size changes now; the rows
   * held move once the server has the op (ownSaved): a read answered after it has them moved, and
   * is held until the session reaches its version — an insert that undoes a remove (`undo`) shows
   * the cells the server put back so.
   */
  ownStructure(type: StructureOperationType, index: number, count: number, id: string): void {
    const move = { type, index, count };
    // The steps before it move; then it is a step itself. A remove is undone by the server (by its
    // version): the cells it takes are not read from every row first (half a minute for a column of a million).
    this.undo.own(move, { id });
    this.moves++;
    this.resize(type, count);
    this.ownMoves.push(move);
  }


  /** Told of others' cells before the grid redraws (a row filter judges their rows again). */
  othersCells: ((changes: readonly CellChange[]) => void) | null = null;

  /** Others' cells, at `version`. */
  remoteCells(version: number, changes: readonly CellChange[]): void {
    this.windows.applyRemote(version, changes);
    this.grow(changes);
    this.othersCells?.(changes);
    this.notify(false);
  }

  /**
   * An own clear (a cells_clear sent: clear-columns.ts): the windows held, and copies being read,
   * show its cells empty now; a window read before the server has it is brought to it (the log keeps
   * the block, one entry however many rows).
   */
  ownClear(block: ClearBlock): void {
    this.windows.applyOwnClear([block]);
  }

  /** Someone else's clear, at `version`: the blocks' cells empty, but those `keep` says (own edits on their way). */
  remoteClear(version: number, blocks: readonly ClearBlock[], keep: (row: number, col: number) => boolean): void {
    this.windows.applyRemoteClear(version, blocks, keep);
    this.notify(false);
  }

  /**
   * Cells the server put back at `version` (a clear undone: cells_clear_undo, its values not sent)
   * in `blocks` (null: where is not known): the windows shown of them are read again (shown as they
   * were meanwhile), the others held go; own edits on their way stay on top (the log replays them).
   */
  putBack(version: number, blocks: readonly ClearBlock[] | null): void {
    for (const index of this.windows.applyUnknown(version, blocks, this.shown)) {
      this.outdated.add(index);
      void this.load(index);
    }
    this.notify(false);
  }

  /** Rows or columns inserted or removed by someone, at `version`: the size changes, every window is read again. */
  remoteStructure(version: number, type: StructureOperationType, index: number, count: number): void {
    this.resize(type, count);
    this.undo.moved({ type, index, count });
    this.othersMoved();
    this.reload(version, { type, index, count });
  }

  /** Rows moved other than by the user's own ops: what was held is not shown any more. */
  private othersMoved(): void {
    this.moves++;
    this.moved = null;
    if (this.ownMoves.length > 0) this.movesUnknown = true;
  }

  private resize(type: StructureOperationType, count: number): void {
    if (type === 'rows_insert') this.rowCount += count;
    else if (type === 'rows_remove') this.rowCount = Math.max(0, this.rowCount - count);
    else if (type === 'columns_insert') this.colCount += count;
    else this.colCount = Math.max(0, this.colCount - count);
  }

  /** The server's sheet replaces what is shown (a sync): read again from `version`, of `rowCount` rows. */
  replace(version: number, rowCount: number, colCount: number): void {
    this.rowCount = rowCount;
    this.colCount = colCount;
    this.othersMoved();
    this.reload(version);
  }

  /** The session's version moved (an own edit acknowledged, a chart): windows read ahead of it are shown now. */
  advance(version: number): void {
    const before = this.windows.version;
    this.windows.advance(version, this.shown);
    if (this.windows.version !== before) this.notify(false);
  }

  stop(): void {
    this.stopped = true;
    this.moved = null;
    this.listeners.clear();
  }

  private reload(version: number, move?: StructureMove): void {
    this.outdated.clear();
    this.windows.reset(version);
    this.notify(true, move);
    for (const index of this.shown) void this.load(index);
  }

  private async load(index: number): Promise<void> {
    if (this.reading.has(index) || this.stopped) return;
    this.reading.add(index);
    const size = this.windows.size;
    let answer: SheetRows | null = null;
    try {
      answer = await this.read(index * size, size);
    } finally {
      this.reading.delete(index);
    }
    if (this.stopped) return;
    if (!answer) {
      setTimeout(() => this.shown.has(index) && (!this.windows.has(index) || this.outdated.has(index)) && void this.load(index), RETRY_MS);
      return;
    }
    const arrival = this.windows.arrived(index, answer.version, answer.data, this.shown);
    if (arrival === 'stale') {
      // Read before rows moved: read again at the version held now.
      if (this.shown.has(index)) void this.load(index);
      return;
    }
    if (arrival === 'stored') {
      this.outdated.delete(index);
      this.notify(false);
    }
  }

  private notify(reset: boolean, move?: StructureMove): void {
    for (const listener of this.listeners) listener(reset, move);
  }
}

/** The columns from the first of `cols` to the last (a read of them takes their span). */
function columnSpan(cols: readonly number[]): ColumnRange {
  const first = Math.min(...cols);
  return { start: first, count: Math.max(...cols) - first + 1 };
}
