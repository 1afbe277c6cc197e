import { HotTable, type HotTableRef } from '@handsontable/react-wrapper';
import { FREEZE_TEXTS, type SheetFilterBody, type SheetFilterResult, HANDSONTABLE_LICENSE_KEY, WINDOWED_READ_TEXTS, type CellChange, type CellValue, type ClearBlock, type GridData, type RowRange, type SortDirection } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { memo, useEffect, useMemo, useRef } from 'react';
import { type ChartGeometry, slabGeometry } from '../../charts/chart-geometry.js';
import { contextMenu } from '../grid/context-menu.js';
import { cellEdits, typeCellEdits } from '../grid/cell-edits.js';
import { gridLink, type GridPlace } from '../grid/grid-link.js';
import { drawPresence } from '../grid/live-grid.js';
import { FIND_MARK_STYLE, type FindMarks } from '../find/find-marks.js';
import { registerGridModules } from '../grid/grid-modules.js';
import { escapeHtml, headerLabel } from '../grid/grid-shape.js';
import { COLUMN_WIDTH, FILTER_MARK_STYLE, HIGHLIGHT_CLASS, HIGHLIGHT_STYLE, markFilteredHeader, type StructureChange } from '../grid/SheetGrid.js';
import type { RowHighlight } from '../preview/windowed-version.js';
import type { WindowedSheet } from './windowed-sheet.js';
import { addUndoKeys } from '../undo/undo-keys.js';
import { addClearColumnKeys, clearColumns, clearShownColumns, type ColumnSpan, wholeColumns } from './clear-columns.js';
import { copyColumns } from './copy-columns.js';
import { addJumpKeys, jumper } from '../grid/jump-keys.js';
import { GridStatus, GridStatusLine } from './grid-status.js';
import { applyFreeze, frozenSettings, menuFreeze } from '../freeze/grid-freeze.js';
import type { SheetFreeze } from '../freeze/sheet-freeze.js';
import { pasteCells, pasteOutsideSlab, type PastedBlock } from './paste.js';
import { cellsBlock, changeOfMove, movedCell, ownStep, REDO_SOURCE, UNDO_SOURCE } from '../undo/undo-stack.js';
import type { StructureMove } from './moved-rows.js';
import type { SheetFilter } from '../filter/sheet-filter.js';
import type { SheetResult } from '../sheet.service.js';
import type { FilteredRows } from './filter/filtered-rows.js';
import { gridPositions } from './filter/grid-positions.js';
import { useWindowedFilter } from './filter/use-windowed-filter.js';

registerGridModules();

/**
 * Rows the grid holds at once (the slab), from an absolute row `base`: Handsontable scrolls the
 * browser's own box, whose height tops out near 8M px in Chromium (1,000,000 rows × 29 px is
 * 29M px), so it holds a slab and this component's scroll bar spans the sheet.
 */
export const SLAB = {
  // A move rewrites the slab's rows (and Handsontable's updateData over all of it when its length
  // changes, about 100 ms for 20,000 rows on the loaded 2-core machine): 10,000 keeps it small and
  // a wheel's moves rare.
  rows: 10_000,
  /** The slab moves when the rows shown come this close to its edge (or jump out of it). */
  edge: 2_000,
  /** Rows read beyond those shown, either side: a short scroll finds them there. */
  readAhead: 1_000,
};
/**
 * `row` made `cols` cells long (nulls appended, in place: an empty cell either way). Handsontable
 * counts an array grid's columns in its first row and, to reach minCols, inserts nulls into every
 * row at that count: a longer row further down (cells pasted past the right edge) would have its
 * last cells pushed right, in the windows' own rows.
 */
function padded(row: CellValue[], cols: number): CellValue[] {
  while (row.length < cols) row.push(null);
  return row;
}

/** The sheet-wide scroll bar's height in px (well under the browser's cap); its position maps to a row. */
const BAR_HEIGHT_PX = 4_000_000;

export interface WindowedGridProps {
  sheet: WindowedSheet;
  headers: { current: string[] };
  readOnly: boolean;
  /** Own edits, at absolute rows. */
  onCellsChanged(changes: CellChange[]): void;
  /**
   * Own rows or columns inserted or removed from the menu, at absolute rows. `undo`: an insert that
   * undoes the own remove the server applied at that version (Ctrl+Z: the server fills it with the
   * cells the remove took; the windows are read again once it has).
   */
  onStructureChanged(change: StructureChange, undo?: number): void;
  /**
   * Own blocks cleared (whole columns' Delete or Cut, a Shift range of rows past the slab), each one
   * small cells_clear the server empties, not a change per cell; without it, changes per cell.
   * Returns the operations' ids (the undo step takes their versions from their acks).
   */
  onCellsCleared?(blocks: ClearBlock[]): readonly string[];
  /**
   * Undo of a clear the server did (UndoStack's clearUndo): a cells_clear_undo per version; the
   * cells show once the server has put them back (`blocks`: where they are, null: not known here).
   */
  onClearsUndone?(versions: number[], blocks: ClearBlock[] | null): void;
  /** Resolves once the user's operations on their way are settled (acknowledged or refused). */
  onSettled?(): Promise<void>;
  /** The menu's 'Sort sheet A → Z' / 'Z → A' (when given): the windows are read again once the server has sorted. */
  onSortRows?(column: number, direction: SortDirection, history?: { undo?: number }): void;
  onSelect(row: number, col: number): void;
  /** The cells selected, at absolute rows (a column header's click: the sheet's whole column, from -1 as the whole grid says it). */
  onSelectRange?(row: number, col: number, row2: number, col2: number): void;
  /** The slab scrolled to (left, top) px: the charts' layer moves with it. */
  onScroll?(left: number, top: number): void;
  /** Where the cells are now (the slab moved): the charts are placed by it. */
  onGeometry?(geometry: ChartGeometry): void;
  onCellHistory?(row: number, col: number): void;
  /** Cells to highlight, at absolute rows (a version preview: those that differ from the live sheet). */
  highlight?: RowHighlight | null;
  /** The find bar's marks (its matches among the drawn cells, at absolute rows): drawn, and again when they change. */
  findMarks?: FindMarks | null;
  /**
   * The loaded sheet's rows array, the key the session shares with the grid (gridLink): other
   * users' selected cells, drawn at absolute rows, and redrawn as they move. A preview has none.
   */
  link?: GridData;
  /**
   * The user's frozen columns (freeze/), drawn and set from the menu as on the whole grid (a preview has
   * none). Not its frozen rows: the grid's first rows are its slab's, which moves as one scrolls.
   */
  freeze?: SheetFreeze | null;
  /**
   * The user's row filter (filter/sheet-filter.ts, a live grid only): the rows it shows are asked of
   * the api (`askFilter`), and only they are shown, with the sheet's row numbers; the menu's entry
   * opens its dialog (`onFilterColumn`).
   */
  filter?: SheetFilter | null;
  askFilter?(body: SheetFilterBody): Promise<SheetResult<SheetFilterResult>>;
  onFilterColumn?(column: number): void;
}

