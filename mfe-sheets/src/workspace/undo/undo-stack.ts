import { type CellChange, type CellValue, type ClearBlock, SHEET_MAX_ROWS, type SortDirection, clearBlocksThrough, isInsertStructure, isRowStructure } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { LIVE_SOURCE } from '../grid/grid-link.js';
import { toCellValue } from '../grid/grid-shape.js';
import type { StructureChange } from '../grid/SheetGrid.js';
import type { StructureMove } from '../windowed/moved-rows.js';

/** The sources a grid writes an undo or redo with (Handsontable's own names: the cells are sent like any edit). */
export const UNDO_SOURCE = 'UndoRedo.undo';
export const REDO_SOURCE = 'UndoRedo.redo';
/**
 * Changes that are not a step of the user's: (re)loading the rows, others' changes, undo and redo
 * themselves, and 'auto' (as Handsontable's UndoRedo.done() leaves out).
 */
const NOT_STEPS = new Set<string>(['loadData', 'updateData', LIVE_SOURCE, UNDO_SOURCE, REDO_SOURCE, 'auto']);

/** Steps kept (the oldest dropped first): Excel's default depth; Handsontable's own stack has no bound. */
export const UNDO_STEPS_MAX = 100;
/** Cells kept across the steps (a paste of a whole slab is 10,000 rows × its columns): the oldest steps dropped first, the newest always kept. */
export const UNDO_CELLS_MAX = 500_000;
/**
 * Cells of one step at most: a whole column of the largest sheet, so a Delete or Cut of one column
 * of a million rows can be undone by its cells (as the only step kept). A step past it (several such
 * columns: tens of megabytes of undo per column) cannot be undone: the stack is cleared (record, own).
 * A windowed sheet's removes hold no cells (the server undoes them: Step.removal), whatever their size.
 */
export const UNDO_STEP_CELLS_MAX = SHEET_MAX_ROWS;

/** A cell the user changed, at its absolute row: its value before and after. */
export interface UndoCell {
  row: number;
  col: number;
  before: CellValue;
  after: CellValue;
}
/** The cells of one change of the user's (a typed cell, a paste, an autofill, a cut...): undone and redone whole. */
export type UndoStep = UndoCell[];
/**
 * Cells emptied (`after` null), packed: cell i at row rows[i], column cols[i], holding before[i]
 * before. A whole column of a million rows cleared (Delete, Cut, a column removed) is three arrays
 * of about 4 MB each here instead of a million UndoCell objects (33 MB of the tab's heap, kept as
 * long as the step is: bench/million-rows.mjs MILLION_HEAP).
 */
export interface ClearedCells {
  rows: Int32Array;
  cols: Int32Array;
  before: CellValue[];
}
/**
 * An own clear sent as cells_clear operations (clear-columns.ts: whole columns of a windowed sheet,
 * a cells_clear per span of columns, or per run of a filter): their ids (the versions the server
 * gives them come with their acks: clearApplied) and their blocks, where they are now.
 */
export interface SentClears {
  ids: readonly string[];
  blocks: readonly ClearBlock[];
}

/** What a step is recorded with: its cells, or cells emptied, packed. */
export type StepCells = UndoStep | ClearedCells;

const isPacked = (cells: StepCells): cells is ClearedCells => !Array.isArray(cells);
/** How many cells `cells` holds. */
export const cellCount = (cells: StepCells): number => (isPacked(cells) ? cells.rows.length : cells.length);

/** Packed cells as UndoCells (a step's cells must be placed one by one: rows or columns moved under it). */
export function unpackCells({ rows, cols, before }: ClearedCells): UndoStep {
  // Pushed: V8 makes a large `new Array(n)` a slow (dictionary) array.
  const out: UndoStep = [];
  for (let i = 0; i < rows.length; i++) out.push({ row: rows[i], col: cols[i], before: before[i], after: null });
  return out;
}

/**
 * A step: cells changed, or rows or columns the user inserted or removed (`structure`, where it is
 * now) with, for a remove, the cells it took that held a value (`cells`, `after` null: put back on
 * undo). Steps are changed in place (parked cells name the step they go back to).
 */
