import { z } from 'zod';
import { CellValueSchema } from '../sheets/sheet.schema.js';

/** Differing cells a reply lists (their count is always whole). */
export const GRID_DIFF_LIST_MAX = 1000;

/** One cell where the code's grid and the sheet differ (zero-based row and col, as spec 02 §3 Cell selection). */
export const GridCellDiffSchema = z.object({
  row: z.number().int().min(0),
  col: z.number().int().min(0),
  header: z.string(),
  /** What the code gives there (null past the code's grid). */
  code: CellValueSchema,
  /** What the sheet has there (null past the sheet's grid). */
  sheet: CellValueSchema,
});
export type GridCellDiff = z.infer<typeof GridCellDiffSchema>;

/**
 * POST /hybrid/backward: how the grid the code produces differs from the grid the user has.
 * Cells compare as text (10 and "10" are equal; null and "" too).
 */
export const GridDiffSchema = z.object({
  /** Differing cells in all (headers not counted). */
  count: z.number().int().min(0),
  headers_changed: z.boolean(),
  code_headers: z.array(z.string()),
  code_rows: z.number().int().min(0),
  sheet_rows: z.number().int().min(0),
  /** The first GRID_DIFF_LIST_MAX differing cells, row by row. */
  cells: z.array(GridCellDiffSchema).max(GRID_DIFF_LIST_MAX),
});
export type GridDiff = z.infer<typeof GridDiffSchema>;