/**
 * The grid of a sheet too large to load whole (issue 23): Handsontable shows a slab of
 * SLAB.rows rows from `base` (row headers say the absolute row), filled from the windows the
 * session has read; rows whose window has not arrived are empty and read-only until it does.
 * Scrolling near the slab's edge, or the sheet-wide scroll bar, moves the slab. Edits are sent
 * at absolute rows; so are rows and columns inserted or removed from the menu (the same entries as
 * the whole grid's), which the grid shows once the server has them (WindowedSheet.ownStructure).
 */
export const WindowedGrid = memo(function WindowedGrid({ sheet, headers, readOnly, highlight = null, findMarks = null, link, freeze = null, filter = null, ...handlers }: WindowedGridProps) {
  const ref = useRef<HotTableRef>(null);
  const bar = useRef<HTMLDivElement>(null);
  const on = useRef(handlers);
  on.current = handlers;
  // The slab's first row, as the grid counts rows: the sheet's, or with a filter on the rows it shows (rowOf).
  const base = useRef(0);
  /** The rows the user's filter shows (null: no filter, every row): set by useWindowedFilter. */
  const view = useRef<FilteredRows | null>(null);
  // The grid's positions against the sheet's rows (filter/grid-positions.ts): rowOf(base.current + a slab row) is its sheet row.
  const positions = gridPositions(sheet, view);
  const { shownRows, rowOf, positionAt, showPositions, readPositions } = positions;
  /** The slab row of sheet row `row` (negative, or past the slab, when it is not in it: hidden rows too). */
  const slabIndex = (row: number) => positions.positionOf(row) - base.current;
  // Rows not read yet (empty, or as before an own row or column op): placeholders, read-only.
  const placeholders = useRef(new WeakSet<CellValue[]>());
  /** The grid's columns: the sheet's, at least one (Handsontable shows one for a sheet of none). */
  const gridCols = () => Math.max(1, sheet.colCount);
  const slabOf = (from: number): GridData => {
    const length = Math.max(0, Math.min(SLAB.rows, shownRows() - from));
    const cols = gridCols();
    const rows: GridData = new Array(length);
    for (let i = 0; i < length; i++) {
      const row = sheet.rowAt(rowOf(from + i));
      if (row) rows[i] = padded(row, cols);
      else {
        // Not read (again) yet: as it was before the user's own row or column op, moved as it moved, or empty.
        const stale = padded(sheet.staleRowAt(rowOf(from + i)) ?? [], cols);
        placeholders.current.add(stale);
        rows[i] = stale;
      }
    }
    return rows;
  };
  // The grid is keyed by the load: one sheet for its life.
  const slab = useRef<GridData>(null as unknown as GridData);
  slab.current ??= slabOf(0);
  // The bar's scroll set from the grid's: not a user's scroll of the bar.
  const barSet = useRef(false);
  const moving = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(moving.current), []);

  const hot = (): Handsontable | null => {
    const h = ref.current?.hotInstance ?? null;
    return h && !h.isDestroyed ? h : null;
  };
  const visibleRange = (h: Handsontable) => {
    const first = h.view.getFirstFullyVisibleRow() ?? h.view.getFirstRenderedVisibleRow() ?? 0;
    const last = h.view.getLastFullyVisibleRow() ?? first + 30;
    return { first: Math.max(0, first), last: Math.max(first, last) };
  };

  const reportScroll = () => {
    const holder = hot()?.rootElement.querySelector<HTMLElement>('.ht_master .wtHolder');
    on.current.onScroll?.(holder?.scrollLeft ?? 0, holder?.scrollTop ?? 0);
  };
  const reportGeometry = () => on.current.onGeometry?.(slabGeometry(hot, base.current, () => slab.current.length));

  /** The slab from `from` (the grid shows its row `top` at the top). */
  const rebase = (from: number, top: number) => {
    const h = hot();
    if (!h) return;
    base.current = from;
    const rows = slabOf(from);
    // Columns inserted or removed: Handsontable counts them again only from new settings and data.
    const cols = gridCols();
    const colsChanged = h.countCols() !== cols;
    // Fewer columns: minCols first (else the old one keeps them). More: after the new rows, as wide as the
    // sheet (slabOf), so that minCols adds no column of its own to them (see padded).
    const wider = h.countCols() < cols;
    // One batch: the deselection, the scroll and the new rows drawn once (each alone lays the grid out again).
    h.batch(() => {
      h.deselectCell();
      if (colsChanged && !wider) h.updateSettings({ minCols: cols });
      if (rows.length === slab.current.length && !colsChanged) {
        // The same array, its rows replaced: no updateData over the whole slab (the costly part of a jump).
        for (let i = 0; i < rows.length; i++) slab.current[i] = rows[i];
      } else {
        slab.current = rows;
        h.updateData(slab.current, 'updateData');
      }
      if (wider) h.updateSettings({ minCols: cols });
      h.scrollViewportTo({ row: Math.max(0, Math.min(top - from, slab.current.length - 1)), verticalSnap: 'top' });
      h.render();
    });
    reportGeometry();
    reportScroll();
  };
  /** The slab centred on the rows shown (`rows` of them from `top`). */
  const slabAround = (top: number, rows: number) => Math.max(0, Math.min(Math.floor(top + rows / 2 - SLAB.rows / 2), shownRows() - SLAB.rows));

  /** The rows shown moved: read their windows, move the slab near its edge, and keep the bar in step. */
  const followGrid = () => {
    const h = hot();
    if (!h) return;
    reportScroll();
    const { first, last } = visibleRange(h);
    const top = base.current + first;
    showPositions(top, base.current + last, SLAB.readAhead);
    const length = slab.current.length;
    const nearStart = first < SLAB.edge && base.current > 0;
    const nearEnd = length - last < SLAB.edge && base.current + length < shownRows();
    if (nearStart || nearEnd) {
      const from = slabAround(top, last - first + 1);
      if (from !== base.current) rebase(from, top);
    }
    const b = bar.current;
    if (b) {
      const span = Math.max(1, shownRows() - (last - first + 1));
      const target = Math.round((top / span) * (b.scrollHeight - b.clientHeight));
      if (Math.abs(b.scrollTop - target) > 1) {
        barSet.current = true;
        b.scrollTop = target;
      }
    }
  };

  /** The sheet-wide bar moved: show the row it points at, moving the slab when it is outside. */
  const followBar = () => {
    if (barSet.current) {
      barSet.current = false;
      return;
    }
    const b = bar.current;
    const h = hot();
    if (!b || !h) return;
    const { first, last } = visibleRange(h);
    const rows = last - first + 1;
    const ratio = Math.min(1, Math.max(0, b.scrollTop / Math.max(1, b.scrollHeight - b.clientHeight)));
    const top = Math.round(ratio * Math.max(0, shownRows() - rows));
    // The reads go out first; the slab moves once they are on their way.
    showPositions(top, top + rows, SLAB.readAhead);
    const inside = top >= base.current + SLAB.edge / 3 && top + rows <= base.current + slab.current.length - SLAB.edge / 3;
    const atEnds = (top < SLAB.edge && base.current === 0) || top + rows >= shownRows();
    if (inside || (atEnds && slabAround(top, rows) === base.current)) h.scrollViewportTo({ row: top - base.current, verticalSnap: 'top' });
    else {
      const from = slabAround(top, rows);
      clearTimeout(moving.current);
      moving.current = setTimeout(() => rebase(from, top), 0);
    }
  };

  /**
   * Undo or redo (sheet.undo, at absolute rows: Handsontable's own UndoRedo is off, its steps would
   * name slab rows). As modern spreadsheets do, the grid goes to the step's cells and selects them,
   * moving the slab when they are outside it. Cells of rows shown are written through the grid
   * (sent by afterChange like any edit); those of rows not read yet, or beyond the slab, are sent
   * directly (the inverse is in the step, the row need not be shown). Rows or columns go through
   * the session like the menu's (the rows shown move once the server has them), then the cells a
   * remove took.
   */
  const locked = useRef(readOnly);
  locked.current = readOnly;
  const history = (redo: boolean, waited = false) => {
    const h = hot();
    if (!h || locked.current) return;
    // A clear or remove whose acks are on their way: undone once they came (by the server), not cell
    // by cell (nor not at all: a remove's cells are not held); once only (a refused op has no version).
    const settled = on.current.onSettled;
    if (!redo && !waited && settled && sheet.undo.versionsPending()) {
      void settled().then(() => history(false, true));
      return;
    }
    // Steps one action made (UndoStack.together: a filter's rows removed run by run) go back, or come again, together.
    while (historyStep(h, redo));
  };
  /** One step of history(); whether the next one goes with it. */
  const historyStep = (h: Handsontable, redo: boolean): boolean => {
    const inverse = redo ? sheet.undo.redo() : sheet.undo.undo();
    if (!inverse) return false;
    try {
      const { structure, cells } = inverse;
      // A sort: the server puts the rows back (undo) or sorts them again (redo); the windows are read again once it has.
      if (inverse.sort) on.current.onSortRows?.(inverse.sort.column, inverse.sort.direction, { undo: inverse.sort.undo });
      // A clear the server did: put back by it (the cells show once it has), or cleared again (shown at once).
      else if (inverse.clearUndo) on.current.onClearsUndone?.(inverse.clearUndo.versions, inverse.clearUndo.blocks);
      else if (inverse.clear) {
        sheet.undo.clearsSent(on.current.onCellsCleared?.(inverse.clear) ?? []);
        h.render();
      } else if (!structure) writeCells(h, cells, redo ? REDO_SOURCE : UNDO_SOURCE);
      else {
        const change = changeOfMove(structure);
        if (change.axis === 'row') showRow(h, structure.index);
        // A remove the server did: inserted again naming it, filled by the server (read again once applied).
        ownStructure(change, inverse.structureUndo);
        if (cells.length > 0) on.current.onCellsChanged(cells);
      }
    } finally {
      sheet.undo.settled();
    }
    return inverse.more === true;
  };
  /** `rows` rows from absolute row `top` shown at the top: read, and the slab moved around them. */
  const showRows = (top: number, rows: number) => {
    showPositions(top, top + rows, SLAB.readAhead);
    rebase(slabAround(top, rows), top);
  };
  /** Absolute row `row` shown, a third down the rows shown; the slab moved there when it is outside. */
  const showRow = (h: Handsontable, sheetRow: number) => {
    const row = positionAt(sheetRow);
    if (row >= base.current && row < base.current + slab.current.length) return;
    const { first, last } = visibleRange(h);
    const rows = last - first + 1;
    showRows(Math.max(0, Math.min(row - Math.floor(rows / 3), shownRows() - rows)), rows);
  };
  /** Position `row` (the grid's: a sheet row without a filter) shown, the slab moved to hold it well inside (not within SLAB.edge, where scrolling would move it again). */
  const showNear = (h: Handsontable, row: number) => {
    const b = base.current;
    const length = slab.current.length;
    if ((row >= b + SLAB.edge || b === 0) && (row < b + length - SLAB.edge || b + length >= shownRows()) && row >= b && row < b + length) return;
    const { first, last } = visibleRange(h);
    const rows = last - first + 1;
    showRows(Math.max(0, Math.min(row - Math.floor(rows / 2), shownRows() - rows)), rows);
  };
  /** Own cells written outside Handsontable (rows not in the slab, or not read yet): into the windows held, and sent. */
  const sendOwn = (changes: CellChange[]) => {
    sheet.writeOwn(changes);
    on.current.onCellsChanged(changes);
  };
  const writeCells = (h: Handsontable, changes: CellChange[], source: string) => {
    if (changes.length === 0) return;
    const { top, bottom, left, right } = cellsBlock(changes);
    showRow(h, top);
    const through: [number, number, CellValue][] = [];
    const direct: CellChange[] = [];
    for (const change of changes) {
      // Rows the filter hides, or outside the slab: sent directly.
      const i = slabIndex(change.row);
      if (i >= 0 && i < slab.current.length && !placeholders.current.has(slab.current[i])) through.push([i, change.col, change.value]);
      else direct.push(change);
    }
    if (direct.length > 0) sendOwn(direct);
    if (through.length > 0) h.setDataAtCell(through, source);
    const first = positionAt(top) - base.current;
    const last = Math.min(positionAt(bottom + 1) - 1 - base.current, slab.current.length - 1);
    if (first >= 0 && first <= last) h.selectCell(first, left, last, right, true);
    h.render();
  };
  const undo = () => history(false);
  const redo = () => history(true);

  /** Work on every row of the sheet (whole columns): said while under way, and its failure. */
  const status = useRef<GridStatus>(null as unknown as GridStatus);
  status.current ??= new GridStatus();
  useEffect(() => () => status.current.stop(), []);
  const reading = () => WINDOWED_READ_TEXTS.reading(sheet.rowCount);
  /** The selection's whole columns (their headers clicked, Ctrl+A), else null: the sheet's, not the slab's rows. */
  const selectedColumns = (h: Handsontable) => wholeColumns(h.getSelectedRange(), gridCols());
  /**
   * A range the jump keys selected with Shift past the slab (Ctrl+Shift+End, Ctrl+Shift+Down): its
   * absolute rows, and the part of it Handsontable was given (the slab's), while that is still the selection.
   */
  const longRange = useRef<{ rows: RowRange; spans: ColumnSpan[]; selected: number[]; base: number } | null>(null);
  /**
   * What Copy, Cut and Delete take from the sheet rather than from the slab: whole columns (every
   * row), or a Shift-selected range longer than the slab holds (its rows); null: Handsontable's own.
   */
  const selectedBlock = (h: Handsontable): { spans: ColumnSpan[]; rows?: RowRange } | null => {
    const spans = selectedColumns(h);
    if (spans) return { spans };
    const long = longRange.current;
    const now = h.getSelectedLast();
    const same = long && now && (h.getSelectedRange()?.length ?? 0) === 1 && long.base === base.current && long.selected.every((v, i) => v === now[i]);
    return same ? { spans: long.spans, rows: long.rows } : null;
  };

  const clearWholeColumns = (spans: ColumnSpan[], rows?: RowRange) => {
    if (locked.current) return;
    // With a filter on, the rows it shows only (of `rows`, when a range).
    const v = view.current;
    const cleared = (v ? clearShownColumns(sheet, spans, v.runs(rows), sendOwn, () => locked.current, on.current.onCellsCleared) : clearColumns(sheet, spans, sendOwn, () => locked.current, rows, on.current.onCellsCleared)).catch(() => {
      throw new Error(WINDOWED_READ_TEXTS.unreadable);
    });
    void status.current.track(reading(), cleared).then((done) => done && hot()?.render());
  };
  /**
   * beforeCopy and beforeCut: with whole columns selected, every row of the sheet is copied
   * (copyColumns), not the slab's, and Handsontable's copy of the slab is cancelled (false); a Cut
   * then clears them as one undo step (a copy only when read-only). Other selections stay Handsontable's.
   */
  const copyWholeColumns = (cut: boolean): boolean => {
    const h = hot();
    const block = h && selectedBlock(h);
    if (!block) return true;
    // With a filter on, the rows it shows only (of the range's, when a range).
    const v = view.current;
    const runs = v?.runs(block.rows);
    void status.current.track(reading(), copyColumns(sheet, block.spans, cut && !locked.current, sendOwn, () => locked.current, undefined, block.rows, on.current.onCellsCleared, runs)).then(() => cut && hot()?.render());
    return false;
  };

  // Handsontable's shortcuts (its UndoRedo's, which is off here), doing sheet.undo's steps; Delete of whole columns.
  useEffect(() => {
    const h = hot();
    if (!h) return undefined;
    const stopUndo = addUndoKeys(h, undo, redo);
    const stopClear = addClearColumnKeys(
      h,
      () => selectedBlock(h)?.spans ?? null,
      () => {
        const block = selectedBlock(h);
        if (block) clearWholeColumns(block.spans, block.rows);
      },
    );
    // Ctrl+Arrow/Home/End to the sheet's rows, not the slab's (jump-keys.ts).
    const stopJump = addJumpKeys(
      h,
      jumper({
        hot: h,
        // In the grid's positions (with a filter on, the rows it shows: the jumps go over them only).
        base: () => base.current,
        length: () => slab.current.length,
        rowCount: shownRows,
        colCount: gridCols,
        rows: {
          rowAt: (p) => sheet.rowAt(rowOf(p)),
          read: readPositions,
          chunk: sheet.windows.size,
          reading: (rows, work) => void status.current.track(WINDOWED_READ_TEXTS.reading(rows), work),
        },
        show: (row) => showNear(h, row),
        report: (p, col, p2, col2) => {
          // Past the slab: kept, for Copy, Cut and Delete of all its rows (selectedBlock), at sheet rows (a filter's Delete clears the rows shown of them).
          const selected = h.getSelectedLast();
          const held = selected ? Math.abs(selected[2] - selected[0]) + 1 : 0;
          const [row, row2] = [rowOf(p), rowOf(p2)];
          longRange.current = selected && p2 - p + 1 > held ? { rows: { start: row, count: row2 - row + 1 }, spans: [{ left: col, right: col2 }], selected: [...selected], base: base.current } : null;
          on.current.onSelectRange?.(row, col, row2, col2);
        },
      }),
    );
    return () => {
      stopUndo();
      stopClear();
      stopJump();
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  /**
   * A cell being typed into when rows or columns moved under it (someone's op, a sync): the cell at
   * its absolute row where it is now, and the text typed, until its row is read again and the
   * editor opens there with it.
   */
  const resume = useRef<{ row: number; col: number; value: unknown; full: boolean } | null>(null);
  /** The open editor closed without saving (the slab's cell it would save into holds another row now): its cell and text. */
  const stopEditing = (h: Handsontable) => {
    const cell = editingCell(h);
    if (cell) h.getActiveEditor()?.cancelChanges();
    return cell;
  };
  /** The open editor's cell (at its sheet row, read before the rows shown change) and text, else null. */
  const editingCell = (h: Handsontable) => {
    const editor = h.getActiveEditor();
    if (!editor?.isOpened() || editor.row === null || editor.col === null) return null;
    return { row: rowOf(base.current + editor.row), col: editor.col, value: editor.getValue() as unknown, full: editor.isInFullEditMode() };
  };
  /** The editor opened again on the cell typed into, with its text, once its row is read (selected meanwhile). */
  const resumeEditing = (h: Handsontable) => {
    const cell = resume.current;
    if (!cell) return;
    const i = slabIndex(cell.row);
    if (i < 0 || i >= slab.current.length || cell.col >= h.countCols()) {
      resume.current = null;
      return;
    }
    const selected = h.getSelectedLast();
    if (!selected) h.selectCell(i, cell.col, i, cell.col, false);
    else if (selected[0] !== i || selected[1] !== cell.col || selected[2] !== i || selected[3] !== cell.col) {
      // The user went on while its row was read (Enter, Tab, a click: each commits an open editor):
      // the text is saved into it once read, as an edit (its undo step holds the value it replaced).
      if (placeholders.current.has(slab.current[i])) return;
      resume.current = null;
      h.setDataAtCell(i, cell.col, cell.value as CellValue, 'edit');
      return;
    }
    if (placeholders.current.has(slab.current[i])) return;
    resume.current = null;
    // Selected again: Handsontable prepares no editor for a read-only cell (the placeholder it was).
    h.selectCell(i, cell.col, i, cell.col, false);
    const editor = h.getActiveEditor();
    if (!editor) return;
    // In the mode it was in (F2 or a double click: arrows move in the text; else they commit it).
    if (cell.full) editor.enableFullEditMode();
    editor.beginEditing();
    editor.setValue(cell.value);
  };

  /** The sheet's row count when the windows last arrived: rows added past the end since are told apart. */
  const rowsShown = useRef(sheet.rowCount);
  // Windows that arrive fill their rows of the slab; rows or columns moved rebuild it.
  useEffect(() => {
    const refill = (reset: boolean, move?: StructureMove) => {
      const h = hot();
      if (!h) return;
      if (reset) {
        rowsShown.current = sheet.rowCount;
        const top = base.current + visibleRange(h).first;
        const editing = stopEditing(h);
        // (After the editor's cell is read: at its sheet row before the rows shown change.)
        rowFilter.windowsReset(move);
        // Someone's op moved it (or removed it: the text goes with the cell); a sync leaves it where it was.
        const moved = editing && move ? movedCell(editing, move) : editing;
        const from = Math.min(base.current, Math.max(0, shownRows() - SLAB.rows));
        const movedAt = moved ? positionAt(moved.row) : -1;
        if (editing && moved && (movedAt < from || movedAt >= from + SLAB.rows)) {
          // Moved out of the slab (many rows inserted or removed above it): the slab follows it, the
          // cell kept where it was on screen, else the editor has no row to open on and the text is lost.
          const { first, last } = visibleRange(h);
          showRows(Math.max(0, top + movedAt - positionAt(editing.row)), last - first + 1);
        } else rebase(from, top);
        if (moved) {
          resume.current = moved;
          resumeEditing(h);
        }
        return;
      }
      // Cells written past the last column widened the sheet: the grid shows the new columns.
      const cols = gridCols();
      if (h.countCols() < cols) {
        for (const row of slab.current) padded(row, cols);
        h.batch(() => {
          h.updateData(slab.current, 'updateData');
          h.updateSettings({ minCols: cols });
        });
      }
      let changed = false;
      let shownChanged = false;
      // Rows that arrive outside the rows drawn are drawn when scrolled to: no redraw for them (a read-ahead window).
      const firstDrawn = h.view.getFirstRenderedVisibleRow();
      const lastDrawn = h.view.getLastRenderedVisibleRow();
      const drawn = (i: number) => firstDrawn === null || lastDrawn === null || (i >= firstDrawn && i <= lastDrawn);
      const rows = slab.current;
      for (let i = 0; i < rows.length; i++) {
        const row = sheet.rowAt(rowOf(base.current + i));
        if (row && rows[i] !== row) {
          rows[i] = padded(row, cols);
          changed = true;
          if (drawn(i)) shownChanged = true;
        }
      }
      // Remote cells change the rows in place (no row replaced): drawn again.
      if (!changed || shownChanged) h.render();
      resumeEditing(h);
      // Rows added past the end (someone's paste) while the user sees the slab's last row, where the
      // grid scrolls no further: the slab moves to hold them, the selection kept on its cells.
      const endBefore = rowsShown.current;
      rowsShown.current = sheet.rowCount;
      if (!view.current && rows.length > 0 && base.current + rows.length === endBefore && endBefore < sheet.rowCount && lastDrawn !== null && lastDrawn >= rows.length - 1) {
        const selected = h.getSelectedLast();
        const from = Math.max(0, sheet.rowCount - SLAB.rows);
        const shift = from - base.current;
        const { first, last } = visibleRange(h);
        rebase(from, base.current + first);
        sheet.show(sheet.rowCount - (last - first + 1), sheet.rowCount - 1, SLAB.readAhead);
        if (selected && selected[0] - shift >= 0 && selected[2] - shift >= 0) h.selectCell(selected[0] - shift, selected[1], selected[2] - shift, selected[3], false);
      }
    };
    const stop = sheet.subscribe(refill);
    sheet.show(0, 100, SLAB.readAhead);
    reportGeometry();
    reportScroll();
    return stop;
  }, [sheet]); // eslint-disable-line react-hooks/exhaustive-deps

  // The user's row filter (filter/use-windowed-filter.ts): the rows it shows asked of the api, others' edits judged, row ops followed.
  const rowFilter = useWindowedFilter(
    sheet,
    filter,
    view,
    positions,
    {
      hot,
      visibleRange,
      base: () => base.current,
      rebase,
      slabAround,
      editingCell,
      resume: (h, cell) => {
        resume.current = cell;
        resumeEditing(h);
      },
      readAhead: SLAB.readAhead,
      track: (work) => status.current.track(reading(), work),
    },
    () => on.current.askFilter,
  );

  /** Absolute row `row` shown at the top (a chart's cell, asked for from the chat), the slab moved there when it is outside; `select`: its cell selected (find: the grid not made to listen, the find box keeps the keys). */
  const jumpTo = (row: number, col: number, select = false) => {
    const h = hot();
    if (!h) return;
    const { first, last } = visibleRange(h);
    const rows = last - first + 1;
    const top = Math.max(0, Math.min(positionAt(row), shownRows() - 1));
    showPositions(top, top + rows, SLAB.readAhead);
    if (top >= base.current && top < base.current + slab.current.length) h.scrollViewportTo({ row: top - base.current, col, verticalSnap: 'top' });
    else rebase(slabAround(top, rows), top);
    followGrid();
    if (select) h.selectCell(top - base.current, col, top - base.current, col, true, false);
  };

  /** Where the user is, at absolute rows: the session keeps it when a formula switches the sheet to whole. */
  const place = (): GridPlace | null => {
    const h = hot();
    if (!h) return null;
    const top = rowOf(base.current + visibleRange(h).first);
    const selected = h.getSelectedLast();
    // Headers selected (a negative index) are no cells to keep.
    const cells = selected && selected.every((i) => i >= 0) ? selected : null;
    return { top, selection: cells ? [rowOf(base.current + cells[0]), cells[1], rowOf(base.current + cells[2]), cells[3]] : null };
  };

  // The session draws others' selections through this grid while it is mounted (showPresence), and
  // the Workspace scrolls it to a chart's cell.
  useEffect(() => {
    if (!link) return;
    const shared = gridLink(link);
    const h = hot();
    shared.hot = h;
    shared.jumpTo = jumpTo;
    shared.place = place;
    const rowShown = (row: number) => !view.current || view.current.positionOf(row) >= 0;
    shared.rowShown = rowShown;
    const filterSettled = rowFilter.settled;
    shared.filterSettled = filterSettled;
    return () => {
      if (shared.rowShown === rowShown) shared.rowShown = null;
      if (shared.filterSettled === filterSettled) shared.filterSettled = null;
      if (shared.hot === h) shared.hot = null;
      if (shared.jumpTo === jumpTo) shared.jumpTo = null;
      if (shared.place === place) shared.place = null;
    };
  }, [link]); // eslint-disable-line react-hooks/exhaustive-deps
  // Each drawn cell: others' selections, then the find bar's marks (a formula by its text, as this grid shows it and the api finds).
  const drawn = useMemo(
    () =>
      link || findMarks
        ? (td: HTMLTableCellElement, row: number, col: number, _prop: string | number, value: unknown) => {
            if (link) drawPresence(link, td, rowOf(base.current + row), col);
            findMarks?.draw(td, rowOf(base.current + row), col, value);
          }
        : undefined,
    [link, findMarks],
  );
  useEffect(() => findMarks?.subscribe(() => hot()?.render()), [findMarks]); // eslint-disable-line react-hooks/exhaustive-deps

  // More differences known (a window compared): drawn again.
  useEffect(() => highlight?.subscribe(() => hot()?.render()), [highlight]); // eslint-disable-line react-hooks/exhaustive-deps

  /**
   * A paste Handsontable would drop rows of (past the slab's end or the sheet's, or over rows not
   * read yet: pasteOutsideSlab) is made here instead, whole (pasteCells: one undo step); then the
   * slab is drawn again (the sheet may be longer or wider now) and the pasted block's rows in it
   * selected, the slab moved to the sheet's new end when the paste grew it from there. True when the
   * paste is taken (Handsontable's is cancelled); the slab's own pastes stay Handsontable's.
   */
  const pasteBeyondSlab = (data: unknown[][]): boolean => {
    const h = hot();
    const at = h?.getSelectedRangeActive()?.getTopStartCorner();
    if (!h || !at || at.row === null || at.col === null || at.row < 0 || at.col < 0 || locked.current) return false;
    const rows = { base: base.current, length: slab.current.length, unread: (i: number) => placeholders.current.has(slab.current[i]) };
    if (!pasteOutsideSlab(rows, at.row, data.length)) return false;
    const end = sheet.rowCount;
    const atEnd = base.current + slab.current.length >= shownRows();
    // With a filter on, into the rows it shows (past the last of them, the rows after the sheet's end).
    const v = view.current;
    const from = base.current + at.row;
    const rowAtOffset = (k: number) => positions.pastedRowAt(from, k, end);
    const top = rowAtOffset(0);
    const offsets = v ? data.map((_, k) => rowAtOffset(k) - top) : undefined;
    void pasteCells(sheet, top, at.col, data, sendOwn, () => locked.current, offsets).then((block) => {
      if (!block) return;
      // Rows the paste added past the sheet's end are shown (unjudged, as own inserts).
      if (v && view.current === v && block.bottom >= end) v.rowsInserted(end, block.bottom - end + 1);
      showPasted(block, atEnd && block.bottom >= end);
    });
    return true;
  };
  /** A paste made by pasteBeyondSlab shown: its rows in the slab selected; `grown` (it ran past the sheet's end from the slab there): the slab at the new end. */
  const showPasted = ({ top, left, bottom, right }: PastedBlock, grown: boolean) => {
    const h = hot();
    if (!h) return;
    const { first, last } = visibleRange(h);
    if (view.current) {
      // With a filter on: the slab around the block's first row shown, its rows shown selected.
      const pTop = positionAt(top);
      const pBottom = positionAt(bottom + 1) - 1;
      showRows(Math.max(0, Math.min(pTop, shownRows() - (last - first + 1))), last - first + 1);
      const inSlab = (p: number) => Math.max(0, Math.min(p - base.current, slab.current.length - 1));
      if (pBottom >= pTop) h.selectCell(inSlab(pTop), left, inSlab(pBottom), right, false);
      return;
    }
    if (grown) {
      // The rows past the old end are read (as any window) once shown.
      const from = Math.max(0, sheet.rowCount - SLAB.rows);
      const shownTop = Math.max(from, bottom - (last - first));
      sheet.show(shownTop, bottom, SLAB.readAhead);
      rebase(from, shownTop);
    } else rebase(base.current, base.current + first);
    const slabEnd = base.current + slab.current.length - 1;
    if (top >= base.current && top <= slabEnd) h.selectCell(top - base.current, left, Math.min(bottom, slabEnd) - base.current, right, false);
  };

  /**
   * An own row or column op sent: with a filter on, the rows shown follow a row op now (inserted rows
   * shown, unjudged, as the whole grid's) and a column's filter moves with its column.
   */
  const ownStructure = (change: StructureChange, undo?: number) => {
    rowFilter.ownStructure(change);
    on.current.onStructureChanged(change, undo);
  };
  /** The menu's row insert or remove at slab rows: at sheet rows; removed rows shown only, a run of adjacent ones at a time from the bottom (a filter's rows are not one run). */
  const menuRows = (change: StructureChange) => {
    const top = base.current + change.index;
    if (!view.current || change.amount > 0) return ownStructure({ ...change, index: rowOf(top) });
    const groups: [number, number][] = [];
    for (let p = top; p < top - change.amount; p++) {
      const row = rowOf(p);
      const last = groups.at(-1);
      if (last && last[0] + last[1] === row) last[1]++;
      else if (row >= 0) groups.push([row, 1]);
    }
    // One step for the user (one Ctrl+Z inserts each run again, each naming its own remove).
    sheet.undo.together(() => {
      for (const [row, count] of groups.reverse()) ownStructure({ axis: 'row', index: row, amount: -count });
    });
  };

  const menu = useMemo(
    () =>
      contextMenu(
        readOnly,
        on.current.onCellHistory ? (row, col) => on.current.onCellHistory?.(rowOf(base.current + row), col) : null,
        // The slab's rows are not changed here: the session sends the op and the windows are read again once the server has it.
        // A remove goes at once (its cells are not read first: the server undoes it by its version).
        (change) => (change.axis === 'row' ? menuRows(change) : ownStructure(change)),
        { undo, redo, canUndo: () => sheet.undo.canUndo(), canRedo: () => sheet.undo.canRedo() },
        on.current.onSortRows ? (column, direction) => on.current.onSortRows?.(column, direction) : undefined,
        // The api judges the rows (they are not all here): the dialog lists a column's values from it too.
        filter ? { open: (column) => on.current.onFilterColumn?.(column) } : undefined,
        // Frozen rows would be the slab's first rows: only columns freeze here, the row entry says why.
        freeze ? menuFreeze(freeze, headers, FREEZE_TEXTS.rowsWindowed) : undefined,
      ),
    [readOnly, freeze, headers, filter],
  );
  // The freeze set from the menu, or moved by a column op (the session, once the slab has the columns moved): drawn at once.
  useEffect(() => {
    if (!freeze) return undefined;
    return freeze.subscribe(() => {
      const h = hot();
      if (h) applyFreeze(h, freeze, false);
    });
  }, [freeze]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div data-testid="sheet-grid" data-windowed="on" data-formulas="off" style={{ position: 'absolute', inset: 0, overflow: 'hidden', display: 'flex' }}>
      <div style={{ position: 'relative', flex: 1, minWidth: 0 }}>
        {highlight && <style>{HIGHLIGHT_STYLE}</style>}
        {findMarks && <style>{FIND_MARK_STYLE}</style>}
        {filter && <style>{FILTER_MARK_STYLE}</style>}
        <HotTable
          ref={ref}
          // The slab held now: a re-render (read-only mode changed) loads the same rows again.
          data={slab.current}
          themeName="ht-theme-main"
          licenseKey={HANDSONTABLE_LICENSE_KEY}
          rowHeaders={(index: number) => String(rowOf(base.current + index) + 1)}
          rowHeaderWidth={80}
          colHeaders={(index: number) => escapeHtml(headerLabel(headers.current, index))}
          colWidths={COLUMN_WIDTH}
          minCols={gridCols()}
          maxRows={SLAB.rows}
          // Its steps name slab rows: undo and redo are sheet.undo's (history above).
          undo={false}
          contextMenu={menu}
          // Read at each render: the columns frozen now (their changes between renders: the effect above).
          {...frozenSettings(freeze, false)}
          // Said either way: Handsontable keeps a cell's meta, so a placeholder's readOnly (or a
          // highlight) would outlive its row's arrival (or the slab's move).
          cells={(row: number, col: number) => ({
            readOnly: readOnly || placeholders.current.has(slab.current[row]),
            className: highlight?.has(rowOf(base.current + row), col) ? HIGHLIGHT_CLASS : '',
          })}
          manualColumnResize
          stretchH="all"
          height="100%"
          width="100%"
          readOnly={readOnly}
          outsideClickDeselects={false}
          beforeChange={typeCellEdits}
          beforePaste={(data) => !pasteBeyondSlab(data)}
          beforeCopy={() => copyWholeColumns(false)}
          beforeCut={() => copyWholeColumns(true)}
          afterChange={(changes, source) => {
            // With a filter on, each slab row stands for its own sheet row (no one offset).
            const v = view.current;
            const at = v && changes ? changes.map(([row, ...rest]): Handsontable.CellChange => [v.rowAt(base.current + row), ...rest]) : changes;
            const offset = v ? 0 : base.current;
            sheet.undo.record(ownStep(at, source, offset));
            const cells = cellEdits(at, source, offset);
            if (cells.length > 0) on.current.onCellsChanged(cells);
          }}
          afterRenderer={drawn}
          // The filtered columns' headers marked, as on the whole grid.
          afterGetColHeader={filter ? (col: number, th: HTMLTableCellElement) => col >= 0 && markFilteredHeader(th, filter.columns.has(col)) : undefined}
          afterScrollVertically={followGrid}
          afterScrollHorizontally={reportScroll}
          afterSelectionEnd={(row, col, row2, col2) => {
            // A column header's click selects the slab's rows: the sheet's whole column is meant.
            on.current.onSelectRange?.(row < 0 ? -1 : rowOf(base.current + row), col, row < 0 ? sheet.rowCount - 1 : rowOf(base.current + row2), col2);
            if (row >= 0 && col >= 0) on.current.onSelect(rowOf(base.current + row), col);
          }}
        />
        <GridStatusLine status={status.current} />
      </div>
      <div ref={bar} data-testid="row-scrollbar" aria-label="Rows" onScroll={followBar} style={{ width: 16, flex: 'none', overflowY: 'scroll', overflowX: 'hidden' }}>
        <div style={{ height: BAR_HEIGHT_PX, width: 1 }} />
      </div>
    </div>
  );
},
// The handlers change with the session's state: read through `on`, they do not re-render the grid (which would reload its data).
(a, b) => a.sheet === b.sheet && a.headers === b.headers && a.readOnly === b.readOnly && a.highlight === b.highlight && a.findMarks === b.findMarks && a.freeze === b.freeze && a.filter === b.filter);
