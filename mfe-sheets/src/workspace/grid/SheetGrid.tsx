import { HotTable, type HotTableRef } from '@handsontable/react-wrapper';
import {
  FILTER_TEXTS,
  HANDSONTABLE_LICENSE_KEY,
  NEW_SHEET_EDITOR_DEFAULT,
  type CellChange,
  type CellValue,
  type GridData,
  type SortDirection,
} from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { cellEdits, typeCellEdits } from './cell-edits.js';
import type { FormulaEngine } from './formula-engine.js';
import { contextMenu } from './context-menu.js';
import { fillFormulas } from './formulas/fill-formulas.js';
import { formulaInputs } from './formulas/formula-inputs.js';
import { FIND_MARK_STYLE, type FindMarks } from '../find/find-marks.js';
import { applyFilter, dropHiddenRowChanges, recount, refilterRows } from '../filter/grid-filter.js';
import { sheetFilter } from '../filter/sheet-filter.js';
import { applyFreeze, frozenSettings, menuFreeze } from '../freeze/grid-freeze.js';
import type { SheetFreeze } from '../freeze/sheet-freeze.js';
import { formulaRenderer, shownValue } from './formulas/formula-renderer.js';
import { FormulaValues } from './formulas/formula-values.js';
import { gridLink, LIVE_SOURCE } from './grid-link.js';
import { addJumpKeys, jumper, wholeJumpGrid } from './jump-keys.js';
import { registerGridModules } from './grid-modules.js';
import { escapeHtml, headerLabel } from './grid-shape.js';
import { dropDeferredCells, liveGridHooks } from './live-grid.js';
import { gridUndo, removedGridCells, undoInGrid } from '../undo/grid-undo.js';
import { addUndoKeys } from '../undo/undo-keys.js';
import { moveOfChange, ownStep, REDO_SOURCE, UNDO_SOURCE, type UndoStep } from '../undo/undo-stack.js';
import type { StructureMove } from '../windowed/moved-rows.js';

registerGridModules();

/** Fixed column width: it keeps AutoColumnSize from reading every row (0.23 s instead of 2.5 s on 100k rows). */
export const COLUMN_WIDTH = 120;

/**
 * From this many rows the grid is built in steps, each a task of its own (issue 23: opening a sheet
 * of 50,000 rows blocked the page for 0.7 s in one task): the Workspace is drawn first, Handsontable
 * with the rows in the next task, manual row resizing in the one after. Row resizing makes
 * Handsontable read every row's height (its modifyRowHeight hook) instead of taking them as one
 * uniform height; enabled once the rows are shown, that walk is a task of its own too.
 */
export const STEPPED_GRID_MIN_ROWS = 2_000;

export type StructureChange = { axis: 'row' | 'col'; index: number; amount: number };

