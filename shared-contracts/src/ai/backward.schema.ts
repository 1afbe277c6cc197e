import { z } from 'zod';
import { CELL_MAX_LENGTH, type GridData, SHEET_MAX_COLUMNS, isGridData } from '../sheets/sheet.schema.js';
import { HYBRID_MAX_CELLS, HybridForwardRequestSchema, hybridRequestSheet } from './hybrid.schema.js';

/**
 * POST /hybrid/backward (spec 02 §7: "streaming, similar body"). Forward goes from the code to
 * the grid; backward goes from the grid back to the code: the user edited a grid the code
 * produced, and the code is brought up to date with those edits. The body is forward's, with
 * `code` (the program that produced the grid, required), `handsontable_data` (the sheet it
 * runs on; empty when the program builds its grid alone) and `edited_data` (the grid as the
 * user has it now). The middleware runs the code, compares its grid with edited_data
 * (`differences` in the reply), and, when they differ and a model provider is configured,
 * has the model rewrite the code until it produces the edited grid (up to 3 fixes).
 */

export const BACKWARD_CODE_REQUIRED_MESSAGE = 'code is required: the program that produced the grid';
export const BACKWARD_EDITED_REQUIRED_MESSAGE = 'edited_data is required: the grid as the user edited it';
/** The code already yields the edited grid: nothing to change. */
export const BACKWARD_UP_TO_DATE_MESSAGE = 'The code already produces the edited grid: nothing to change';
export const BACKWARD_NO_GRID_MESSAGE = 'The code returns no grid to compare with the edited one';
export const backwardUpdatedMessage = (attempts: number) =>
  `The code was updated and now produces the edited grid (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`;
export const backwardDifferencesMessage = (count: number, headersChanged: boolean) =>
  `${count} ${count === 1 ? 'cell differs' : 'cells differ'} from what the code produces${headersChanged ? ', and the headers differ' : ''}`;

const GridSchema = z.custom<GridData>(isGridData, {
  message: 'must be a list of rows, each a list of cells (text up to 32767 characters, number, boolean or null)',
});

export const HybridBackwardRequestSchema = HybridForwardRequestSchema.extend({
  edited_data: z.object({
    headers: z.array(z.string().max(CELL_MAX_LENGTH)).max(SHEET_MAX_COLUMNS).optional(),
    rows: GridSchema.optional(),
    data: GridSchema.optional(),
  }).optional(),
  /** false: only compare (no rewrite, as Direct Exec runs without the model). Default true. */
  enable_ai_generation: z.boolean().default(true),
}).superRefine((body, ctx) => {
  if (!body.code?.trim()) ctx.addIssue({ code: 'custom', path: ['code'], message: BACKWARD_CODE_REQUIRED_MESSAGE });
  const edited = body.edited_data?.rows ?? body.edited_data?.data;
  if (!edited) ctx.addIssue({ code: 'custom', path: ['edited_data'], message: BACKWARD_EDITED_REQUIRED_MESSAGE });
  const { headers, rows } = hybridRequestSheet(body);
  let cells = 0;
  for (const row of rows) cells += Math.max(row.length, headers.length);
  for (const row of edited ?? []) cells += Math.max(row.length, body.edited_data?.headers?.length ?? 0);
  if (cells > HYBRID_MAX_CELLS) {
    ctx.addIssue({ code: 'custom', path: ['edited_data'], message: `the sheet and the edited grid have ${cells} cells; at most ${HYBRID_MAX_CELLS} can be sent` });
  }
});
export type HybridBackwardRequest = z.infer<typeof HybridBackwardRequestSchema>;

/** The edited grid of a backward request: rows (else data), headers (else none). */
export function backwardEditedGrid(body: HybridBackwardRequest): { headers: string[]; rows: GridData } {
  return { headers: body.edited_data?.headers ?? [], rows: body.edited_data?.rows ?? body.edited_data?.data ?? [] };
}
