import { z } from 'zod';
import { CELL_MAX_LENGTH, CellValueSchema, GridDataSchema, SHEET_MAX_COLUMNS } from '../sheets/sheet.schema.js';

/** Longest Python source one job may carry. */
export const CODE_RUN_MAX_CODE_LENGTH = 200_000;
/** Printed output kept per job (characters); past it the output is cut with CODE_RUN_OUTPUT_TRUNCATED_MARKER. */
export const CODE_RUN_OUTPUT_CAP_CHARS = 100 * 1024;
export const CODE_RUN_OUTPUT_TRUNCATED_MARKER = '\n[output truncated at 100 KB]';

/**
 * A job for the code runner ("Agent • Direct Exec"): Python code and the sheet it runs on.
 * The code sees `headers` (list of str), `rows` (list of lists), `records` (a dict per row,
 * keyed by header) and `sheet` ({name, headers, rows}).
 */
export const CodeRunRequestSchema = z.strictObject({
  code: z.string().max(CODE_RUN_MAX_CODE_LENGTH),
  headers: z.array(z.string().max(CELL_MAX_LENGTH)).max(SHEET_MAX_COLUMNS),
  rows: GridDataSchema,
  sheet_name: z.string().max(255).optional(),
});
export type CodeRunRequest = z.infer<typeof CodeRunRequestSchema>;

/**
 * Where a grid came from (spec 02 §5: the shapes the extractor accepts). The first six are
 * read from what the code assigns to `result`; the last three are parsed out of what it
 * printed when it assigned none (PRINTED_OUTPUT_GRID_SOURCES).
 */
export const CODE_RUN_GRID_SOURCES = [
  'list_of_lists',
  'list_of_objects',
  'headers_and_rows',
  'columns_dict',
  'json_text',
  'delimited_text',
  'csv_parsed',
  'table_parsed',
  'array_converted',
] as const;
export type CodeRunGridSource = (typeof CODE_RUN_GRID_SOURCES)[number];

/**
 * Grids parsed out of printed output: comma- or tab-delimited text (csv_parsed), a pipe /
 * markdown table (table_parsed), a printed JSON or Python list (array_converted). Spec 02 §5
 * keeps them only when they look like a schedule.
 */
export const PRINTED_OUTPUT_GRID_SOURCES = ['csv_parsed', 'table_parsed', 'array_converted'] as const;

/** Spec 02 §5: a grid parsed out of printed output that does not look like a schedule. */
export const PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE = 'Parsed output ignored (not a schedule)';
/** Ours (the spec names the rule, not its text): every grid parsed out of printed output looked like a solver's debug log. */
export const PARSED_OUTPUT_NOISE_MESSAGE = 'Parsed output ignored (solver debug log)';
/** Ours: the grid the code returned in `result` looked like a solver's debug log. */
export const RESULT_GRID_NOISE_MESSAGE = 'Result grid ignored (solver debug log)';

export const GRID_DISCARD_REASONS = ['not_a_schedule', 'solver_debug_log'] as const;
/** Why a grid was found but not kept, and the text the user is shown. */
export const GridDiscardSchema = z.object({
  reason: z.enum(GRID_DISCARD_REASONS),
  message: z.string(),
});
export type GridDiscard = z.infer<typeof GridDiscardSchema>;

/** A grid extracted from a job's result: headers and rows padded or trimmed to their width. */
export const CodeRunGridSchema = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(CellValueSchema)),
  source: z.enum(CODE_RUN_GRID_SOURCES),
});
export type CodeRunGrid = z.infer<typeof CodeRunGridSchema>;

/** JSON values, as a job's `result` comes back from Python. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

/** Figures (Matplotlib / seaborn PNGs) one job may return (issue 19); later ones are left out and counted. */
export const CODE_RUN_MAX_FIGURES = 8;
/** Bytes of one figure's PNG; a larger one is left out and counted. */
export const CODE_RUN_FIGURE_MAX_BYTES = 2 * 1024 * 1024;
/** Longest side of a figure in pixels: a bigger figure is drawn at a lower resolution. */
export const CODE_RUN_FIGURE_MAX_SIDE_PX = 4000;

/** One figure the code made (plt.show(), a figure left open at the end, or a Figure as `result`), in order. */
export const CodeRunFigureSchema = z.object({
  mime: z.literal('image/png'),
  /** The PNG, base64 (checked by the middleware: a PNG signature and header, at most CODE_RUN_FIGURE_MAX_BYTES). */
  data: z
    .string()
    .max(Math.ceil(CODE_RUN_FIGURE_MAX_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  width: z.number().int().positive().max(CODE_RUN_FIGURE_MAX_SIDE_PX),
  height: z.number().int().positive().max(CODE_RUN_FIGURE_MAX_SIDE_PX),
});
export type CodeRunFigure = z.infer<typeof CodeRunFigureSchema>;

/** The figure as an image address, for an <img> and its download link. */
export const figureDataUrl = (figure: Pick<CodeRunFigure, 'mime' | 'data'>): string => `data:${figure.mime};base64,${figure.data}`;
/** The file name a figure downloads as: figure-1.png, figure-2.png... in the order the code made them. */
export const figureFileName = (index: number): string => `figure-${index + 1}.png`;
/** What the user is told when figures were left out (too many, or too large). */
export function figuresOmittedText(omitted: number): string {
  const mb = CODE_RUN_FIGURE_MAX_BYTES / (1024 * 1024);
  return `${omitted} figure${omitted === 1 ? ' was' : 's were'} left out (at most ${CODE_RUN_MAX_FIGURES} per run, ${mb} MB each)`;
}

/** What a stored chat answer says of its figures no longer kept (a member's chats keep only the newest). */
export function figuresNotKeptText(count: number): string {
  return `${count} figure${count === 1 ? ' of this answer is' : 's of this answer are'} no longer kept: chats keep only the newest figures. Run the code again to see ${count === 1 ? 'it' : 'them'}.`;
}

/** What a job yields: its printed output, its result, the grid extracted from it, its figures, or an error. */
export const CodeRunResultSchema = z.object({
  execution_output: z.string(),
  result: JsonValueSchema,
  /** The figures the code made, in order (the gVisor engine only: Pyodide has no Matplotlib). */
  figures: z.array(CodeRunFigureSchema).max(CODE_RUN_MAX_FIGURES).optional(),
  /** Figures made but left out: past CODE_RUN_MAX_FIGURES, or larger than CODE_RUN_FIGURE_MAX_BYTES. */
  figures_omitted: z.number().int().positive().optional(),
  grid: CodeRunGridSchema.optional(),
  /** A grid was found (in `result` or the printed output) but discarded by the filters of spec 02 §5. */
  grid_discarded: GridDiscardSchema.optional(),
  error: z.string().optional(),
});
export type CodeRunResult = z.infer<typeof CodeRunResultSchema>;
