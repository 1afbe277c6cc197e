import { SHEET_ROWS_WINDOW_MAX, type CellChange, type CellValue, type ClearBlock, type GridData } from '@tessera/contracts';

/** Rows per window: the most one GET /sheets/:id/rows answers. */
export const ROW_WINDOW_SIZE = SHEET_ROWS_WINDOW_MAX;
/** Windows kept (least recently used dropped first): 40 × 5,000 rows of 10 columns is a few tens of MB. */
export const ROW_WINDOW_CAPACITY = 40;
/** Cell changes remembered to bring a window read at an older version up to date (beyond: read it again). */
const LOG_MAX_ENTRIES = 5_000;
/**
 * Cells the log may still hold once the server has every own edit: past it (a whole column of a
 * million rows cleared is a million changes, some 30 MB kept after the Delete is saved) it is let
 * go, and a window read before then is read again instead (stale).
 */
export const LOG_MAX_CELLS_SAVED = 100_000;

/** What became of a window that arrived. */
export type WindowArrival = 'stored' | 'held' | 'stale';

/** Copies of windows kept at the session's version by every change after they were taken (see follow()). */
interface Follower {
  windows: Map<number, GridData>;
  onReset(): void;
  /** Copies of some columns only (projected): the sheet's column → its place in the copies' rows. */
  cols?: ReadonlyMap<number, number>;
  /**
   * The copies are in column form (columnRows): copy[place][rowInWindow], one array per column, not
   * one per row — a million rows of one column are a few arrays, not a million (with `cols` only).
   */
  columnar?: boolean;
}

/**
 * Rows cut to columns `cols`, in column form: out[k][r] is row r's cell of column cols[k] (see
 * Follower.columnar). A whole column's Delete of a million rows holds its values so while it reads.
 */
export function columnRows(rows: GridData, cols: readonly number[]): GridData {
  return cols.map((col) => {
    const values: CellValue[] = [];
    for (let r = 0; r < rows.length; r++) values.push(rows[r]?.[col] ?? null);
    return values;
  });
}

/**
 * Rows cut to columns `cols` (a whole-column Delete or Copy of a million rows needs those only: the
 * others would be most of the tab's memory): each row holds the cells of `cols`, in that order.
 */
export function projectRows(rows: GridData, cols: readonly number[]): GridData {
  const out: GridData = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const cells = rows[r] ?? [];
    const row: CellValue[] = new Array(cols.length);
    for (let k = 0; k < cols.length; k++) row[k] = cells[cols[k]] ?? null;
    out[r] = row;
  }
  return out;
}

interface LogEntry {
  /** A remote change: the version it made. An own edit: the version held when it was made. */
  version: number;
  own: boolean;
  /** An own edit: the version by which the server had it (known once no own edit is pending); null while pending. */
  savedBy: number | null;
  changes: readonly CellChange[];
  /**
   * A block cleared (a cells_clear: one entry however many cells, so a whole column cleared keeps
   * the log small): its cells empty but those `keep` says (own edits pending when someone else's
   * clear came: they land after it on the server). `changes` is empty then.
   */
  clear?: { blocks: readonly ClearBlock[]; keep: (row: number, col: number) => boolean };
  /**
   * Cells the server wrote without sending them (a cells_clear_undo: the cells of a clear put back)
   * in these blocks (null: anywhere): a window of them read before this version cannot be brought
   * up to date (stale), it is read again. `changes` is empty then.
   */
  unknown?: readonly ClearBlock[] | null;
}

const keepNone = () => false;

/**
 * The rows of a windowed sheet that the client holds (issue 23): absolute row → fixed windows of
 * ROW_WINDOW_SIZE rows, each exactly the rows of the session's version. A window that arrives was
 * read at some version w while the session is at v:
 * - w = v: stored as it is;
 * - w > v: held until the session reaches w (the live frames between are on their way);
 * - w < v: brought up to v with the cell changes logged since w (others' changes after w, own edits
 *   the server may not have had at w); 'stale' when the log does not reach back to w or a row or
 *   column was inserted or removed since (the caller reads it again).
 * Own edits change the row arrays in place (the grid edits them); others' changes are applied here.
 */
