import { z } from 'zod';
import { HYBRID_MAX_CELLS } from '../ai/hybrid.schema.js';
import { GridDataSchema, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS, type SheetSummary, SheetSummarySchema } from './sheet.schema.js';

/**
 * Most rows one windowed read (GET /sheets/:id/rows) returns: a few screens' worth, so that a
 * window of a 1,000,000-row sheet costs the api a handful of its 500-row chunks, never the sheet.
 */
export const SHEET_ROWS_WINDOW_MAX = 5_000;

/**
 * From this many rows a sheet is shown a window at a time (issue 23): below it, loading the whole
 * sheet is as fast (100,000 × 26 renders in 0.23 s with fixed column widths, FACTS.md) and keeps
 * every whole-grid feature.
 */
export const WINDOWED_SHEET_MIN_ROWS = 100_000;

/**
 * Does a sheet need the formula engine to read the whole grid? Not when no cell holds a formula (a
 * sheet whose server does not say, `may_have_formulas` absent, may have some), nor when the engine
 * could not take the sheet anyway: past HYBRID_MAX_CELLS held cells (the grid's FormulaValues
 * bound) it shows the formulas as their text, loaded whole or not. Decided on the exact count
 * (`held_cells`, heldCells), never on rows × columns: that only bounds it from above (trailing
 * empty cells are not held), and a sheet it puts past the bound may still be one the engine computes.
 */
function formulasNeedWholeGrid(sheet: Pick<SheetSummary, 'may_have_formulas' | 'held_cells'>): boolean {
  return sheet.may_have_formulas !== false && !(sheet.held_cells !== undefined && sheet.held_cells > HYBRID_MAX_CELLS);
}

/**
 * Is a sheet shown a window at a time? Only when large and without formulas the engine would
 * compute (formulasNeedWholeGrid). Charts do not keep it whole: each reads the rows of its range
 * through the windows. The client and the api both decide by it.
 */
export function opensWindowed(sheet: Pick<SheetSummary, 'metadata' | 'may_have_formulas' | 'held_cells'>): boolean {
  return sheet.metadata.rows >= WINDOWED_SHEET_MIN_ROWS && !formulasNeedWholeGrid(sheet);
}

/**
 * A query parameter holding a whole number in [min, max], as text (a query string has no numbers):
 * anything else — empty, negative, a fraction, an exponent, a repeated parameter — is refused with
 * a text naming the parameter and its range, rather than coerced (`Number('')` is 0).
 */
export function wholeNumberParam(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,16}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

/**
 * The window: rows [start, start + count) of the grid (0-based, as GET /sheets/:id's `data`). With
 * `col_start` and `col_count` (given together), each row holds only columns [col_start, col_start +
 * col_count) — row[k] is column col_start + k, a row ending before them is shorter or empty — and the
 * answer says `col_start`: a whole-column Delete, Copy or remove reads a million rows of its columns
 * only, not every column of every row (10 columns: a tenth of the reply to send and parse).
 */
export const SheetRowsQuerySchema = z
  .object({
    start: wholeNumberParam('start', 0, SHEET_MAX_ROWS).default(0),
    count: wholeNumberParam('count', 1, SHEET_ROWS_WINDOW_MAX).default(SHEET_ROWS_WINDOW_MAX),
    /** `summary=1`: the answer carries the sheet's summary too (name, headers, charts, access), read in the same snapshot. */
    summary: z.literal('1', { error: 'summary must be 1' }).optional(),
    col_start: wholeNumberParam('col_start', 0, SHEET_MAX_COLUMNS - 1).optional(),
    col_count: wholeNumberParam('col_count', 1, SHEET_MAX_COLUMNS).optional(),
  })
  .refine((q) => (q.col_start === undefined) === (q.col_count === undefined), { error: 'col_start and col_count go together', path: ['col_count'] })
  .refine((q) => q.col_start === undefined || q.col_count === undefined || q.col_start + q.col_count <= SHEET_MAX_COLUMNS, {
    error: `col_start + col_count must be at most ${SHEET_MAX_COLUMNS}`,
    path: ['col_count'],
  });
export type SheetRowsQuery = z.output<typeof SheetRowsQuerySchema>;

/**
 * GET /sheets/:id's query. `window=N`: a client that would show the sheet a window at a time
 * (opensWindowed) gets its summary and first N rows only, in the same one request that brings a
 * smaller sheet whole — opening either costs one round trip.
 */
export const SheetOpenQuerySchema = z.object({
  window: wholeNumberParam('window', 1, SHEET_ROWS_WINDOW_MAX).optional(),
});
export type SheetOpenQuery = z.output<typeof SheetOpenQuerySchema>;

/**
 * One window of a sheet's rows, with what a client needs to place it: the sheet's version (the
 * window is exactly the rows of that version) and its size. `data` is shorter than `count` past the
 * end of the sheet (empty when `start` is at or past `row_count`); a row may be shorter than
 * `column_count`, as in GET /sheets/:id.
 */
export const SheetRowsSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  row_count: z.number().int(),
  column_count: z.number().int(),
  start: z.number().int(),
  data: GridDataSchema,
  /** With col_start and col_count: the first column of each row of `data`. */
  col_start: z.number().int().optional(),
  /** With `summary=1`: the sheet without its cells, at the same version. */
  sheet: SheetSummarySchema.optional(),
});
export type SheetRows = z.infer<typeof SheetRowsSchema>;
