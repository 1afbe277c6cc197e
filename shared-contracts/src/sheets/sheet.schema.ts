import { z } from 'zod';
import { CATEGORY_NAMES, SHEET_LIST_PAGE_SIZE } from '../constants.js';
import { SheetNameSchema } from './sheet-name.js';
import { AccessLevelSchema } from '../access/access.schema.js';

/** Grid bounds: those of an XLSX worksheet, so every sheet can be exported. */
export const SHEET_MAX_ROWS = 1_048_576;
export const SHEET_MAX_COLUMNS = 16_384;
/** Longest text of one cell (the XLSX limit). */
export const CELL_MAX_LENGTH = 32_767;
/** Most cells one PATCH may change. */
export const CELL_PATCH_MAX_CHANGES = 10_000;

export const CellValueSchema = z.union([z.string().max(CELL_MAX_LENGTH), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof CellValueSchema>;

/** Rows of cells. A stored row may be shorter than `metadata.columns`: missing cells are empty. */
export const GridDataSchema = z.array(z.array(CellValueSchema).max(SHEET_MAX_COLUMNS)).max(SHEET_MAX_ROWS);
export type GridData = z.infer<typeof GridDataSchema>;

export const SheetMetadataSchema = z.looseObject({
  headers: z.array(z.string()),
  description: z.string(),
  tags: z.array(z.string()),
  rows: z.number().int(),
  columns: z.number().int(),
  groupId: z.string().nullable(),
  position: z.number().int(),
  category: z.enum(CATEGORY_NAMES),
  /** The JSON text of its cells, in bytes (shown as fileSizeLabel); absent from servers before issue 22. */
  size: z.number().int().nonnegative().optional(),
});
export type SheetMetadata = z.infer<typeof SheetMetadataSchema>;

/** A sheet without its cells, as lists and the tree carry it. */
export const SheetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  group_id: z.string().nullable(),
  position: z.number().int(),
  metadata: SheetMetadataSchema,
  is_favorite: z.boolean(),
  /** The caller's level on it (absent from servers before issue 18). */
  access: AccessLevelSchema.optional(),
  /**
   * False only when no cell holds a formula (issue 23): set by every write that may store one,
   * cleared only when the whole grid is written without any. Conservative (true may be stale);
   * absent from servers before it, which a client takes as true.
   */
  may_have_formulas: z.boolean().optional(),
  /**
   * The cells the formula engine would be given, loaded whole (heldCells of the stored grid), when
   * the server knows it exactly: given by GET /sheets/:id only, absent when a column insert or
   * removal is not yet applied to every stored chunk (the count is of the stored text). Lets a
   * sheet whose formulas the engine could not take anyway open a window at a time (opensWindowed).
   */
  held_cells: z.number().int().nonnegative().optional(),
});
export type SheetSummary = z.infer<typeof SheetSummarySchema>;

/** A sheet as the server has it (§3), with its cells. */
export const SheetSchema = SheetSummarySchema.extend({
  data: GridDataSchema,
  /**
   * Asked with `window=N` (GET /sheets/:id, issue 23) of a sheet shown a window at a time
   * (opensWindowed): `data` holds only its first N rows. Absent: `data` is the whole grid.
   */
  windowed: z.literal(true).optional(),
});
export type Sheet = z.infer<typeof SheetSchema>;

export const SheetListSchema = z.object({ sheets: z.array(SheetSummarySchema), count: z.number().int() });
export type SheetList = z.infer<typeof SheetListSchema>;

const Id = z.uuid({ error: 'Invalid id' });
const Tags = z.array(z.string().trim().min(1).max(50)).max(20);
const Description = z.string().max(2000);
/** Client metadata kept as given besides the fields the server computes (origin, template, lastAIUpdate...). */
const ClientMetadata = z.record(z.string(), z.unknown());

/** The fields a create and an update share. */
const SheetFields = {
  name: SheetNameSchema.optional(),
  title: SheetNameSchema.optional(),
  description: Description.optional(),
  tags: Tags.optional(),
  group_id: Id.nullable().optional(),
  position: z.number().int().min(0).optional(),
  headers: z.array(z.string().max(CELL_MAX_LENGTH)).max(SHEET_MAX_COLUMNS).optional(),
  data: GridDataSchema.optional(),
};

