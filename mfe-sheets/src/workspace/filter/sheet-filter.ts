import { type ColumnFilter, type ColumnFilterBody, columnFilterBody, filterIsEmpty, type GridData } from '@tessera/contracts';

/**
 * The user's row filter of a loaded sheet (contracts row-filter.ts): the filtered columns' filters
 * and how many rows the grid shows. Personal and never sent: it lives as long as the sheet's rows
 * array (keyed by it, as gridLink), so closing the sheet clears it; the grid shown for those rows
 * applies it (grid-filter.ts) and keeps the counts here for the bar.
 */
export class SheetFilter {
  /** Column index → its filter (only filters that leave something out). */
  readonly columns = new Map<number, ColumnFilter>();
  /** Rows shown and rows in the filter's range, as the grid last counted them. */
  shown = 0;
  rows = 0;
  /** Whether the counts are of this filter's rows: not before the first count (a windowed grid's comes from the api). */
  isCounted = false;
  /**
   * Judged while the formulas' values were still being computed (a formula then shows, and is judged
   * by, '' until its value comes): judged again once they are all in.
   */
  judgedBeforeValues = false;
  /** The grid showing the rows, while mounted: applies the filter to every row again. */
  reapply: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();

  get active(): boolean {
    return this.columns.size > 0;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** A column's filter set (or removed: null, or a filter that leaves nothing out), applied to every row. */
  set(column: number, filter: ColumnFilter | null): void {
    if (filter === null || filterIsEmpty(filter)) this.columns.delete(column);
    else this.columns.set(column, filter);
    if (!this.active) this.isCounted = false;
    this.reapply?.();
    this.changed();
  }

  /** 'Clear filter': every row shown again. */
  clear(): void {
    if (!this.active) return;
    this.columns.clear();
    this.isCounted = false;
    this.reapply?.();
    this.changed();
  }

  /**
   * Columns inserted (amount > 0) or removed (amount < 0) at `index`, by anyone: the filters move
   * with their columns; a removed column's filter goes (true: the rows must be judged again).
   */
  columnsMoved(index: number, amount: number): boolean {
    if (!this.active) return false;
    const moved = new Map<number, ColumnFilter>();
    let dropped = false;
    for (const [column, filter] of this.columns) {
      if (column < index) moved.set(column, filter);
      else if (amount > 0) moved.set(column + amount, filter);
      else if (column >= index - amount) moved.set(column + amount, filter);
      else dropped = true;
    }
    this.columns.clear();
    for (const [column, filter] of moved) this.columns.set(column, filter);
    this.changed();
    return dropped;
  }

  /** The filters as the api takes them (a windowed sheet's: POST /sheets/:id/filter, its values, find). */
  bodies(): ColumnFilterBody[] {
    return [...this.columns].map(([column, filter]) => columnFilterBody(column, filter));
  }

  /** The grid counted its rows. */
  counted(shown: number, rows: number): void {
    if (this.isCounted && shown === this.shown && rows === this.rows) return;
    this.isCounted = true;
    this.shown = shown;
    this.rows = rows;
    this.changed();
  }
}

const filters = new WeakMap<GridData, SheetFilter>();

export function sheetFilter(data: GridData): SheetFilter {
  let filter = filters.get(data);
  if (!filter) {
    filter = new SheetFilter();
    filters.set(data, filter);
  }
  return filter;
}
