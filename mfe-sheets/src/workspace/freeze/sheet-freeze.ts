import { FREEZE_LIMITS } from '@tessera/contracts';

/** How many of the first rows and columns stay in view (0: none). */
export interface FrozenPanes {
  rows: number;
  cols: number;
}

export const NOTHING_FROZEN: FrozenPanes = { rows: 0, cols: 0 };

/** A count kept within 0 and its limit (a whole number). */
const bounded = (n: number, limit: number) => (Number.isFinite(n) ? Math.max(0, Math.min(limit, Math.floor(n))) : 0);

/**
 * A frozen count after rows or columns of its axis were inserted (amount > 0) or removed (amount < 0)
 * at `index`: the frozen ones move with their rows or columns, as in Google Sheets and Excel. Inserted
 * before the edge, they join the frozen block (the edge moves right with the column it was at);
 * inserted at the edge or after, they are not frozen; removed, the frozen ones among them go.
 */
export function frozenAfter(frozen: number, index: number, amount: number): number {
  if (index >= frozen) return frozen;
  if (amount > 0) return frozen + amount;
  return frozen - (Math.min(frozen, index - amount) - index);
}

/**
 * The user's frozen rows and columns of one loaded sheet. Personal and never sent (as the row filter):
 * the session moves them with every row and column op (own and others'), the grid shown applies them
 * (fixedRowsTop / fixedColumnsStart, which move no index: visual = physical stays true) and its menu
 * sets them; `save` remembers each change (remembered-freeze.ts: local storage, per sheet).
 */
export class SheetFreeze {
  private panes: FrozenPanes;
  private readonly listeners = new Set<() => void>();

  constructor(
    initial: FrozenPanes = NOTHING_FROZEN,
    private readonly save: (panes: FrozenPanes) => void = () => {},
  ) {
    this.panes = { rows: bounded(initial.rows, FREEZE_LIMITS.rows), cols: bounded(initial.cols, FREEZE_LIMITS.columns) };
  }

  get rows(): number {
    return this.panes.rows;
  }

  get cols(): number {
    return this.panes.cols;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Rows and/or columns frozen (0: unfrozen), within FREEZE_LIMITS. */
  set(next: Partial<FrozenPanes>): void {
    const rows = next.rows === undefined ? this.panes.rows : bounded(next.rows, FREEZE_LIMITS.rows);
    const cols = next.cols === undefined ? this.panes.cols : bounded(next.cols, FREEZE_LIMITS.columns);
    if (rows === this.panes.rows && cols === this.panes.cols) return;
    this.panes = { rows, cols };
    this.save(this.panes);
    for (const listener of this.listeners) listener();
  }

  /**
   * Rows or columns inserted (amount > 0) or removed (amount < 0) at `index` (anyone's, the grid's
   * indexes: spare ones beyond the stored sheet too, which Handsontable also counts): the frozen ones
   * move with them (frozenAfter).
   */
  moved(axis: 'row' | 'col', index: number, amount: number): void {
    if (axis === 'row') this.set({ rows: frozenAfter(this.panes.rows, index, amount) });
    else this.set({ cols: frozenAfter(this.panes.cols, index, amount) });
  }
}