export class RowWindows {
  private readonly windows = new Map<number, GridData>();
  private readonly held = new Map<number, { version: number; rows: GridData }>();
  private log: LogEntry[] = [];
  private readonly followers = new Set<Follower>();
  /** Every remote change after this version is in the log. */
  private loggedFrom: number;
  private current: number;

  constructor(
    version: number,
    readonly capacity = ROW_WINDOW_CAPACITY,
    readonly size = ROW_WINDOW_SIZE,
  ) {
    this.current = version;
    this.loggedFrom = version;
  }

  get version(): number {
    return this.current;
  }

  indexOf(row: number): number {
    return Math.floor(row / this.size);
  }

  /** The window's rows at the session's version, if held (and marked recently used). */
  get(index: number): GridData | undefined {
    const rows = this.windows.get(index);
    if (rows) {
      this.windows.delete(index);
      this.windows.set(index, rows);
    }
    return rows;
  }

  /** The window's rows at the session's version, if held, without marking it used (a copy is being taken). */
  peek(index: number): GridData | undefined {
    return this.windows.get(index);
  }

  /**
   * A window read at `version`, brought to the session's version like arrived() does but not
   * stored (the whole sheet read for the chat would push the windows shown out): its rows, or
   * 'ahead' (read at a version the session has not reached) or 'stale' (read it again). With
   * `cols`, the rows are of those columns only (projectRows) and so are the changes brought to them.
   */
  catchUp(index: number, version: number, rows: GridData, cols?: readonly number[]): GridData | 'ahead' | 'stale' {
    if (version > this.current) return 'ahead';
    if (version < this.current && (version < this.loggedFrom || this.unknownSince(index, version))) return 'stale';
    // At the version held too: own edits on their way are not in it.
    this.replay(index, rows, version, cols && new Map(cols.map((col, k) => [col, k])));
    return rows;
  }

  /**
   * `windows` (copies taken at the session's version) receive every cell change from now on, own
   * and others', so they stay at the session's version; `onReset` when rows or columns moved (the
   * copies are no longer the sheet's rows). With `cols`, the copies are of those columns only
   * (projectRows): a change to another column is not theirs. Returns the function that stops it.
   */
  follow(windows: Map<number, GridData>, onReset: () => void, cols?: readonly number[], columnar = false): () => void {
    const follower: Follower = { windows, onReset, cols: cols && new Map(cols.map((col, k) => [col, k])), columnar: columnar && cols !== undefined };
    this.followers.add(follower);
    return () => this.followers.delete(follower);
  }

  has(index: number): boolean {
    return this.windows.has(index) || this.held.has(index);
  }

  /** The window indexes covering rows [first, last] that are neither stored nor held. */
  missing(first: number, last: number): number[] {
    const out: number[] = [];
    for (let i = this.indexOf(Math.max(0, first)); i <= this.indexOf(Math.max(0, last)); i++) if (!this.has(i)) out.push(i);
    return out;
  }

  /** A window read at `version`; `keep`: windows that must stay however old (the ones shown). */
  arrived(index: number, version: number, rows: GridData, keep: ReadonlySet<number> = new Set()): WindowArrival {
    if (version > this.current) {
      this.held.set(index, { version, rows });
      return 'held';
    }
    if (version < this.current && (version < this.loggedFrom || this.unknownSince(index, version))) return 'stale';
    // At the version held too: own edits on their way are not in it (a window read again after a clear's cells were put back).
    this.replay(index, rows, version);
    this.held.delete(index);
    this.windows.set(index, rows);
    this.evict(keep);
    return 'stored';
  }

  /** Others' cells at `version` (the session's version now). */
  applyRemote(version: number, changes: readonly CellChange[]): void {
    this.record({ version, own: false, savedBy: null, changes });
    this.write(changes, this.windows);
    for (const follower of this.followers) this.write(changes, follower.windows, follower.cols, follower.columnar);
    this.advance(version);
  }