interface Step {
  /** Empty while `packed` holds them. */
  cells: UndoStep;
  /** The step's cells as recorded packed (emptied cells), until something must place them one by one (unpacked()). */
  packed?: ClearedCells;
  structure?: StructureMove;
  /**
   * An own remove's: cells of earlier steps (edits, or another remove's cells) that were in the rows
   * or columns it took, kept where its own cells are (moved as they are) and given back to their
   * steps when it is undone — so undoing the remove, then the step before it, restores that step
   * whole, as Handsontable's stack did.
   */
  parked?: Parked[];
  /** Cells of this step parked in a remove after it: the step is kept, even with no cell left. */
  away?: number;
  /** The user's sort of the rows (no cells): undone by the server (rows_sort `undo`: its version), redone by sorting again. */
  sort?: SortStep;
  /** Made by the same action as the step before it (together()): undone and redone with it, counted as one step. */
  joined?: boolean;
  /**
   * A clear sent as cells_clear operations (SentClears): undone by the server while it is still
   * exactly those clears (cells_clear_undo of each version: the server moves the cells through the
   * rows and columns inserted, removed or sorted since, as the step's own cells follow them here),
   * redone by clearing the blocks again. Gone when that no longer holds (its cells taken by an own
   * remove and given back: the server no longer has them as cleared cells).
   */
  clears?: StepClears;
  /**
   * An own remove the server can undo (a windowed sheet: the cells it took are not held here, nor
   * read for it): its rows_remove / columns_remove op's id and, once acknowledged, the version the
   * server gave it. Undone by an insert naming that version (live.schema.ts `undo`: the server fills
   * the rows or columns it inserts with the cells the remove took), redone by removing again (a new op, a new version).
   */
  removal?: { id: string; version?: number };
}
/** An own remove sent as this op (its id): recorded by it, not by its cells (Step.removal). */
export interface SentRemove {
  id: string;
}
interface StepClears {
  /** Each cells_clear's id, and its version once the server applied it. */
  ops: { id: string; version?: number }[];
  /** Their blocks where they are now (the rows and columns moved since); null once a sort scattered one's rows. */
  blocks: ClearBlock[] | null;
  /**
   * The step's cells are no longer known where they are (a sort whose order did not come, the rows
   * replaced by a sync): undone by its versions only (the server knows where the cells went),
   * redone by its blocks only; gone when neither can be.
   */
  placesUnknown?: boolean;
}

/** Whether a step is a clear the server can undo: every one of its clears applied (versions known). */
const byVersion = (step: Step): boolean => step.clears !== undefined && step.clears.ops.length > 0 && step.clears.ops.every((op) => op.version !== undefined);
/** Whether a step is a remove only the server can undo (Step.removal): it holds none of the cells it took. */
const byServer = (step: Step): boolean => step.removal !== undefined;
/** Whether a step's cells can be written back one by one (their places known). */
const placesKnown = (step: Step): boolean => step.clears?.placesUnknown !== true;

/**
 * A clear's step through rows moved where it cannot follow them (a sort without its order, a sync):
 * kept when the server can still undo it (`done`: by its versions) or it can be redone (undone: by
 * its blocks, which stay only when they span every row — `rowCount` — as a sort leaves them), its
 * places unknown from now on; false when it goes.
 */
function throughUnknownRows(step: Step, done: boolean, rowCount: number | undefined): boolean {
  // Columns removed, undone by the server (it moves their cells with their rows): where they go back
  // is a column, which no sort moves. The cells of earlier steps they hold are lost (their rows are not known).
  if (step.removal && step.structure && !isRows(step.structure)) {
    for (const { step: owner } of step.parked ?? []) owner.away = (owner.away ?? 1) - 1;
    step.parked = undefined;
    return !done || step.removal.version !== undefined;
  }
  const clears = step.clears;
  if (!clears) return false;
  const whole = rowCount !== undefined && clears.blocks !== null && clears.blocks.every((b) => b.rows.start === 0 && b.rows.count === rowCount);
  if (!whole) clears.blocks = null;
  clears.placesUnknown = true;
  return done ? byVersion(step) : clears.blocks !== null;
}
/**
 * A sort sent from the undo stack: `history.undo` the version of the sort undone, or none for a redo
 * (sorting again). The menu's sort is sent without `history`.
 */
export type SortRowsAgain = (column: number, direction: SortDirection, history?: { undo?: number }) => void;
/** An own sort as a step: the version the server gave it (the one an undo names), its column and direction. */
export interface SortStep {
  version: number;
  column: number;
  direction: SortDirection;
}
interface Parked {
  step: Step;
  cell: UndoCell;
}

