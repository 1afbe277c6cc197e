import { type CellChange, columnFilterTest, type SheetFilterBody, type SheetFilterResult, unpackRuns } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { type MutableRefObject, useEffect, useRef } from 'react';
import type { SheetFilter } from '../../filter/sheet-filter.js';
import type { StructureChange } from '../../grid/SheetGrid.js';
import type { SheetResult } from '../../sheet.service.js';
import type { StructureMove } from '../moved-rows.js';
import type { WindowedSheet } from '../windowed-sheet.js';
import { FilteredRows } from './filtered-rows.js';
import type { gridPositions } from './grid-positions.js';

/** Times the filter's rows are asked again when the api's answer is of another row count than the sheet's here. */
const FILTER_ASKS = 3;

/** A cell being typed into, at its sheet row, and its text (read before the rows shown change). */
export interface EditingCell {
  row: number;
  col: number;
  value: unknown;
  full: boolean;
}

/** What the filter needs of the windowed grid: its Handsontable, the slab, the editor, the status line. */
export interface FilterGrid {
  hot(): Handsontable | null;
  visibleRange(h: Handsontable): { first: number; last: number };
  /** The slab's first position. */
  base(): number;
  /** The slab from position `from`, position `top` at the top. */
  rebase(from: number, top: number): void;
  /** The slab's first position centred on `rows` rows from `top`. */
  slabAround(top: number, rows: number): number;
  editingCell(h: Handsontable): EditingCell | null;
  /** The editor opened again on `cell` with its text, once its row is read. */
  resume(h: Handsontable, cell: EditingCell): void;
  /** Rows read beyond those shown, either side (SLAB.readAhead). */
  readAhead: number;
  /** Work on every row, said on the grid's status line while under way (its failure too). */
  track<T>(work: Promise<T>): Promise<T | undefined>;
}

/**
 * A windowed grid's row filter (filter/sheet-filter.ts; a live grid only): the rows it shows asked
 * of the api (`askFilter`: POST /sheets/:id/filter, its runs unpacked into `view`, the grid's
 * positions) when it is set or cleared (its dialog, the bar's Clear filter), then the slab shown from
 * the top; asked again (others' row ops, a sort, a sync, others' edits of rows not held) with the
 * user's place kept. Others' edits of a row held are judged here. The answers' `follow` keeps the
 * rows shown true through row and column ops until the api answers again.
 */
