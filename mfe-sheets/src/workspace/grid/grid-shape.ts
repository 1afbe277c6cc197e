import { columnLabel, type CellValue, type GridData, type SheetSize } from '@tessera/contracts';

/** The contracts' definition of a formula cell (shared with the api); the engine is loaded only when a cell holds one (it costs seconds on large plain sheets). */
export { hasFormula, isFormula } from '@tessera/contracts';

/** The label of column `index`: the sheet's header, else the letter label (A..Z, AA...). */
export const headerLabel = (headers: readonly string[], index: number): string => headers[index] || columnLabel(index);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML that shows exactly that text. Handsontable writes column header labels with
 * innerHTML, and a header is user text: unescaped, `<div style="position:fixed">` could draw a
 * fake sign-in page over the screen (issue 17 §4).
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** The stored size of a loaded sheet: its metadata, or the data when that is larger. */
export function storedSize(data: GridData, rows: number, cols: number): SheetSize {
  let width = cols;
  for (const row of data) if (row.length > width) width = row.length;
  return { rows: Math.max(rows, data.length), cols: width };
}

/** The size after cells were typed: typing into the spare area beyond the stored grid extends it. */
export function sizeAfterEdits(size: SheetSize, changes: readonly { row: number; col: number; value: CellValue }[]): SheetSize {
  let { rows, cols } = size;
  for (const { row, col, value } of changes) {
    if (value === null || value === '') continue;
    rows = Math.max(rows, row + 1);
    cols = Math.max(cols, col + 1);
  }
  return { rows, cols };
}

/** The size after rows or columns were inserted (amount > 0) or removed (amount < 0) at `index`. */
export function sizeAfterStructure(size: SheetSize, axis: 'row' | 'col', index: number, amount: number): SheetSize {
  const key = axis === 'row' ? 'rows' : 'cols';
  const count = size[key];
  if (index > count) return size;
  const next = amount > 0 ? count + amount : count - Math.max(0, Math.min(count, index - amount) - index);
  return { ...size, [key]: next };
}

/** The stored part of the grid's rows (the editor shows spare rows and columns beyond it). */
export function storedCells(data: GridData, size: SheetSize): GridData {
  const out: GridData = new Array(size.rows);
  for (let r = 0; r < out.length; r++) {
    const row = data[r] ?? [];
    out[r] = row.length > size.cols ? row.slice(0, size.cols) : row.slice();
  }
  return out;
}

/** A cell's value as the contracts hold it (Handsontable may hand back undefined for never-set cells). */
export const toCellValue = (value: unknown): CellValue =>
  value === undefined ? null : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : String(value);

// A plain decimal: no leading zeros (a '007' code stays text), optional fraction and exponent.
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?(e[+-]?\d+)?$/i;

/** What a typed or pasted text becomes, as in a spreadsheet: a number when it reads as one, else the text. */
export function typedValue(value: unknown): unknown {
  if (typeof value !== 'string' || !NUMBER_TEXT.test(value.trim())) return value;
  const number = Number(value.trim());
  return Number.isFinite(number) ? number : value;
}

/**
 * Pads short rows with empty cells to `cols`, in place. Stored rows may be shorter than the
 * sheet (trailing empty cells are not kept), while the grid takes its column count from the
 * first row: a short first row would shift the cells of the others.
 */
export function padRows(data: GridData, cols: number): GridData {
  for (const row of data) while (row.length < cols) row.push(null);
  return data;
}

/** Rows padded per task by padRowsInSlices: a few milliseconds each. */
export const PAD_SLICE_ROWS = 10_000;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * padRows for a sheet about to be shown, a slice of rows per task, so that a large sheet's padding
 * is not one long block of the page; it resolves in a task of its own (what the caller does next
 * is not added to the task that parsed the sheet). Resolves false when `wanted()` turned false
 * meanwhile (the sheet is no longer the one to show): the rows are then left as they are.
 */
export async function padRowsInSlices(data: GridData, cols: number, wanted: () => boolean): Promise<boolean> {
  for (let start = 0; start < data.length; start += PAD_SLICE_ROWS) {
    const end = Math.min(data.length, start + PAD_SLICE_ROWS);
    for (let r = start; r < end; r++) {
      const row = data[r];
      while (row.length < cols) row.push(null);
    }
    await nextTask();
    if (!wanted()) return false;
  }
  if (data.length === 0) await nextTask();
  return wanted();
}
