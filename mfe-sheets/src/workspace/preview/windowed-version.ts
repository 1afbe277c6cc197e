import type { GridData, SheetRows, SheetVersion, VersionRows } from '@tessera/contracts';
import { ROW_WINDOW_CAPACITY } from '../windowed/row-windows.js';
import { WindowedSheet } from '../windowed/windowed-sheet.js';
import { diffGrids, type GridDiff } from './grid-diff.js';

/** Cells to highlight at absolute rows, told when more are known (a window of the version and its live rows compared). */
export interface RowHighlight {
  has(row: number, col: number): boolean;
  subscribe(listener: () => void): () => void;
}

/** Others' edits in a burst compare the windows again once, this long after the last. */
const LIVE_SETTLE_MS = 300;

/** Reads rows [start, start + count) of the version previewed (`columns`: of those only); null when the read failed. */
export type ReadVersionRows = (start: number, count: number, columns?: { start: number; count: number }) => Promise<VersionRows | null>;
/** Rows [start, start + count) of the live sheet now (the Workspace's windowed sheet's cells()). */
export type ReadLiveRows = (start: number, count: number) => Promise<GridData>;

/**
 * A version of a sheet shown a window at a time (issue 23), previewed the same way: its rows are
 * read a window at a time (GET .../versions/:versionId/rows) into a WindowedSheet the windowed
 * grid shows, and each window read is compared with the live sheet's same rows, so the cells
 * that differ are highlighted for the rows shown (the differences of the whole sheet are not
 * counted: that would read both whole).
 */
export class WindowedVersion implements RowHighlight {
  readonly sheet: WindowedSheet;
  /** The version without its rows (`rows` empty): entry, headers, changed cells, charts. */
  readonly version: SheetVersion;
  /** Differences per window index, for the windows read (as many as the sheet keeps). */
  private readonly diffs = new Map<number, GridDiff>();
  private readonly versionRows = new Map<number, GridData>();
  private readonly listeners = new Set<() => void>();
  /** Windows compared before the live sheet last changed: compared again when next drawn. */
  private readonly stale = new Set<number>();
  private settle: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(first: VersionRows & { version: Omit<SheetVersion, 'rows'> }, read: ReadVersionRows, private readonly live: ReadLiveRows) {
    this.version = { ...first.version, rows: [] };
    // A version never changes: every window is read at the same (nominal) version 0.
    const rowsOf = (answer: VersionRows): SheetRows => ({ id: first.version_id, version: 0, row_count: answer.row_count, column_count: answer.column_count, start: answer.start, data: answer.data, ...(answer.col_start !== undefined ? { col_start: answer.col_start } : {}) });
    this.sheet = new WindowedSheet(rowsOf(first), async (start, count, columns) => {
      const answer = await read(start, count, columns);
      if (!answer) return null;
      // Some columns only (a whole-column Copy of the preview): not rows to compare with the live ones.
      if (!columns) void this.compare(this.sheet.windows.indexOf(start), answer.data);
      return rowsOf(answer);
    });
  }

  has(row: number, col: number): boolean {
    const index = this.sheet.windows.indexOf(row);
    if (this.settle === undefined && this.stale.delete(index)) {
      const rows = this.versionRows.get(index);
      if (rows) void this.compare(index, rows);
    }
    return this.diffs.get(index)?.has(row - index * this.sheet.windows.size, col) ?? false;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The live sheet changed: the windows compared are compared again — only those drawn (has()
   * asks for them), once the burst of changes settles; until then the last differences show.
   */
  liveChanged(): void {
    for (const index of this.versionRows.keys()) this.stale.add(index);
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.settle = undefined;
      this.notify();
    }, LIVE_SETTLE_MS);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.settle);
    this.sheet.stop();
    this.listeners.clear();
  }

  private async compare(index: number, rows: GridData): Promise<void> {
    this.versionRows.delete(index);
    this.versionRows.set(index, rows);
    // As many as the version's windows kept: the oldest compared go first.
    for (const old of this.versionRows.keys()) {
      if (this.versionRows.size <= ROW_WINDOW_CAPACITY) break;
      this.versionRows.delete(old);
      this.diffs.delete(old);
    }
    let live: GridData;
    try {
      live = await this.live(index * this.sheet.windows.size, this.sheet.windows.size);
    } catch (error) {
      // The version's rows still show, without their highlight.
      console.error('[sheets] the live rows to compare a version with could not be read', error);
      return;
    }
    if (this.stopped || this.versionRows.get(index) !== rows) return;
    this.diffs.set(index, diffGrids(live, rows));
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