export interface SheetGridProps {
  /** The rows, edited in place by the grid; a new array means a new sheet (or a reload). */
  data: GridData;
  /** Read at each render of the header row, so renamed or shifted headers show without reloading the grid. */
  headers: { current: string[] };
  /** Starts the formula worker when the sheet holds formulas, else null (plain sheets never load HyperFormula). */
  formulaEngine: FormulaEngine | null;
  readOnly?: boolean;
  /** Cells to highlight (a version preview: the cells that differ from the live version). */
  highlight?: ((row: number, col: number) => boolean) | null;
  /** The find bar's marks (its matches among the drawn cells): the grid draws them, and again when they change. */
  findMarks?: FindMarks | null;
  /** The context menu's 'Cell history' entry opens that cell's history. */
  onCellHistory?(row: number, col: number): void;
  onCellsChanged(changes: CellChange[]): void;
  onStructureChanged(change: StructureChange): void;
  /** The context menu's 'Sort sheet A → Z' / 'Z → A' (only when given and not read-only): the rows sorted by that column on the server. */
  onSortRows?(column: number, direction: SortDirection, history?: { undo?: number }): void;
  /** The context menu's 'Filter by this column…' (only when given): the user's row filter's dialog for that column (filter/). */
  onFilterColumn?(column: number): void;
  /**
   * The user's frozen rows and columns (freeze/): drawn by the grid, and set by its menu's 'Freeze up to
   * column X' / 'Freeze up to row N' / 'Unfreeze' (only when given: the live sheet's grid, not a preview).
   */
  freeze?: SheetFreeze | null;
  onSelect(row: number, col: number): void;
  /** The selected range, corners in any order (a header click selects a whole row or column: -1 for its start). */
  onSelectRange?(row: number, col: number, row2: number, col2: number): void;
  /** The grid's scroll, in pixels, on every scroll and once the grid is shown (the charts follow their cells). */
  onScroll?(left: number, top: number): void;
  /** The grid is mounted and linked to its rows (gridLink): what reads through it (the charts' formula values) reads again. */
  onLinked?(): void;
  /** Values of its formulas arrived from the worker (gridLink(data).formulas): the charts read them again. */
  onFormulaValues?(): void;
  /**
   * The sheet has more cells than the formula engine takes (FormulaValues.overLimit: their count),
   * or null again (fewer rows synced in, the grid gone): the Workspace tells the user why its
   * formulas show as text.
   */
  onFormulasOverLimit?(cells: number | null): void;
}

// 'auto': rows and columns the grid adds itself to keep the editor's shape, not the user's.
const NOT_STRUCTURE_EDITS = new Set<string | undefined>(['auto', LIVE_SOURCE]);
const NOT_REMOVE_STEPS = new Set<string | undefined>([...NOT_STRUCTURE_EDITS, UNDO_SOURCE, REDO_SOURCE]);

/** The class of a highlighted cell (its style is in HIGHLIGHT_STYLE). */
export const HIGHLIGHT_CLASS = 'tessera-cell-changed';
// !important: read-only cells get their background from Handsontable's `.htDimmed` rule, itself !important.
export const HIGHLIGHT_STYLE = `.handsontable td.${HIGHLIGHT_CLASS} { background-color: #fde68a !important; }`;

/** HiddenRows as the row filter uses it: copy and paste skip the hidden rows (they take the rows shown). */
const FILTER_HIDDEN_ROWS = { copyPasteEnabled: false, indicators: false, rows: [] };

/**
 * A filtered column's header: marked by an attribute (its mark drawn by CSS after the label), not by
 * HTML in the label, which Handsontable would write unsanitized (and warn of).
 */
export const FILTER_MARK_ATTRIBUTE = 'data-filtered';
/** A funnel drawn, not a character: a symbol such as ⏷ is missing from many Linux fonts (a box is shown instead). */
const FILTER_MARK_ICON = `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath fill='%232563eb' d='M1 2h14l-5.5 6.5V14l-3-1.5V8.5z'/%3E%3C/svg%3E")`;
export const FILTER_MARK_STYLE = `.handsontable th[${FILTER_MARK_ATTRIBUTE}] .colHeader::after { content: ''; display: inline-block; width: 10px; height: 10px; margin-left: 4px; vertical-align: -1px; background: ${FILTER_MARK_ICON} center / contain no-repeat; }`;
/** Marks (or unmarks: header cells are reused as the grid scrolls) a column header as filtered. */
export function markFilteredHeader(th: HTMLTableCellElement, filtered: boolean): void {
  if (filtered) {
    th.setAttribute(FILTER_MARK_ATTRIBUTE, '');
    th.title = FILTER_TEXTS.headerMarkTitle;
  } else if (th.hasAttribute(FILTER_MARK_ATTRIBUTE)) {
    th.removeAttribute(FILTER_MARK_ATTRIBUTE);
    th.removeAttribute('title');
  }
}

/**
 * The Handsontable grid. It re-renders only when the data, engine or read-only mode change:
 * the wrapper hands every prop to updateSettings on each render, and `data` there would
 * reload the whole grid.
 */