/** What an undo or redo does: rows or columns inserted or removed first, then cells written (at absolute rows). */
export interface StepInverse {
  structure?: StructureMove;
  cells: CellChange[];
  /** A sort step: undo sends a rows_sort with `undo` (the sort's version), redo a rows_sort again (then sortRedone). */
  sort?: { column: number; direction: SortDirection; undo?: number };
  /** The step goes with the next one the stack gives (one action made them, together()): undo or redo again, once this one is settled. */
  more?: boolean;
  /**
   * An undo of a clear the server did (Step.clears): a cells_clear_undo per version, instead of
   * `cells`; the cells come back once the server applied them (read again in `blocks`, null: where
   * they are is not known here, read every row held again).
   */
  clearUndo?: { versions: number[]; blocks: ClearBlock[] | null };
  /** A redo of such a clear: a cells_clear per block (where they are now), instead of `cells`; then clearsSent() with their ids. */
  clear?: ClearBlock[];
  /**
   * An undo of a remove the server did (Step.removal): `structure`, the insert, goes with `undo`
   * naming the remove's version, and no cells (the server fills the rows or columns; they are read
   * again once applied).
   */
  structureUndo?: number;
}

const isRows = (move: StructureMove) => isRowStructure(move.type);
const isInsert = (move: StructureMove) => isInsertStructure(move.type);

/** A grid's row or column change (an axis and a signed amount) as the op it is. */
export function moveOfChange({ axis, index, amount }: StructureChange): StructureMove {
  const insert = amount > 0;
  const type = axis === 'row' ? (insert ? 'rows_insert' : 'rows_remove') : insert ? 'columns_insert' : 'columns_remove';
  return { type, index, count: Math.abs(amount) };
}

/** An op as the grid's row or column change (what the grids' onStructureChanged takes). */
export function changeOfMove(move: StructureMove): StructureChange {
  return { axis: isRows(move) ? 'row' : 'col', index: move.index, amount: isInsert(move) ? move.count : -move.count };
}
const opposite: Record<StructureMove['type'], StructureMove['type']> = {
  rows_insert: 'rows_remove',
  rows_remove: 'rows_insert',
  columns_insert: 'columns_remove',
  columns_remove: 'columns_insert',
};

/**
 * afterChange of a grid: the user's own change as a step at absolute rows (`base`: the absolute
 * row of the grid's first row, 0 on the whole grid), or an empty one when it is not the user's or
 * changed nothing.
 */
export function ownStep(changes: readonly Handsontable.CellChange[] | null, source: string, base: number): UndoStep {
  if (!changes || NOT_STEPS.has(source)) return [];
  const step: UndoStep = [];
  for (const [row, prop, before, after] of changes) {
    if (typeof prop !== 'number' || before === after) continue;
    step.push({ row: base + row, col: prop, before: toCellValue(before), after: toCellValue(after) });
  }
  return step;
}

/** The block an undo's or redo's cells span, to show and select (a loop: a large paste is too many cells to spread into Math.min). */
export function cellsBlock(cells: readonly { row: number; col: number }[]): { top: number; bottom: number; left: number; right: number } {
  let [top, bottom, left, right] = [Infinity, -1, Infinity, -1];
  for (const { row, col } of cells) {
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
    left = Math.min(left, col);
    right = Math.max(right, col);
  }
  return { top, bottom, left, right };
}

/** A cell's place after a row or column insert or remove; null when it was removed. */
export function movedCell<T extends { row: number; col: number }>(cell: T, move: StructureMove): T | null {
  const rows = isRows(move);
  const at = rows ? cell.row : cell.col;
  if (at < move.index) return cell;
  let to: number;
  if (isInsert(move)) to = at + move.count;
  else if (at < move.index + move.count) return null;
  else to = at - move.count;
  return rows ? { ...cell, row: to } : { ...cell, col: to };
}

/**
 * A structure step's rows or columns after `move`. `present`: they are in the sheet (an insert
 * done, a remove undone), a block that moves as a whole and whose step goes (null) when the move
 * cuts into it; else they are a gap between two rows (or columns), which moves with the rows after
 * it and stays where rows around it are removed.
 */
function movedStructure(step: StructureMove, present: boolean, move: StructureMove): StructureMove | null {
  if (isRows(step) !== isRows(move)) return step;
  const end = move.index + move.count;
  if (isInsert(move)) {
    // Inserted at its place: the rows there (or after the gap) move down, it with them.
    if (move.index <= step.index) return { ...step, index: step.index + move.count };
    return present && move.index < step.index + step.count ? null : step;
  }
  if (end <= step.index) return { ...step, index: step.index - move.count };
  if (!present) return move.index < step.index ? { ...step, index: move.index } : step;
  return move.index >= step.index + step.count ? step : null;
}

