import type { CellChange, CellValue } from '@tessera/contracts';
import type Handsontable from 'handsontable/base';
import { LIVE_SOURCE } from '../grid/grid-link.js';
import { toCellValue } from '../grid/grid-shape.js';
import type { StructureMove } from './moved-rows.js';

/** The sources the windowed grid writes an undo or redo with (Handsontable's own names: the cells are sent like any edit). */
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

/** A cell the user changed, at its absolute row: its value before and after. */
export interface UndoCell {
  row: number;
  col: number;
  before: CellValue;
  after: CellValue;
}
/** One change of the user's (a typed cell, a paste, an autofill, a cut...): undone and redone whole. */
export type UndoStep = UndoCell[];

/**
 * afterChange of the windowed grid: the user's own change as a step at absolute rows (`base`: the
 * absolute row of the grid's first row), or an empty one when it is not the user's or changed nothing.
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

/** A cell's place after a row or column insert or remove; null when it was removed. */
function movedCell(cell: UndoCell, move: StructureMove): UndoCell | null {
  const rows = move.type === 'rows_insert' || move.type === 'rows_remove';
  const at = rows ? cell.row : cell.col;
  if (at < move.index) return cell;
  let to: number;
  if (move.type === 'rows_insert' || move.type === 'columns_insert') to = at + move.count;
  else if (at < move.index + move.count) return null;
  else to = at - move.count;
  return rows ? { ...cell, row: to } : { ...cell, col: to };
}

/**
 * The undo and redo stacks of a windowed sheet (issue 23). Handsontable's own steps name the
 * grid's rows, which are a slab of the sheet that moves as the user scrolls; these name absolute
 * rows, so a step is undone where its cells are, shown or not. Rows and columns inserted or
 * removed (the user's or others') move the steps' cells with them; a cell removed leaves its step,
 * and a step with no cell left is dropped.
 */
export class WindowedUndo {
  private done: UndoStep[] = [];
  private undone: UndoStep[] = [];

  canUndo(): boolean {
    return this.done.length > 0;
  }

  canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** A new change of the user's: the steps undone cannot be redone any more (as in Handsontable). */
  record(step: UndoStep): void {
    if (step.length === 0) return;
    this.done.push(step);
    this.undone = [];
    let cells = 0;
    for (const s of this.done) cells += s.length;
    while (this.done.length > 1 && (this.done.length > UNDO_STEPS_MAX || cells > UNDO_CELLS_MAX)) cells -= this.done.shift()!.length;
  }

  /** The last step taken back: the cells to write (their values before it), last change first; null when there is none. */
  undo(): CellChange[] | null {
    const step = this.done.pop();
    if (!step) return null;
    this.undone.push(step);
    return step.map(({ row, col, before }) => ({ row, col, value: before })).reverse();
  }

  /** The last step undone made again: the cells to write (their values after it); null when there is none. */
  redo(): CellChange[] | null {
    const step = this.undone.pop();
    if (!step) return null;
    this.done.push(step);
    return step.map(({ row, col, after }) => ({ row, col, value: after }));
  }

  /** Rows or columns inserted or removed (the user's, sent, or others', arrived): the steps' cells follow. */
  moved(move: StructureMove): void {
    const follow = (steps: UndoStep[]) =>
      steps.map((step) => step.map((cell) => movedCell(cell, move)).filter((cell): cell is UndoCell => cell !== null)).filter((step) => step.length > 0);
    this.done = follow(this.done);
    this.undone = follow(this.undone);
  }
}
