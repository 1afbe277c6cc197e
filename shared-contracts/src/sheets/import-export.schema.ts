import { z } from 'zod';
import { EXPORT_FORMATS } from '../constants.js';
import { unsupportedExportFormat } from '../errors/messages.js';
import { GridDataSchema, SheetMetadataSchema } from './sheet.schema.js';

/** Import result (§3), plus what was made. */
export const ImportResultSchema = z.object({
  updated_sheets: z.number().int(),
  new_categories: z.number().int(),
  sheets: z.array(z.object({ id: z.string(), name: z.string() })),
  group_id: z.string().nullable(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

/**
 * POST /api/v1/import?progress=<id>: an id the client picks (a UUID) for the import, so that the
 * workspace socket's `import_progress` frames (sent to the importing user only) can be told apart
 * from another tab's import. Optional: without it, no frames.
 */
export const IMPORT_PROGRESS_ID_MESSAGE = 'progress must be a UUID (the id the client picked for this import)';
export const ImportQuerySchema = z.object({
  progress: z.uuid({ error: IMPORT_PROGRESS_ID_MESSAGE }).optional(),
});
export type ImportQuery = z.infer<typeof ImportQuerySchema>;

/** The server's phase of an import, as the workspace socket tells the importing user: rows stored so far, of all. */
export const ImportProgressSchema = z.object({
  import_id: z.uuid(),
  rows_stored: z.number().int().nonnegative(),
  rows_total: z.number().int().nonnegative(),
});
export type ImportProgress = z.infer<typeof ImportProgressSchema>;

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_EXTENSIONS = ['csv', 'xlsx', 'xls'] as const;

/**
 * Imports, and exports, one member may have under way at once, and the api process in all: each
 * holds a whole upload or a whole sheet's text in memory until it is done (an XLSX export of a
 * sheet with formulas also waits for the one formula worker). Past a bound the request is refused
 * with 429 before anything is read.
 */
export const TRANSFERS_PER_USER_MAX = 2;
export const IMPORTS_AT_ONCE_MAX = 4;
export const EXPORTS_AT_ONCE_MAX = 8;
/**
 * Every request that holds a whole sheet (or a whole version of one) in the api's memory until
 * its reply is done, bounded like imports and exports (api transfers/transfer-slots.ts):
 * - 'sheet read': GET /sheets/{id} answered whole for a sheet of at least SHEET_READ_SLOT_MIN_BYTES
 *   (a windowed answer, or a smaller sheet, takes none), GET /sheets/{id}/versions/{versionId}, and
 *   a version's rows when the version is rebuilt for them (not when it is kept already), a cell's
 *   history (each version that replaced the whole grid is rebuilt for it), a find (GET /sheets/{id}/find:
 *   it holds one window of rows at a time, but scans up to the whole sheet: seconds of the api's time);
 *   and a live sync with the cells (a whole page's, issue 23: a windowed page's carries none and reads
 *   no grid), which waits for the process's slot instead of being refused (every whole page on the
 *   sheet must get it);
 * - 'sheet copy': POST /sheets/{id}/duplicate;
 * - 'restore': a version made live again (snapshot restore, checkout, accept: the version and the
 *   sheet are both held whole, parsed);
 * - 'save': PUT /sheets/{id} (the Save command: its body is a whole grid, up to 64 MB, and the sheet
 *   is read whole, parsed, to merge and diff it) and POST /sheets/{id}/versions (a proposal: a whole
 *   grid, or its base version rebuilt whole), taken before the body is read; and POST /sheets (a new
 *   sheet with its grid) when its body is SHEET_READ_SLOT_MIN_BYTES or more, or of a length not told.
 * The web client sends at most one of each at a time per sheet it shows (opening, a preview, a
 * version's two first windows), so a member's bound leaves room for a few tabs.
 */
export type TransferKind = 'import' | 'export' | 'sheet read' | 'sheet copy' | 'restore' | 'save';
export const TRANSFER_BOUNDS: Readonly<Record<TransferKind, { perUser: number; atOnce: number; plural: string }>> = {
  import: { perUser: TRANSFERS_PER_USER_MAX, atOnce: IMPORTS_AT_ONCE_MAX, plural: 'imports' },
  export: { perUser: TRANSFERS_PER_USER_MAX, atOnce: EXPORTS_AT_ONCE_MAX, plural: 'exports' },
  'sheet read': { perUser: 4, atOnce: 8, plural: 'sheet reads' },
  'sheet copy': { perUser: 2, atOnce: 4, plural: 'sheet copies' },
  restore: { perUser: 2, atOnce: 4, plural: 'restores' },
  save: { perUser: 2, atOnce: 4, plural: 'saves' },
};
/**
 * A whole sheet's answer takes a 'sheet read' slot from this size of its stored text (1 MiB, some
 * 100,000 short cells), a new sheet's body a 'save' slot from this size: smaller ones take none.
 */
export const SHEET_READ_SLOT_MIN_BYTES = 1024 * 1024;
export const TRANSFER_TEXTS = {
  userBusy: (kind: TransferKind) => `You have ${TRANSFER_BOUNDS[kind].perUser} ${TRANSFER_BOUNDS[kind].plural} under way. Wait for one to finish.`,
  serverBusy: (kind: TransferKind) => `The server is busy with other ${TRANSFER_BOUNDS[kind].plural}. Try again in a moment.`,
};
export const IMPORT_TOO_LARGE_MESSAGE = 'File is too large (limit 50 MB)';

/**
 * What a CSV export does with a cell that a spreadsheet would run as a formula (issue 17 §4):
 * 'escape' (the default) writes it as text behind an apostrophe, 'keep' writes it as it is.
 */
export const EXPORT_FORMULA_MODES = ['escape', 'keep'] as const;
export type ExportFormulaMode = (typeof EXPORT_FORMULA_MODES)[number];
export const unsupportedExportFormulas = (value: string) => `Unsupported formulas option: ${value} (use escape or keep)`;

export const ExportQuerySchema = z.object({
  format: z
    .string()
    .default('csv')
    .refine((f): f is (typeof EXPORT_FORMATS)[number] => (EXPORT_FORMATS as readonly string[]).includes(f), {
      error: (issue) => unsupportedExportFormat(String(issue.input)),
    }),
  formulas: z
    .string()
    .default('escape')
    .refine((f): f is ExportFormulaMode => (EXPORT_FORMULA_MODES as readonly string[]).includes(f), {
      error: (issue) => unsupportedExportFormulas(String(issue.input)),
    }),
});
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The JSON export's file (format=json). */
export const ExportJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  headers: z.array(z.string()),
  data: GridDataSchema,
  metadata: SheetMetadataSchema,
});