export const SheetGrid = memo(
  function SheetGrid({ data, headers, formulaEngine, readOnly = false, highlight = null, findMarks = null, freeze = null, ...handlers }: SheetGridProps) {
    const ref = useRef<HotTableRef>(null);
    // The latest handlers, so the grid's hooks (bound once) always call the current ones.
    const on = useRef(handlers);
    on.current = handlers;
    // A large sheet's grid is built a step per task (STEPPED_GRID_MIN_ROWS); a small one at once.
    // Decided once per rows array: a sync replaces the rows in the same array.
    const stepped = useMemo(() => data.length >= STEPPED_GRID_MIN_ROWS, [data]);
    const [mountedFor, setMountedFor] = useState<GridData | null>(null);
    const mounted = !stepped || mountedFor === data;
    useEffect(() => {
      if (!stepped) return;
      if (!mounted) {
        const timer = setTimeout(() => setMountedFor(data), 0);
        return () => clearTimeout(timer);
      }
      // Set on the instance, not as a prop: a render of the wrapper hands Handsontable its props
      // again, the rows among them, which it would load again (as long as the walk itself).
      const timer = setTimeout(() => {
        const hot = ref.current?.hotInstance;
        if (hot && !hot.isDestroyed) hot.updateSettings({ manualRowResize: true });
      }, 0);
      return () => clearTimeout(timer);
    }, [data, stepped, mounted]);

    // What the Workspace was last told of the formulas' cells past the bound: told again only when it changes.
    const toldOverLimit = useRef<number | null>(null);
    const tellOverLimit = (cells: number | null) => {
      if (cells === toldOverLimit.current) return;
      toldOverLimit.current = cells;
      on.current.onFormulasOverLimit?.(cells);
    };
    // Formulas are computed in a worker (formulas/); the grid's rows keep their text, the renderer shows their values.
    const formulas = useMemo(
      () => {
        if (!formulaEngine) return null;
        const values: FormulaValues = new FormulaValues(formulaEngine, data, () => {
          const hot = ref.current?.hotInstance;
          if (hot && !hot.isDestroyed) hot.render();
          // A filter judged before the values came is judged again once they are all in (once: later values are edits').
          const filter = sheetFilter(data);
          if (filter.judgedBeforeValues && values.state === 'ready') filter.reapply?.();
          on.current.onFormulaValues?.();
          tellOverLimit(values.overLimit);
        });
        return values;
      },
      // eslint-disable-next-line react-hooks/exhaustive-deps -- tellOverLimit reads refs only
      [formulaEngine, data],
    );
    const renderer = useMemo(() => (formulas ? formulaRenderer(formulas) : undefined), [formulas]);

    // The session applies other users' changes through this grid while it is mounted.
    useEffect(() => {
      if (!mounted) return;
      const link = gridLink(data);
      const hot = ref.current?.hotInstance ?? null;
      link.hot = hot;
      link.formulas = formulas;
      formulas?.start();
      // The user's row filter: applied by this grid while it shows the rows (again when it mounts anew: the Code tab and back).
      const filter = sheetFilter(data);
      if (hot && withFilterRef.current) {
        filter.reapply = () => {
          if (hot.isDestroyed) return;
          // HiddenRows is turned on with the first filter (a grid never filtered pays nothing for it), on the
          // instance rather than as a prop: each render of the wrapper would hand it over again, which
          // restarts the plugin and shows every row.
          if (!hot.getPlugin('hiddenRows').enabled) hot.updateSettings({ hiddenRows: FILTER_HIDDEN_ROWS });
          applyFilter(hot, data, formulas);
          hot.render();
        };
        if (filter.active) filter.reapply();
      }
      on.current.onLinked?.();
      return () => {
        if (filter.reapply && link.hot === hot) filter.reapply = null;
        formulas?.dispose();
        tellOverLimit(null);
        if (link.hot === hot) link.hot = null;
        if (link.formulas === formulas) link.formulas = null;
      };
    }, [data, formulas, mounted]);
    const live = useMemo(() => liveGridHooks(data), [data]);
    // Each drawn cell: others' selections, then the find bar's marks by the text it shows (a formula's value).
    const afterRenderer = useMemo(
      () =>
        findMarks
          ? (td: HTMLTableCellElement, row: number, col: number, _prop: string | number, value: unknown) => {
              live.afterRenderer(td, row, col);
              findMarks.draw(td, row, col, shownValue(formulas, value, row, col));
            }
          : live.afterRenderer,
      [live, findMarks, formulas],
    );
    useEffect(() => {
      if (!mounted || !findMarks) return;
      return findMarks.subscribe(() => {
        const hot = ref.current?.hotInstance;
        if (hot && !hot.isDestroyed) hot.render();
      });
    }, [findMarks, mounted]);

    // The master table's scrolling box: the one the cells move in.
    const reportScroll = () => {
      const holder = ref.current?.hotInstance?.rootElement.querySelector<HTMLElement>('.ht_master .wtHolder');
      on.current.onScroll?.(holder?.scrollLeft ?? 0, holder?.scrollTop ?? 0);
    };
    // A new grid starts at its top left (a preview, a reload): whatever follows the scroll starts there too.
    useEffect(reportScroll, [data]);

    /**
     * Undo and redo are the loaded sheet's stack (gridUndo, as on the windowed grid), not Handsontable's
     * UndoRedo (not registered): its steps kept the rows and columns they were made at, so once someone else
     * inserted rows above an edit its undo wrote into their cells.
     */
    const sheetRows = useRef(data);
    sheetRows.current = data;
    const locked = useRef(readOnly);
    locked.current = readOnly;
    const history = useMemo(() => {
      const run = (redo: boolean) => {
        const hot = ref.current?.hotInstance;
        if (hot && !hot.isDestroyed && !locked.current) undoInGrid(hot, gridUndo(sheetRows.current), redo, (column, direction, how) => on.current.onSortRows?.(column, direction, how));
      };
      return { undo: () => run(false), redo: () => run(true), canUndo: () => gridUndo(sheetRows.current).canUndo(), canRedo: () => gridUndo(sheetRows.current).canRedo() };
    }, []);
    // Handsontable's shortcuts (its UndoRedo's; Ctrl+Arrow to the data block's edge: jump-keys.ts), on each grid instance.
    useEffect(() => {
      const hot = ref.current?.hotInstance;
      if (!mounted || !hot || hot.isDestroyed) return undefined;
      const stopUndo = addUndoKeys(hot, history.undo, history.redo);
      const stopJump = addJumpKeys(hot, jumper(wholeJumpGrid(hot, () => sheetRows.current)));
      return () => {
        stopUndo();
        stopJump();
      };
    }, [data, mounted, history]);
    // The cells an own remove takes, read before it (afterRemove* no longer has them); an undo's or redo's is no step.
    const removing = useRef<UndoStep | null>(null);
    const beforeRemove = (move: StructureMove, source: string | undefined) => {
      removing.current = NOT_REMOVE_STEPS.has(source) ? null : removedGridCells(data, move);
    };

    const withHistory = handlers.onCellHistory !== undefined;
    const withSort = handlers.onSortRows !== undefined;
    const withFilter = handlers.onFilterColumn !== undefined;
    const withFilterRef = useRef(withFilter);
    withFilterRef.current = withFilter;
    const menu = useMemo(
      () =>
        contextMenu(
          readOnly,
          withHistory ? (row, col) => on.current.onCellHistory?.(row, col) : null,
          undefined,
          history,
          withSort ? (column, direction) => on.current.onSortRows?.(column, direction) : undefined,
          withFilter ? { open: (column) => on.current.onFilterColumn?.(column), together: (run) => gridUndo(sheetRows.current).together(run) } : undefined,
          freeze ? menuFreeze(freeze, headers) : undefined,
        ),
      [readOnly, withHistory, history, withSort, withFilter, freeze, headers],
    );
    // The freeze set from the menu, or moved by a row or column op (the session): drawn at once.
    useEffect(() => {
      if (!mounted || !freeze) return undefined;
      return freeze.subscribe(() => {
        const hot = ref.current?.hotInstance;
        if (hot) applyFreeze(hot, freeze, true);
      });
    }, [freeze, mounted]);
    const cells = useMemo(() => (highlight ? (row: number, col: number) => (highlight(row, col) ? { className: HIGHLIGHT_CLASS } : {}) : undefined), [highlight]);

    /**
     * Rows or columns inserted or removed: the formulas' references move with them, whoever did it;
     * only the user's are sent. The undo steps move too (others' ops move them in applyRemoteStructure,
     * shown or not); the user's own insert or remove is a step (not one an undo or redo makes: undoInGrid).
     */
    const structureChanged = (change: StructureChange, source: string | undefined) => {
      formulas?.structure(change.axis, change.index, change.amount);
      filterStructure(change, source);
      if (source !== LIVE_SOURCE) {
        const move = moveOfChange(change);
        const removed = removing.current;
        removing.current = null;
        // Spare rows or columns the grid adds itself ('auto') move the steps but are none.
        if (source === 'auto') gridUndo(data).moved(move);
        else gridUndo(data).own(move, () => removed);
      }
      if (!NOT_STRUCTURE_EDITS.has(source)) on.current.onStructureChanged(change);
    };

    /**
     * The row filter follows the rows: hidden rows keep their state as rows move (HiddenRows' map moves
     * with them); rows others insert are judged (refilterRows), the user's own stay shown; a filtered
     * column moves with its column, or goes with it (every row judged again).
     */
    const filterStructure = (change: StructureChange, source: string | undefined) => {
      const hot = ref.current?.hotInstance;
      const filter = sheetFilter(data);
      if (!hot || hot.isDestroyed || !filter.active) return;
      if (change.axis === 'col') {
        if (filter.columnsMoved(change.index, change.amount)) filter.reapply?.();
      } else if (source === LIVE_SOURCE && change.amount > 0) {
        refilterRows(hot, data, formulas, Array.from({ length: change.amount }, (_, i) => change.index + i));
      } else recount(hot, data);
    };
    /** Cells changed: others' are judged again when they are in a filtered column (refilterRows says why); the user's only counted. */
    const filterCells = (changes: Handsontable.CellChange[] | null, source: string) => {
      const hot = ref.current?.hotInstance;
      const filter = sheetFilter(data);
      if (!changes || !hot || hot.isDestroyed || !filter.active) return;
      if (source === LIVE_SOURCE) refilterRows(hot, data, formulas, changes.filter((c) => filter.columns.has(c[1] as number)).map((c) => c[0]));
      else recount(hot, data);
    };
    const rowsReplaced = () => {
      if (sheetFilter(data).active) sheetFilter(data).reapply?.();
    };

    // The rows go to Handsontable only when they are another array than the one it holds. The wrapper
    // hands every prop to updateSettings on each render, and Handsontable takes `data` again even when
    // it is the same array: every row mapped again and every formula recomputed (their values blank
    // meanwhile) when the grid only turned read-only (a version preview) or highlighted cells.
    const held = useRef<GridData | null>(null);
    useLayoutEffect(() => {
      held.current = mounted ? data : null;
    });
    const rows = held.current === data ? {} : { data };

    // Absolutely placed in the Workspace's positioned box: Handsontable needs a definite height.
    return (
      <div data-testid="sheet-grid" data-formulas={formulaEngine ? 'on' : 'off'} style={{ position: 'absolute', inset: 0, overflow: 'hidden' }}>
        {highlight && <style>{HIGHLIGHT_STYLE}</style>}
        {findMarks && <style>{FIND_MARK_STYLE}</style>}
        {withFilter && <style>{FILTER_MARK_STYLE}</style>}
        {mounted && <HotTable
          ref={ref}
          {...rows}
          themeName="ht-theme-main"
          licenseKey={HANDSONTABLE_LICENSE_KEY}
          rowHeaders
          // Handsontable writes the label as HTML: escaped, a header shows as its text.
          colHeaders={(index: number) => escapeHtml(headerLabel(headers.current, index))}
          afterGetColHeader={withFilter ? (col: number, th: HTMLTableCellElement) => col >= 0 && markFilteredHeader(th, sheetFilter(data).columns.has(col)) : undefined}
          colWidths={COLUMN_WIDTH}
          // The editor's shape for small sheets (spec 01 §9): spare cells, stored only once typed into.
          minRows={NEW_SHEET_EDITOR_DEFAULT.rows}
          minCols={NEW_SHEET_EDITOR_DEFAULT.columns}
          contextMenu={menu}
          // Read at each render: the freeze as it is now (its changes between renders: the effect above).
          {...frozenSettings(freeze, true)}
          cells={cells}
          manualColumnResize
          // A large sheet's: set once its rows are shown (above).
          manualRowResize={!stepped}
          stretchH="all"
          height="100%"
          width="100%"
          readOnly={readOnly}
          outsideClickDeselects={false}
          // Undo and redo are gridUndo's (history above): Handsontable's steps do not follow others' rows.
          undo={false}
          // The native renderer setting (the wrapper's `renderer` prop takes a React component).
          hotRenderer={renderer}
          // A filled formula's references move with it, as the Formulas plugin had HyperFormula move them.
          beforeAutofill={formulas ? (fill, sourceRange, targetRange) => fillFormulas(fill, sourceRange, targetRange) as CellValue[][] | undefined : undefined}
          {...live}
          afterRenderer={afterRenderer}
          beforeChange={(changes, source) => {
            const hot = ref.current?.hotInstance;
            if (hot) dropHiddenRowChanges(hot, data, changes, source);
            typeCellEdits(changes, source);
          }}
          afterChange={(changes, source) => {
            gridUndo(data).record(ownStep(changes, source, 0));
            filterCells(changes, source);
            formulas?.cells(formulaInputs(changes, source));
            const cells = cellEdits(changes, source);
            if (cells.length === 0) return;
            dropDeferredCells(data, cells);
            on.current.onCellsChanged(cells);
          }}
                // The rows replaced (a sync, a sort): the formulas read them again, the filter judges them again.
          afterUpdateData={(_data, firstRun) => {
            if (firstRun) return;
            formulas?.reload();
            rowsReplaced();
          }}
          afterLoadData={(_data, firstRun) => {
            if (firstRun) return;
            formulas?.reload();
            rowsReplaced();
          }}
          beforeRemoveRow={(index, amount, _rows, source) => beforeRemove({ type: 'rows_remove', index, count: amount }, source)}
          beforeRemoveCol={(index, amount, _cols, source) => beforeRemove({ type: 'columns_remove', index, count: amount }, source)}
          afterCreateRow={(index, amount, source) => structureChanged({ axis: 'row', index, amount }, source)}
          afterRemoveRow={(index, amount, _rows, source) => structureChanged({ axis: 'row', index, amount: -amount }, source)}
          afterCreateCol={(index, amount, source) => structureChanged({ axis: 'col', index, amount }, source)}
          afterRemoveCol={(index, amount, _cols, source) => structureChanged({ axis: 'col', index, amount: -amount }, source)}
          afterScrollVertically={reportScroll}
          afterScrollHorizontally={reportScroll}
          afterSelectionEnd={(row, col, row2, col2) => {
            on.current.onSelectRange?.(row, col, row2, col2);
            // Header clicks select with -1: not a cell.
            if (row >= 0 && col >= 0) on.current.onSelect(row, col);
          }}
        />}
      </div>
    );
  },
  (a, b) => a.data === b.data && a.formulaEngine === b.formulaEngine && a.readOnly === b.readOnly && a.headers === b.headers && a.highlight === b.highlight && a.findMarks === b.findMarks && a.freeze === b.freeze,
);
