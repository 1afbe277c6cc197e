/** A cell of the loaded sheet that changed at a data tick. */
export interface ChangedCellRef {
  row: number;
  col: number;
}

/** Ticks remembered: a reader further behind reads everything again. */
const KEPT = 256;
/**
 * Cells of one tick remembered one by one; past it (a whole column of a million rows cleared) the
 * tick is recorded as "anything may have changed": a chart reads its rows again rather than the
 * log keeping a million cells alive after they are saved.
 */
export const TICK_MAX_CELLS = 100_000;

/**
 * What changed at each data tick of a loaded sheet (the session's dataTick): the cells edited,
 * or null when anything may have (rows or columns moved, the sheet replaced). A chart that saw
 * tick n asks for the cells since then and reads only those again (chart-data-cache.ts); React
 * may render once for several ticks, so it asks for all of them.
 */
export class CellChangeLog {
  private entries: { tick: number; cells: readonly ChangedCellRef[] | null }[] = [];

  record(tick: number, cells: readonly ChangedCellRef[] | null): void {
    this.entries.push({ tick, cells: cells && cells.length > TICK_MAX_CELLS ? null : cells });
    if (this.entries.length > KEPT) this.entries.splice(0, this.entries.length - KEPT);
  }

  /** The cells changed after tick `since` up to `until` (both data ticks); null when unknown or when anything may have changed. */
  since(since: number, until: number): ChangedCellRef[] | null {
    if (until < since) return null;
    const cells: ChangedCellRef[] = [];
    let expected = since + 1;
    for (const entry of this.entries) {
      if (entry.tick <= since) continue;
      if (entry.tick > until) break;
      // A tick missing from the log (forgotten, or raised without a record): unknown.
      if (entry.tick !== expected || entry.cells === null) return null;
      // One by one: a tick can hold a whole column of a large sheet, too many cells to spread into push's arguments.
      for (const cell of entry.cells) cells.push(cell);
      expected++;
    }
    return expected === until + 1 ? cells : null;
  }
}