/**
 * The user's undo and redo stacks, on both grids (Handsontable's UndoRedo is off on them).
 * Handsontable's steps keep the rows and columns they were made at: others' inserts and removes arriving live
 * made an undo write into someone else's cells (the whole grid), and the windowed grid's rows are
 * a slab of the sheet that moves as the user scrolls (issue 23). These name absolute rows and
 * columns, so a step is undone where its cells are now, shown or not. Rows and columns inserted or
 * removed (the user's or others') move the steps' cells with them; a cell removed leaves its step,
 * and a step with no cell left is dropped. The user's own row and column inserts and removes are
 * steps too, a remove with the cells it took.
 */
/**
 * The cells holding a value that an own remove takes (`move`, on a sheet of `rowCount` rows whose
 * rows `rowAt` gives), for its undo; null when a row is not known (`rowAt` null: not read) or past
 * UNDO_STEP_CELLS_MAX (the remove cannot be undone).
 */
export function removedCells({ type, index, count }: StructureMove, rowCount: number, rowAt: (row: number) => readonly CellValue[] | null): UndoStep | null {
  const rows = type === 'rows_remove';
  const first = rows ? index : 0;
  const end = rows ? Math.min(index + count, rowCount) : rowCount;
  const removed: UndoStep = [];
  for (let row = first; row < end; row++) {
    const cells = rowAt(row);
    if (!cells) return null;
    const to = rows ? cells.length : Math.min(index + count, cells.length);
    for (let col = rows ? 0 : index; col < to; col++) {
      const value = cells[col];
      if (value !== null && value !== undefined) removed.push({ row, col, before: value, after: null });
    }
    if (removed.length > UNDO_STEP_CELLS_MAX) return null;
  }
  return removed;
}

export class UndoStack {
  private done: Step[] = [];
  private undone: Step[] = [];
  /** The step being undone or redone (its inverse is being sent): its own ops do not move it. */
  private pending: { step: Step; redone: boolean } | null = null;
  /** Inside together(): 'first' until its first step is pushed, then 'joined'. */
  private grouping: 'off' | 'first' | 'joined' = 'off';

  canUndo(): boolean {
    return this.done.length > 0;
  }

  canRedo(): boolean {
    return this.undone.length > 0;
  }

  /**
   * A new change of the user's: the steps undone cannot be redone any more (as in Handsontable).
   * One past UNDO_STEP_CELLS_MAX cells cannot be undone: the stack is cleared (bounded), as for a remove too large (own).
   */
  record(cells: StepCells, clears?: SentClears): void {
    const count = cellCount(cells);
    if (count === 0) return;
    this.settled();
    if (count <= UNDO_STEP_CELLS_MAX) this.push({ ...stepOf(cells), ...(clears ? { clears: stepClears(clears) } : {}) });
    else this.clear();
  }

  /** An own cells_clear applied by the server at `version` (its ack): the step that sent it can be undone by it. */
  clearApplied(id: string, version: number): void {
    for (const step of [...this.done, ...this.undone, ...(this.pending ? [this.pending.step] : [])]) {
      const op = step.clears?.ops.find((o) => o.id === id);
      if (op) op.version = version;
    }
  }

  /**
   * The last step (with those joined to it) is a clear the server has not given every version of
   * yet, or a remove whose version has not come (acks on their way): undone now, a clear would go
   * back cell by cell (a million changes for a whole column), a remove could not be undone at all;
   * once they came, by the server.
   */
  versionsPending(): boolean {
    for (let i = this.done.length - 1; i >= 0; i--) {
      const step = this.done[i];
      if (step.clears?.ops.some((op) => op.version === undefined)) return true;
      if (step.removal && step.removal.version === undefined) return true;
      if (!step.joined) break;
    }
    return false;
  }

  /** An own rows_remove / columns_remove applied by the server at `version` (its ack): the step that sent it can be undone by it. */
  removeApplied(id: string, version: number): void {
    for (const step of [...this.done, ...this.undone, ...(this.pending ? [this.pending.step] : [])]) if (step.removal?.id === id) step.removal.version = version;
  }

  /**
   * The server refused the insert that undoes the remove it applied at `version`
   * (STRUCTURE_UNDO_TEXTS: the sheet replaced since, its history before the remove no longer
   * kept...): the step goes. Unlike a refused clear's undo, nothing here can undo it instead (its
   * cells were never read), and the reasons do not pass: another Ctrl+Z would be refused the same,
   * and a redo would remove rows or columns that never came back.
   */
  removeUndoRefused(version: number): void {
    const names = (step: Step) => step.removal?.version === version;
    this.undone = this.undone.filter((step) => !names(step));
  }