  /** Someone else's clear at `version` (the session's version now): the blocks' cells held emptied, but those `keep` says. */
  applyRemoteClear(version: number, blocks: readonly ClearBlock[], keep: (row: number, col: number) => boolean): void {
    const entry: LogEntry = { version, own: false, savedBy: null, changes: [], clear: { blocks, keep } };
    this.record(entry);
    this.writeEntry(entry, this.windows);
    for (const follower of this.followers) this.writeEntry(entry, follower.windows, follower.cols, follower.columnar);
    this.advance(version);
  }

  /**
   * Cells the server wrote at `version` (the session's version now) without sending them: a clear's
   * cells put back (cells_clear_undo) in `blocks` (null: anywhere). The windows held of them are
   * out of date: those in `shown` stay shown until read again, and are returned (the caller reads
   * them); the others go. A window of them read before `version` is stale (read again), copies
   * being read start again.
   */
  applyUnknown(version: number, blocks: readonly ClearBlock[] | null, shown: ReadonlySet<number>): number[] {
    this.record({ version, own: false, savedBy: null, changes: [], unknown: blocks });
    const reread: number[] = [];
    for (const index of [...this.windows.keys()]) {
      if (!touches(blocks, index, this.size)) continue;
      if (shown.has(index)) reread.push(index);
      else this.windows.delete(index);
    }
    this.advance(version);
    for (const follower of [...this.followers]) follower.onReset();
    return reread;
  }

  /** Whether cells of window `index` were written unknown here after `version` (applyUnknown). */
  private unknownSince(index: number, version: number): boolean {
    return this.log.some((entry) => entry.unknown !== undefined && entry.version > version && touches(entry.unknown, index, this.size));
  }

  /** An own clear (made at the version held now): the windows held, and copies taken, show it at once. */
  applyOwnClear(blocks: readonly ClearBlock[]): void {
    const entry: LogEntry = { version: this.current, own: true, savedBy: null, changes: [], clear: { blocks, keep: keepNone } };
    this.record(entry);
    this.writeEntry(entry, this.windows);
    for (const follower of this.followers) this.writeEntry(entry, follower.windows, follower.cols, follower.columnar);
  }

  /** Own edits, already in the row arrays the grid shows (made at the version held now). */
  applyOwn(changes: readonly CellChange[]): void {
    this.record({ version: this.current, own: true, savedBy: null, changes });
    for (const follower of this.followers) this.write(changes, follower.windows, follower.cols, follower.columnar);
  }

  /**
   * Own cells written outside the grid's rows (an undo far away, a paste past the last row) into the
   * windows held, rows past a window's last one added (as others' cells are).
   */
  writeHeld(changes: readonly CellChange[]): void {
    this.write(changes, this.windows);
  }

  /** The session is at `version` (an own edit acknowledged, a chart changed...): windows held for it are stored. */
  advance(version: number, keep: ReadonlySet<number> = new Set()): void {
    if (version <= this.current) return;
    this.current = version;
    for (const [index, { version: at, rows }] of [...this.held]) {
      if (at <= version) {
        this.held.delete(index);
        this.arrived(index, at, rows, keep);
      }
    }
  }

  /** The windows at the current version, by index (a copy of the map; the rows are the held ones). */
  atVersion(): Map<number, GridData> {
    return new Map(this.windows);
  }

  /** No own edit is pending any more: each was saved by this version at the latest. */
  ownSaved(): void {
    let cells = 0;
    for (const entry of this.log) {
      if (entry.own && entry.savedBy === null) entry.savedBy = this.current;
      cells += entry.changes.length;
    }
    if (cells <= LOG_MAX_CELLS_SAVED) return;
    this.log = [];
    this.loggedFrom = this.current;
  }

