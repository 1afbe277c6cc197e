import { isRowStructure, type CellChange, type CellValue, type GridData } from '@tessera/contracts';
import { toCellValue, typedValue } from '../grid/grid-shape.js';
import { movedCell, type UndoStep } from '../undo/undo-stack.js';
import type { WindowedSheet } from './windowed-sheet.js';

/** The windowed grid's slab as a paste sees it: its rows from absolute row `base`, and which are placeholders (not read yet). */
export interface SlabRows {
  base: number;
  length: number;
  unread(i: number): boolean;
}

/**
 * Whether a paste of `rows` rows at the slab's row `at` is the windowed grid's to make, not
 * Handsontable's: its rows run past the slab's end (it holds none there, nor past the sheet's last
 * row, where the slab ends at most), or fall on rows of it not read yet (read-only placeholders,
 * which Handsontable skips). Handsontable would drop those rows.
 */
export function pasteOutsideSlab(slab: SlabRows, at: number, rows: number): boolean {
  if (rows === 0 || at < 0) return false;
  if (at + rows > slab.length) return true;
  for (let i = at; i < at + rows; i++) if (slab.unread(i)) return true;
  return false;
}

/** A paste made: its block, at absolute rows. */
export interface PastedBlock {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Reads given up after this many tries with rows or columns moved meanwhile (someone's op). */
const PASTE_READS = 3;

/**
 * A paste made whole at absolute row `top`, column `left` (the grid's, when Handsontable would drop
 * rows of it: pasteOutsideSlab): the cells it covers read first (sheet.cells: the windows held, the
 * others read), so that each cell's value before is known, then every pasted cell that changes is
 * sent through `write` at its absolute row (rows past the sheet's last row or column grow it) and
 * recorded as one undo step. Rows or columns moved while the cells are read (someone's op): the
 * paste follows its first cell (to where its rows or columns were, when removed) and reads again.
 * Null when given up, or `stopped` (the grid read-only, or gone) by the time the cells are read.
 * `offsets`: each pasted row's row from `top` (ascending, the first 0), when they are not adjacent
 * (a row filter on: the rows it shows only are pasted into, as spreadsheets paste over a filtered range).
 */
export async function pasteCells(
  sheet: WindowedSheet,
  top: number,
  left: number,
  data: readonly (readonly unknown[])[],
  write: (changes: CellChange[]) => void,
  stopped: () => boolean,
  offsets?: readonly number[],
): Promise<PastedBlock | null> {
  const span = offsets && offsets.length > 0 ? offsets[offsets.length - 1] + 1 : data.length;
  // As Handsontable's paste types them (typeCellEdits).
  const pasted = data.map((cells) => cells.map((value) => toCellValue(typedValue(value))));
  for (let attempt = 0; attempt < PASTE_READS; attempt++) {
    let moved = false;
    const stop = sheet.subscribe((reset, move) => {
      if (!reset) return;
      moved = true;
      if (!move) return;
      const cell = movedCell({ row: top, col: left }, move);
      const rows = isRowStructure(move.type);
      top = cell?.row ?? (rows ? move.index : top);
      left = cell?.col ?? (rows ? left : move.index);
    });
    let before: GridData;
    try {
      before = await sheet.cells({ start: top, count: span });
    } catch {
      before = [];
      moved = true;
    } finally {
      stop();
    }
    if (stopped()) return null;
    if (moved) continue;
    const { step, right } = pasteStep(top, left, pasted, before, offsets);
    if (step.length > 0) {
      // Into the rows held (the slab's are the same arrays), sent.
      write(step.map(({ row, col, after }) => ({ row, col, value: after })));
      sheet.undo.record(step);
    }
    return { top, left, bottom: top + span - 1, right };
  }
  return null;
}

/** The cells `pasted` changes from row `top`, column `left`, over `before` (the cells there now, from row `top`): the undo step, and its right column. */
export function pasteStep(top: number, left: number, pasted: readonly (readonly CellValue[])[], before: GridData, offsets?: readonly number[]): { step: UndoStep; right: number } {
  const step: UndoStep = [];
  const empty = (value: CellValue) => value === null || value === '';
  let right = left;
  pasted.forEach((cells, i) => {
    const offset = offsets?.[i] ?? i;
    const row = top + offset;
    cells.forEach((after, j) => {
      const col = left + j;
      right = Math.max(right, col);
      const was = toCellValue(before[offset]?.[col]);
      if (was === after || (empty(was) && empty(after))) return;
      step.push({ row, col, before: was, after });
    });
  });
  return { step, right };
}