  /** The redo being settled was sent as these cells_clear operations (StepInverse.clear, in order): their versions come with their acks. */
  clearsSent(ids: readonly string[]): void {
    const clears = this.pending?.step.clears;
    if (clears) clears.ops = ids.map((id) => ({ id }));
  }

  /**
   * The server refused to undo the clear it applied at `version` (a cells_clear_undo's refusal,
   * CLEAR_TEXTS: its history before the clear no longer kept...): the step is not undone. Back on
   * the undo stack when it is still the last step undone, to be undone by its cells next (the user
   * holds their values); its clears are no longer its way back. A redo would clear again what is
   * cleared and name a clear that emptied nothing, as a refused sort's undo leaves a sort to redo.
   */
  clearUndoRefused(version: number): void {
    const names = (step: Step) => step.clears?.ops.some((op) => op.version === version) === true;
    const step = [...this.undone, ...(this.pending ? [this.pending.step] : [])].find(names);
    if (!step?.clears) return;
    // Its cells' places unknown here: nothing else can undo it.
    if (!placesKnown(step)) {
      this.undone = this.undone.filter((s) => s !== step);
      return;
    }
    step.clears = { ops: [], blocks: step.clears.blocks };
    if (this.undone.at(-1) === step) this.done.push(this.undone.pop()!);
  }

  /**
   * The steps are undone by cells from now on (a sheet switched to whole: its grid writes the
   * cells back itself, keepUndo).
   */
  byCells(): void {
    this.done = this.done.filter(placesKnown);
    this.undone = this.undone.filter(placesKnown);
    for (const step of [...this.done, ...this.undone]) step.clears = undefined;
    // A remove the server would undo holds no cells to write back: it cannot be undone here, nor the
    // steps before it (as after any action that cannot be undone); nor redone once undone (its
    // redo's steps after it then name rows as they were with it undone).
    let cut = this.done.findLastIndex(byServer) + 1;
    while (cut > 0 && this.done[cut]?.joined) cut++;
    this.done = this.done.slice(cut);
    if (this.undone.some(byServer)) this.undone = [];
  }

  /**
   * Rows or columns the user inserted or removed (sent): the steps move, then it is a step itself.
   * `removed`: the cells a remove took that held a value, or null when they are not all known (rows
   * not read): such a remove cannot be undone, and the steps before it are dropped (as spreadsheets
   * do after an action they cannot undo); or the op it was sent as (SentRemove: a windowed sheet's,
   * undone by the server, Step.removal). The ops an undo or redo sends are not steps; a redone
   * remove takes the earlier steps' cells in its rows again (and, sent, is undone by its new op).
   */
  own(move: StructureMove, removed: (() => StepCells | null) | SentRemove): void {
    const remove = !isInsert(move);
    const sent = typeof removed === 'function' ? null : removed;
    if (this.pending) {
      const { step, redone } = this.pending;
      if (!redone || !remove) return this.moved(move);
      step.parked = [];
      // Undone by the server from now on by the new op's version (none for a grid that sends no SentRemove: it holds no such step, keepUndo).
      if (step.removal) step.removal = { id: sent?.id ?? '' };
      return this.moved(move, step.parked);
    }
    const parked: Parked[] | undefined = remove ? [] : undefined;
    this.moved(move, parked);
    if (!remove) return this.push({ cells: [], structure: move });
    if (sent) return this.push({ cells: [], structure: move, parked, removal: { id: sent.id } });
    const cells = (removed as () => StepCells | null)();
    if (cells && cellCount(cells) <= UNDO_STEP_CELLS_MAX) this.push({ ...stepOf(cells), structure: move, parked });
    else this.clear();
  }

  /**
   * `run` is one action of the user's that makes several steps (the rows shown of a filtered
   * selection removed run by run): they are undone and redone as one (StepInverse.more) and count
   * as one step against UNDO_STEPS_MAX.
   */
  together(run: () => void): void {
    this.grouping = 'first';
    try {
      run();
    } finally {
      this.grouping = 'off';
    }
  }

  clear(): void {
    this.done = [];
    this.undone = [];
  }

