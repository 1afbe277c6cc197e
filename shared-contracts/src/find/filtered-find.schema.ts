import { z } from 'zod';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import { FIND_DIRECTIONS, FIND_LIMIT_DEFAULT, FIND_LIMIT_MAX, FIND_QUERY_MAX_CHARS } from './find.js';
import { FiltersSchema } from './sheet-filter.schema.js';

/**
 * A windowed sheet's find with the user's row filter on (POST /sheets/:id/find): GET
 * /sheets/:id/find's query as JSON, with the filter's columns (POST /sheets/:id/filter's
 * `filters`, the same bounds), sent in a body since a values filter's texts do not fit a URL. The
 * api passes over the rows the filter hides (judged as /filter judges them: filterRowTest), so the
 * matches and their count (`total`, FindResultSchema's) are of the rows shown only.
 */
const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

export const FilteredFindBodySchema = z
  .strictObject({
    q: z
      .string({ error: 'q must be the text to find' })
      .min(1, 'q must not be empty')
      .max(FIND_QUERY_MAX_CHARS, `q must be at most ${FIND_QUERY_MAX_CHARS} characters`),
    after_row: wholeNumber('after_row', 0, SHEET_MAX_ROWS).optional(),
    after_col: wholeNumber('after_col', 0, SHEET_MAX_COLUMNS).optional(),
    direction: z.enum(FIND_DIRECTIONS, { error: 'direction must be next or prev' }).default('next'),
    limit: wholeNumber('limit', 1, FIND_LIMIT_MAX).default(FIND_LIMIT_DEFAULT),
    filters: FiltersSchema,
  })
  .refine((q) => (q.after_row === undefined) === (q.after_col === undefined), { error: 'after_row and after_col go together', path: ['after_col'] });
export type FilteredFindBody = z.output<typeof FilteredFindBodySchema>;