  /** Rows or columns inserted or removed, a sync: every window is read again, at `version`. */
  reset(version: number): void {
    this.windows.clear();
    this.held.clear();
    this.log = [];
    this.current = version;
    this.loggedFrom = version;
    for (const follower of [...this.followers]) follower.onReset();
  }

  private record(entry: LogEntry): void {
    this.log.push(entry);
    if (this.log.length <= LOG_MAX_ENTRIES) return;
    const dropped = this.log.splice(0, this.log.length - LOG_MAX_ENTRIES);
    for (const d of dropped) if (!d.own) this.loggedFrom = Math.max(this.loggedFrom, d.version);
  }

  /** A window read at `at`: others' changes after it, and own edits the server may not have had then, in the order seen. */
  private replay(index: number, rows: GridData, at: number, cols?: ReadonlyMap<number, number>): void {
    for (const entry of this.log) {
      const missed = entry.own ? entry.savedBy === null || entry.savedBy > at : entry.version > at;
      if (missed) this.writeEntry(entry, new Map([[index, rows]]), cols);
    }
  }

  /** A log entry's cells (or cleared blocks) into the rows of `windows` held (see write). */
  private writeEntry(entry: LogEntry, windows: Map<number, GridData>, cols?: ReadonlyMap<number, number>, columnar = false): void {
    if (!entry.clear) return this.write(entry.changes, windows, cols, columnar);
    const { blocks, keep } = entry.clear;
    for (const { rows: span, columns } of blocks) {
      const end = span.start + span.count;
      for (let index = this.indexOf(span.start); index <= this.indexOf(end - 1); index++) {
        const rows = windows.get(index);
        if (!rows) continue;
        const first = index * this.size;
        if (columnar && cols) {
          // Column form: rows[place] is a column's values.
          for (let col = columns.start; col < columns.start + columns.count; col++) {
            const place = cols.get(col);
            const values = place === undefined ? undefined : rows[place];
            if (!values) continue;
            for (let at = Math.max(0, span.start - first); at < Math.min(values.length, end - first); at++) if (!keep(first + at, col)) values[at] = null;
          }
          continue;
        }
        for (let at = Math.max(0, span.start - first); at < Math.min(rows.length, end - first); at++) {
          const cells = rows[at];
          for (let col = columns.start; col < columns.start + columns.count; col++) {
            const place = cols ? cols.get(col) : col;
            if (place === undefined || place >= cells.length || keep(first + at, col)) continue;
            cells[place] = null;
          }
        }
      }
    }
  }

  /** `changes` into the rows of `windows` held; with `cols` (a projected copy), those of its columns only, at their places in it. */
  private write(changes: readonly CellChange[], windows: Map<number, GridData>, cols?: ReadonlyMap<number, number>, columnar = false): void {
    for (const { row, col, value } of changes) {
      const rows = windows.get(this.indexOf(row));
      if (!rows) continue;
      const place = cols ? cols.get(col) : col;
      if (place === undefined) continue;
      const at = row - this.indexOf(row) * this.size;
      if (columnar) {
        // Column form (Follower.columnar): rows[place] is the column's values, row `at` of the window.
        const values = rows[place];
        while (values.length < at) values.push(null);
        values[at] = value;
        continue;
      }
      while (rows.length <= at) rows.push(cols ? new Array<CellValue>(cols.size).fill(null) : []);
      setCell(rows[at], place, value);
    }
  }

  private evict(keep: ReadonlySet<number>): void {
    for (const index of this.windows.keys()) {
      if (this.windows.size <= this.capacity) return;
      if (!keep.has(index)) this.windows.delete(index);
    }
  }
}

/** Whether rows of window `index` (of `size` rows) lie in one of `blocks` (null: anywhere). */
function touches(blocks: readonly ClearBlock[] | null, index: number, size: number): boolean {
  const first = index * size;
  return blocks === null || blocks.some(({ rows }) => rows.start < first + size && rows.start + rows.count > first);
}

function setCell(cells: CellValue[], col: number, value: CellValue): void {
  while (cells.length < col) cells.push(null);
  cells[col] = value;
}