  /**
   * The rows were replaced by the server's (a sync): every step goes but the sorts', whose undo the
   * server checks itself (refused with SORT_TEXTS.undoMoved when rows moved or the grid was
   * replaced since) and whose redo sorts again: the repair that shows a sort whose order was not
   * sent (a sheet past SORT_ORDER_SENT_MAX_ROWS rows) keeps it undoable.
   */
  clearButSorts(rowCount?: number): void {
    // A clear the server did stays too (its undo names versions; the server refuses it when the grid was replaced: CLEAR_TEXTS.undoReplaced).
    this.done = this.done.filter((step) => step.sort || throughUnknownRows(step, true, rowCount));
    this.undone = this.undone.filter((step) => step.sort || throughUnknownRows(step, false, rowCount));
  }

  /** The last step taken back (null when there is none); call settled() once its inverse is sent. */
  undo(): StepInverse | null {
    this.settled();
    let step = this.done.pop();
    // A step whose parked cells went with their remove (someone removed those rows) has nothing left.
    // Nor a clear whose cells' places are unknown here that the server cannot undo (a version not known), nor a remove without its version (refused).
    while (step && ((sizeOf(step) === 0 && !step.structure && !step.sort) || (!placesKnown(step) && !byVersion(step)) || (step.removal && step.removal.version === undefined))) step = this.done.pop();
    if (!step) return null;
    this.pending = { step, redone: false };
    const more = step.joined ? { more: true } : {};
    // A remove the server did: inserted again where it is now, filled by the server with the cells it took.
    if (step.removal && step.structure) return { ...more, structure: { ...step.structure, type: opposite[step.structure.type] }, cells: [], structureUndo: step.removal.version };
    if (step.sort) return { cells: [], sort: { column: step.sort.column, direction: step.sort.direction, undo: step.sort.version } };
    // A clear the server did, every version known: the server puts the cells back (those still empty), one small op each.
    if (byVersion(step)) return { ...more, cells: [], clearUndo: { versions: step.clears!.ops.map((op) => op.version!).reverse(), blocks: step.clears!.blocks } };
    const { structure, packed } = step;
    // A remove undone: the rows (or columns) inserted again, then their cells; an insert: removed.
    if (structure) return { structure: { ...structure, type: opposite[structure.type] }, cells: packed ? valuesOf(packed, false) : step.cells.map(({ row, col, before }) => ({ row, col, value: before })), ...more };
    return { ...more, cells: packed ? valuesOf(packed, false).reverse() : step.cells.map(({ row, col, before }) => ({ row, col, value: before })).reverse() };
  }

  /** The last step undone made again (null when there is none); call settled() once it is sent. */
  redo(): StepInverse | null {
    this.settled();
    let step = this.undone.pop();
    // A clear whose cells' places are unknown here is redone by its blocks only.
    while (step && !placesKnown(step) && !step.clears?.blocks?.length) step = this.undone.pop();
    if (!step) return null;
    this.pending = { step, redone: true };
    if (step.sort) return { cells: [], sort: { column: step.sort.column, direction: step.sort.direction } };
    const more = this.undone.at(-1)?.joined ? { more: true } : {};
    if (step.structure) return { structure: step.structure, cells: [], ...more };
    // A clear the server did: cleared again, a small op per block where it is now (however it was undone).
    const blocks = step.clears?.blocks;
    if (blocks && blocks.length > 0) return { ...more, cells: [], clear: blocks };
    // Cleared cell by cell: no version of a clear names it any more.
    step.clears = undefined;
    return { ...more, cells: step.packed ? valuesOf(step.packed, true) : step.cells.map(({ row, col, after }) => ({ row, col, value: after })) };
  }

  /** The undo or redo is sent: its step goes to the other stack; an undone remove gives back the cells it parked. */
  settled(): void {
    if (!this.pending) return;
    const { step, redone } = this.pending;
    (redone ? this.done : this.undone).push(step);
    this.pending = null;
    if (redone || !step.parked) return;
    for (const { step: owner, cell } of step.parked) {
      unpacked(owner).push(cell);
      owner.away = (owner.away ?? 1) - 1;
    }
    step.parked = undefined;
  }