export const CreateSheetBodySchema = z.strictObject({
  ...SheetFields,
  settings: z.record(z.string(), z.unknown()).optional(),
  metadata: ClientMetadata.and(
    z.object({
      rows: z.number().int().min(0).max(SHEET_MAX_ROWS).optional(),
      columns: z.number().int().min(0).max(SHEET_MAX_COLUMNS).optional(),
    }),
  ).optional(),
});
export type CreateSheetBody = z.infer<typeof CreateSheetBodySchema>;

/**
 * PUT: any of the fields; `data` replaces the grid. With `base_version` older than the
 * sheet's, the cells are merged one by one against that version (409 only where the same
 * cell changed on both sides). Without it the save is taken as based on the current version.
 */
export const UpdateSheetBodySchema = z.strictObject({
  ...SheetFields,
  metadata: ClientMetadata.optional(),
  base_version: z.number().int().min(1).optional(),
  version: z.number().int().min(1).optional(),
});
export type UpdateSheetBody = z.infer<typeof UpdateSheetBodySchema>;

export const CellChangeSchema = z.strictObject({
  row: z.number().int().min(0).max(SHEET_MAX_ROWS - 1),
  col: z.number().int().min(0).max(SHEET_MAX_COLUMNS - 1),
  value: CellValueSchema,
});
export type CellChange = z.infer<typeof CellChangeSchema>;

export const CellPatchBodySchema = z.strictObject({
  base_version: z.number().int().min(1),
  changes: z.array(CellChangeSchema).min(1).max(CELL_PATCH_MAX_CHANGES),
});
export type CellPatchBody = z.infer<typeof CellPatchBodySchema>;

export const CellPatchResultSchema = z.object({ id: z.string(), version: z.number().int(), updated_at: z.string() });
export type CellPatchResult = z.infer<typeof CellPatchResultSchema>;

/** details of a 409: the sheet's version now and the cells changed on both sides. */
export const SheetConflictDetailsSchema = z.object({
  current_version: z.number().int(),
  conflicts: z.array(z.object({ row: z.number().int(), col: z.number().int(), value: CellValueSchema })),
});
export type SheetConflictDetails = z.infer<typeof SheetConflictDetailsSchema>;

export const SHEET_SORT_FIELDS = ['updated_at', 'created_at', 'name', 'position'] as const;

export const SheetListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(SHEET_LIST_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
  search: z.string().max(200).optional(),
  sort: z.enum(SHEET_SORT_FIELDS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  favorites: z.enum(['true', 'false']).optional(),
  group_id: z.union([Id, z.literal('root')]).optional(),
});
export type SheetListQuery = z.infer<typeof SheetListQuerySchema>;

export const FavoriteToggleResultSchema = z.object({ sheet_id: z.string(), is_favorite: z.boolean() });
export type FavoriteToggleResult = z.infer<typeof FavoriteToggleResultSchema>;

export const DeleteResultSchema = z.object({ status: z.literal('deleted'), id: z.string() });
export type DeleteResult = z.infer<typeof DeleteResultSchema>;

const isCellValue = (cell: unknown): boolean =>
  cell === null ||
  typeof cell === 'number' ||
  typeof cell === 'boolean' ||
  (typeof cell === 'string' && cell.length <= CELL_MAX_LENGTH);

/**
 * GridDataSchema's rules in one tight loop. zod takes about 1.5 s on the 2.6 million cells of a
 * 100,000 × 26 sheet — most of the time budget for opening it — and this about 20 ms. It accepts
 * exactly what GridDataSchema accepts (sheet.schema.test.ts compares them) and, unlike a parse,
 * returns the same arrays, which the grid then edits in place.
 */
export function isGridData(value: unknown): value is GridData {
  if (!Array.isArray(value) || value.length > SHEET_MAX_ROWS) return false;
  for (const row of value) {
    if (!Array.isArray(row) || row.length > SHEET_MAX_COLUMNS) return false;
    for (let c = 0; c < row.length; c++) {
      if (!(c in row) || !isCellValue(row[c])) return false;
    }
  }
  return true;
}

/**
 * A sheet reply checked as SheetSchema does: the summary through its zod schema, the grid
 * through isGridData; anything else through SheetSchema itself, for its detailed error.
 */
export function parseSheet(value: unknown): Sheet {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { data, windowed, ...summary } = value as Record<string, unknown>;
    if (isGridData(data) && (windowed === undefined || windowed === true)) return { ...SheetSummarySchema.parse(summary), data, ...(windowed ? { windowed } : {}) };
  }
  return SheetSchema.parse(value);
}
