import { z } from 'zod';
import { EXPORT_FORMATS } from '../constants.js';
import { unsupportedExportFormat } from '../errors/messages.js';

/** Import result (§3), plus what was made. */
export const ImportResultSchema = z.object({
  updated_sheets: z.number().int(),
  new_categories: z.number().int(),
  sheets: z.array(z.object({ id: z.string(), name: z.string() })),
  group_id: z.string().nullable(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_EXTENSIONS = ['csv', 'xlsx', 'xls'] as const;
export const IMPORT_TOO_LARGE_MESSAGE = 'File is too large (limit 50 MB)';

export const ExportQuerySchema = z.object({
  format: z
    .string()
    .default('csv')
    .refine((f): f is (typeof EXPORT_FORMATS)[number] => (EXPORT_FORMATS as readonly string[]).includes(f), {
      error: (issue) => unsupportedExportFormat(String(issue.input)),
    }),
});
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