  /**
   * Rows or columns inserted or removed (others', arrived; the user's go through own()): the steps'
   * cells follow. `park`: the user's own remove, done or redone, whose step keeps the cells it takes
   * from the steps done before it (they come back when it is undone).
   */
  moved(move: StructureMove, park?: Parked[]): void {
    const pending = this.pending?.step;
    const follow = (steps: Step[], inDone: boolean) => {
      const out: Step[] = [];
      for (const step of steps) {
        if (step === pending) {
          out.push(step);
          continue;
        }
        if (step.clears?.blocks) step.clears.blocks = clearBlocksThrough(step.clears.blocks, [move], 'after');
        // Packed cells follow the move packed (a million cells of a whole column cleared stay three arrays), unless an own remove parks some of them.
        if (step.packed && !step.structure && !(park && inDone && !allBefore(step.packed, move))) {
          step.packed = movedPacked(step.packed, move);
          if (step.packed.rows.length > 0 || (step.away ?? 0) > 0) out.push(step);
          continue;
        }
        let place = (cell: UndoCell): UndoCell | null => movedCell(cell, move);
        const was = step.structure;
        // Its rows are in the sheet when it is an insert done or a remove undone.
        const structure = was && movedStructure(was, inDone === isInsert(was), move);
        if (was) {
          if (!structure) {
            this.unpark(step);
            continue;
          }
          // A remove's cells are where its rows go back: along its axis they move as its place does, not as the rows shown.
          const shift = structure.index - was.index;
          const rows = isRows(structure);
          if (isRows(move) === rows) place = (cell) => (rows ? { ...cell, row: cell.row + shift } : { ...cell, col: cell.col + shift });
        }
        const cells: UndoStep = [];
        for (const cell of unpacked(step)) {
          const to = place(cell);
          if (to) cells.push(to);
          else if (park && inDone) {
            park.push({ step, cell });
            step.away = (step.away ?? 0) + 1;
            // Given back when the remove is undone, into rows the server inserts new: no clear of its names them any more.
            step.clears = undefined;
          }
        }
        step.cells = cells;
        if (step.parked) {
          // Cells parked in a remove taken again by another: lost (they name rows of the first remove's).
          const kept: Parked[] = [];
          for (const entry of step.parked) {
            const cell = place(entry.cell);
            if (cell) kept.push({ step: entry.step, cell });
            else entry.step.away = (entry.step.away ?? 1) - 1;
          }
          step.parked = kept;
        }
        if (structure) {
          step.structure = structure;
          out.push(step);
        // A sort step stays whatever moved: its undo is the server's to refuse, with the reason (SORT_TEXTS.undoMoved), not a silent skip to the step before.
        } else if (cells.length > 0 || (step.away ?? 0) > 0 || step.sort) out.push(step);
      }
      return out;
    };
    this.done = follow(this.done, true);
    this.undone = follow(this.undone, false);
  }

  /**
   * Rows sorted on the server (anyone's sort, an own one, or an own sort's undo or redo), applied:
   * `inverse[oldRow] = newRow`, or null when the order is not known here (a sheet past
   * SORT_ORDER_SENT_MAX_ROWS rows). With it, every step's cells follow their rows (cells of a
   * typed value, a paste, a Delete: each names one row); a step of rows inserted or removed cannot
   * (its rows are no longer together) and goes with every step before it, and so does a sort step
   * before this sort (the server undoes a sort only while no rows moved since it: SORT_TEXTS.undoMoved).
   * Without the order every step goes but the last ones done that are clears the server can undo
   * (it moves their cells through the sort; their places here are unknown from now on: undone by
   * version only, redone only by blocks spanning all `rowCount` rows). `own`: the user's new sort, which becomes a step; an own
   * sort's redo (the step being redone, `redone`) takes its new version; an undo adds nothing.
   */
  sorted(inverse: ArrayLike<number> | null, own?: { step: SortStep } | { redone: number }, rowCount?: number): void {
    // A sort step undone stays: its redo sorts again, whatever happened since.
    const follow = (steps: Step[], inDone: boolean): Step[] => {
      if (inverse === null) {
        if (!inDone) return steps.filter((step) => step.sort || throughUnknownRows(step, false, rowCount));
        // The last steps done that are clears the server can undo stay (it moves their cells through the sort); those before the first that cannot go.
        let from = steps.length;
        while (from > 0 && throughUnknownRows(steps[from - 1], true, rowCount)) from--;
        return steps.slice(from);
      }
      let kept: Step[] = [];
      for (const step of steps) {
        if (step.sort && !inDone) {
          kept.push(step);
          continue;
        }
        if (step.sort || (step.structure && isRows(step.structure))) {
          kept = [];
          continue;
        }
        const place = (cell: UndoCell): UndoCell => (cell.row < inverse.length ? { ...cell, row: inverse[cell.row] } : cell);
        if (step.clears?.blocks) step.clears.blocks = clearBlocksThrough(step.clears.blocks, [{ type: 'rows_sort', order: orderOf(inverse) }], 'after');
        step.cells = unpacked(step).map(place);
        if (step.parked) step.parked = step.parked.map((entry) => ({ step: entry.step, cell: place(entry.cell) }));
        kept.push(step);
      }
      return kept;
    };
    const redone = own && 'redone' in own ? this.done.at(-1) : undefined;
    if (redone?.sort && own && 'redone' in own) {
      // The redo is this sort: the steps before it follow it, it stays on top with its new version.
      this.done = [...follow(this.done.slice(0, -1), true), { ...redone, sort: { ...redone.sort, version: own.redone } }];
      this.undone = follow(this.undone, false);
      return;
    }
    this.done = follow(this.done, true);
    this.undone = follow(this.undone, false);
    if (own && 'step' in own) this.push({ cells: [], sort: own.step });
  }

