import { z } from 'zod';
import { GridDataSchema, SHEET_MAX_ROWS } from './sheet.schema.js';

/**
 * Most rows one windowed read (GET /sheets/:id/rows) returns: a few screens' worth, so that a
 * window of a 1,000,000-row sheet costs the api a handful of its 500-row chunks, never the sheet.
 */
export const SHEET_ROWS_WINDOW_MAX = 5_000;

/**
 * A query parameter holding a whole number in [min, max], as text (a query string has no numbers):
 * anything else — empty, negative, a fraction, an exponent, a repeated parameter — is refused with
 * a text naming the parameter and its range, rather than coerced (`Number('')` is 0).
 */
function wholeNumberParam(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,16}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

/** The window: rows [start, start + count) of the grid (0-based, as GET /sheets/:id's `data`). */
export const SheetRowsQuerySchema = z.object({
  start: wholeNumberParam('start', 0, SHEET_MAX_ROWS).default(0),
  count: wholeNumberParam('count', 1, SHEET_ROWS_WINDOW_MAX).default(SHEET_ROWS_WINDOW_MAX),
});
export type SheetRowsQuery = z.output<typeof SheetRowsQuerySchema>;

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
});
export type SheetRows = z.infer<typeof SheetRowsSchema>;