export function useWindowedFilter(
  sheet: WindowedSheet,
  filter: SheetFilter | null,
  view: MutableRefObject<FilteredRows | null>,
  positions: ReturnType<typeof gridPositions>,
  grid: FilterGrid,
  askFilter: () => ((body: SheetFilterBody) => Promise<SheetResult<SheetFilterResult>>) | undefined,
) {
  /** Own row ops sent while a filter is on: the rows shown follow them at once (the reset once the server has each asks nothing again). */
  const ownRowOps = useRef(0);
  /** The filter's rows asked of the api again, the user's place kept (set by the effect). */
  const askAgain = useRef(() => {});
  /** The rows shown are being asked of the api (the view is the filter's before); waiting for them: settled(). */
  const asking = useRef(false);
  const waiting = useRef<(() => void)[]>([]);
  const settle = () => {
    asking.current = false;
    for (const resolve of waiting.current.splice(0)) resolve();
  };
  // Read through refs: the effect is the filter's for its life, the grid's functions are each render's.
  const at = useRef({ positions, grid, askFilter });
  at.current = { positions, grid, askFilter };

  useEffect(() => {
    if (!filter) return undefined;
    let asked = 0;
    /** The slab from the top, or around sheet row `keep` (where the user was); `editing`: the cell typed into, read before the rows shown changed. */
    const showFrom = (keep: number | null, editing: EditingCell | null) => {
      const { grid: g, positions: p } = at.current;
      const h = g.hot();
      if (!h) return;
      const { first, last } = g.visibleRange(h);
      const rows = last - first + 1;
      const top = keep === null ? 0 : Math.max(0, Math.min(p.positionAt(keep), p.shownRows() - rows));
      // A cell being typed into: its editor closed for the move and opened again on it (its slab row holds another row now).
      if (editing) h.getActiveEditor()?.cancelChanges();
      g.rebase(g.slabAround(top, rows), top);
      p.showPositions(top, top + rows, g.readAhead);
      if (editing) g.resume(h, editing);
    };
    const ask = (keepPlace: boolean, attempt = 0) => {
      const n = ++asked;
      const { grid: g, positions: p } = at.current;
      const h = g.hot();
      const keep = keepPlace && h ? p.rowOf(g.base() + g.visibleRange(h).first) : null;
      if (!filter.active) {
        const editing = h ? g.editingCell(h) : null;
        view.current = null;
        showFrom(keep, editing);
        settle();
        return;
      }
      const body = { filters: filter.bodies() };
      const sent = at.current.askFilter()?.(body).then((answer) => {
        // Its failure said on the grid's status line (the rows shown stay as they were).
        if (!answer.success) throw new Error(answer.error);
        return answer;
      });
      if (!sent) return settle();
      asking.current = true;
      // The api reads every row: said while under way, as the grid's other work on every row.
      void g.track(sent).then((answer) => {
        // A later ask under way: it settles.
        if (n !== asked) return;
        if (!answer) return settle();
        // Rows inserted or removed since it was read (the user's own, not on the server yet; others' on their way): asked again, a few times.
        if (answer.data.row_count !== sheet.rowCount && attempt < FILTER_ASKS) return ask(keepPlace, attempt + 1);
        const runs = unpackRuns(answer.data.runs, answer.data.row_count);
        if (!runs) return settle();
        const rowsShown = new FilteredRows(runs, answer.data.row_count);
        // Still not the sheet's size: rows past the answer's end shown (as own inserts), rows past the sheet's end dropped.
        if (sheet.rowCount > rowsShown.rowCount) rowsShown.rowsInserted(rowsShown.rowCount, sheet.rowCount - rowsShown.rowCount);
        else if (sheet.rowCount < rowsShown.rowCount) rowsShown.rowsRemoved(sheet.rowCount, rowsShown.rowCount - sheet.rowCount);
        // The row the user is typing in stays shown (their text goes where they see it), as the whole grid's filter keeps it.
        const grid = at.current.grid.hot();
        const editing = grid ? at.current.grid.editingCell(grid) : null;
        if (editing) rowsShown.setShown(editing.row, true);
        view.current = rowsShown;
        filter.counted(answer.data.shown, answer.data.rows);
        showFrom(keep, editing);
        settle();
      });
    };
    const reapply = () => ask(false);
    askAgain.current = () => ask(true);
    filter.reapply = reapply;
    // Others' edits: a row held is judged again here (shown or hidden alone); one not held, by the api.
    sheet.othersCells = (changes: readonly CellChange[]) => {
      const v = view.current;
      if (!v) return;
      const { grid: g } = at.current;
      // Rows others wrote past the sheet's end (it grew): among the rows shown, judged below with the rest.
      const end = v.rowCount;
      const grew = sheet.rowCount > end;
      if (grew) v.rowsInserted(end, sheet.rowCount - end);
      const judged = changes.filter((c) => filter.columns.has(c.col) || c.row >= end);
      if (judged.length === 0) return;
      const tests = [...filter.columns].map(([col, f]) => [col, columnFilterTest(f)] as const);
      const grid = g.hot();
      const editing = grid ? g.editingCell(grid) : null;
      let unheld = false;
      let moved = grew;
      let shownNow = filter.shown;
      for (const row of new Set(judged.map((c) => c.row))) {
        const cells = sheet.rowAt(row);
        if (!cells) {
          unheld = true;
          continue;
        }
        const shown = v.positionOf(row) >= 0;
        // The row being typed in stays (whole grid's rule: their text goes where they see it).
        const passes = editing?.row === row || tests.every(([col, test]) => test(cells[col]));
        if (passes !== shown) {
          v.setShown(row, passes);
          moved = true;
          if (row < filter.rows) shownNow += passes ? 1 : -1;
        }
      }
      if (unheld) ask(true);
      else if (moved) {
        filter.counted(shownNow, filter.rows);
        const h = g.hot();
        if (!h) return;
        // Rows above it hidden or shown move the cell being typed into: its editor follows it.
        if (editing) h.getActiveEditor()?.cancelChanges();
        g.rebase(g.base(), g.base() + g.visibleRange(h).first);
        if (editing) g.resume(h, editing);
      }
    };
    // Mounted again over a filter already on (a version preview closed): its rows asked again.
    if (filter.active) reapply();
    return () => {
      asked++;
      settle();
      if (filter.reapply === reapply) filter.reapply = null;
      sheet.othersCells = null;
    };
  }, [filter]); // eslint-disable-line react-hooks/exhaustive-deps

  return {
    /** Settles once the rows the filter shows now are in (at once when none is being asked for). */
    settled(): Promise<void> {
      return asking.current ? new Promise((resolve) => waiting.current.push(resolve)) : Promise.resolve();
    },
    /**
     * The windows were reset (`move`: someone's row or column op; none: the user's own op
     * acknowledged, a sort, a sync), read after the editor's cell (at its sheet row before the rows
     * shown change): someone's row op is followed until the api answers again, a column op moves the
     * filters; the user's own op was followed already; anything else asks the api again.
     */
    windowsReset(move?: StructureMove): void {
      const v = view.current;
      if (!v || !filter) return;
      if (move?.type === 'rows_insert') v.rowsInserted(move.index, move.count);
      else if (move?.type === 'rows_remove') v.rowsRemoved(move.index, move.count);
      else if (move) filter.columnsMoved(move.index, move.type === 'columns_insert' ? move.count : -move.count);
      if (!move && ownRowOps.current > 0) ownRowOps.current--;
      else askAgain.current();
    },
    /** An own row or column op sent: the rows shown follow a row op now (inserted rows shown, unjudged, as the whole grid's); a column's filter moves with its column. */
    ownStructure(change: StructureChange): void {
      const v = view.current;
      if (v && change.axis === 'row') {
        if (change.amount > 0) v.rowsInserted(change.index, change.amount);
        else v.rowsRemoved(change.index, -change.amount);
        ownRowOps.current++;
      }
      if (v && change.axis === 'col' && filter?.columnsMoved(change.index, change.amount)) filter.reapply?.();
    },
  };
}