  /** A remove dropped (someone's op cut into its rows once back): the cells it parked go with it. */
  private unpark(step: Step): void {
    for (const { step: owner } of step.parked ?? []) owner.away = (owner.away ?? 1) - 1;
    step.parked = undefined;
  }

  private push(step: Step): void {
    if (this.grouping === 'joined') step.joined = true;
    else if (this.grouping === 'first') this.grouping = 'joined';
    this.done.push(step);
    this.undone = [];
    // Steps as the user counts them: a step with those joined to it. The oldest go whole, the newest always stays.
    let cells = 0;
    let actions = 0;
    for (const [i, s] of this.done.entries()) {
      cells += sizeOf(s);
      if (!s.joined || i === 0) actions++;
    }
    while (actions > 1 && (actions > UNDO_STEPS_MAX || cells > UNDO_CELLS_MAX)) {
      do cells -= sizeOf(this.done.shift()!);
      while (this.done[0]?.joined);
      actions--;
    }
  }
}

const stepClears = ({ ids, blocks }: SentClears): StepClears => ({ ops: ids.map((id) => ({ id })), blocks: blocks.map(({ rows, columns }) => ({ rows: { ...rows }, columns: { ...columns } })) });

/** A sort's order (`order[newRow] = oldRow`) from its inverse. */
function orderOf(inverse: ArrayLike<number>): number[] {
  const order = new Array<number>(inverse.length);
  for (let old = 0; old < inverse.length; old++) order[inverse[old]] = old;
  return order;
}

/** Packed cells after a row or column insert or remove (movedCell for each, packed): those removed go. */
function movedPacked(cells: ClearedCells, move: StructureMove): ClearedCells {
  if (allBefore(cells, move)) return cells;
  const at = isRows(move) ? cells.rows : cells.cols;
  const end = move.index + move.count;
  if (isInsert(move)) {
    for (let i = 0; i < at.length; i++) if (at[i] >= move.index) at[i] += move.count;
    return cells;
  }
  const keep: number[] = [];
  for (let i = 0; i < at.length; i++) if (at[i] < move.index || at[i] >= end) keep.push(i);
  const out: ClearedCells = { rows: Int32Array.from(keep, (i) => cells.rows[i]), cols: Int32Array.from(keep, (i) => cells.cols[i]), before: keep.map((i) => cells.before[i]) };
  const moved = isRows(move) ? out.rows : out.cols;
  for (let i = 0; i < moved.length; i++) if (moved[i] >= end) moved[i] -= move.count;
  return out;
}

/** A step of `cells` (packed ones kept packed). */
const stepOf = (cells: StepCells): Step => (isPacked(cells) ? { cells: [], packed: cells } : { cells });
/** How many cells a step holds. */
const sizeOf = (step: Step): number => (step.packed ? step.packed.rows.length : step.cells.length);

/** A step's cells one by one (unpacked now if they were packed: rows or columns moved under it, or cells parked back into it). */
function unpacked(step: Step): UndoStep {
  if (step.packed) {
    step.cells = unpackCells(step.packed);
    step.packed = undefined;
  }
  return step.cells;
}

/** Whether every cell of `cells` is before `move`'s index along its axis (movedCell leaves them all). */
function allBefore(cells: ClearedCells, move: StructureMove): boolean {
  const at = isRows(move) ? cells.rows : cells.cols;
  for (let i = 0; i < at.length; i++) if (at[i] >= move.index) return false;
  return true;
}

/** Packed cells as the changes that write them: their values before (an undo) or empty (a redo). */
function valuesOf({ rows, cols, before }: ClearedCells, after: boolean): CellChange[] {
  const out: CellChange[] = [];
  for (let i = 0; i < rows.length; i++) out.push({ row: rows[i], col: cols[i], value: after ? null : before[i] });
  return out;
}
