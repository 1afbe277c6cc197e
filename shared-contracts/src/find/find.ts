import { z } from 'zod';
import { type CellValue, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from '../sheets/sheet.schema.js';
import { wholeNumberParam } from '../sheets/sheet-rows.schema.js';

/**
 * Find in a sheet (ours: the spec is silent; every peer has it). A cell matches when its text as
 * shown contains the searched text, letters compared without case. The text as shown: a number or
 * a boolean as the grid writes it (String), an empty cell none; a formula's computed value on a
 * grid that computes them (the whole grid, once its worker has sent it), else the formula's text
 * (a windowed sheet has no formula engine: its grid shows formulas as their text, so does find).
 * The client on a whole grid and the api on a windowed one both decide by cellMatches.
 */

/** Longest text one can search for (a cell holds up to CELL_MAX_LENGTH, but nobody types a page into a find box). */
export const FIND_QUERY_MAX_CHARS = 256;
/** Most matches one GET /sheets/:id/find answers (the client asks for a page and walks it before asking again). */
export const FIND_LIMIT_MAX = 500;
export const FIND_LIMIT_DEFAULT = 100;
/**
 * The api counts matches up to this many, then stops scanning once the matches asked for are found:
 * the count says 'more than 1,000' instead of reading the rest of a 1,000,000-row sheet.
 */
export const FIND_COUNT_CAP = 1_000;

/** The searched text as compared: lower case (an empty one finds nothing). */
export const findNeedle = (query: string): string => query.toLowerCase();

/** A cell's text as the grid shows it (a formula's: pass the value shown, computed or its text). */
export const shownCellText = (value: CellValue | undefined): string => (value === null || value === undefined ? '' : String(value));

/** Does the cell whose shown value is `value` contain `needle` (findNeedle's)? */
export const cellMatches = (value: CellValue | undefined, needle: string): boolean => needle !== '' && value !== null && value !== undefined && shownCellText(value).toLowerCase().includes(needle);

export const FIND_DIRECTIONS = ['next', 'prev'] as const;
export type FindDirection = (typeof FIND_DIRECTIONS)[number];

/**
 * GET /sheets/:id/find's query: the text, where to start (the matches strictly after — or before,
 * direction=prev — cell (after_row, after_col) in row order; neither: from the sheet's start, or its
 * end for prev), and how many matches to answer. Past the last match it wraps to the first (and back).
 */
export const FindQuerySchema = z
  .object({
    q: z
      .string({ error: 'q must be the text to find, given once' })
      .min(1, 'q must not be empty')
      .max(FIND_QUERY_MAX_CHARS, `q must be at most ${FIND_QUERY_MAX_CHARS} characters`),
    after_row: wholeNumberParam('after_row', 0, SHEET_MAX_ROWS).optional(),
    after_col: wholeNumberParam('after_col', 0, SHEET_MAX_COLUMNS).optional(),
    direction: z.enum(FIND_DIRECTIONS, { error: 'direction must be next or prev' }).default('next'),
    limit: wholeNumberParam('limit', 1, FIND_LIMIT_MAX).default(FIND_LIMIT_DEFAULT),
  })
  .refine((q) => (q.after_row === undefined) === (q.after_col === undefined), { error: 'after_row and after_col go together', path: ['after_col'] });
export type FindQuery = z.output<typeof FindQuerySchema>;

/** A match: its row and column (0-based, as the grid's data), and its place among all matches in row order (1-based). */
export const FindMatchSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);
export type FindMatch = z.infer<typeof FindMatchSchema>;

/**
 * The answer, at the sheet's `version` (one snapshot): the next matches in the direction asked
 * (`wrapped`: some come from the other end), and `total`, every match counted when `complete`,
 * else at least FIND_COUNT_CAP of them (the scan stopped once the matches asked for were found).
 */
export const FindResultSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  row_count: z.number().int(),
  matches: z.array(FindMatchSchema),
  total: z.number().int(),
  complete: z.boolean(),
  wrapped: z.boolean(),
});
export type FindResult = z.infer<typeof FindResultSchema>;

/**
 * One pass over a sheet's rows in row order, fed a window at a time (never the sheet at once), that
 * counts the matches and keeps only the ones the answer needs: the first `limit` after the start
 * cell (next) or the last `limit` before it (prev), and those of the other end for a wrap. The api
 * runs it over its stored chunks; a test's fake api over its rows.
 */
export class FindScan {
  private readonly needle: string;
  private count = 0;
  private readonly head: FindMatch[] = [];
  private tail: FindMatch[] = [];
  private readonly picked: FindMatch[] = [];
  private passed = false;

  /** `shows`: the rows the user's row filter shows (a row failing it is passed over: its matches are neither answered nor counted). */
  constructor(
    private readonly query: Pick<FindQuery, 'q' | 'after_row' | 'after_col' | 'direction' | 'limit'>,
    private readonly shows?: (row: readonly CellValue[]) => boolean,
  ) {
    this.needle = findNeedle(query.q);
  }

  /** Is (row, col) past the start cell in row order (next), or before it (prev)? */
  private wanted(row: number, col: number): boolean {
    const { after_row: r, after_col: c, direction } = this.query;
    if (r === undefined || c === undefined) return true;
    return direction === 'next' ? row > r || (row === r && col > c) : row < r || (row === r && col < c);
  }

  /** Rows from absolute row `first`, in order. False once the answer is settled: no more rows are needed. */
  feed(rows: readonly (readonly CellValue[])[], first: number): boolean {
    const { limit, direction } = this.query;
    const keep = (list: FindMatch[], match: FindMatch) => {
      list.push(match);
      // The last `limit` only: cut in halves, not shifted one by one.
      if (list.length >= limit * 2) list.splice(0, list.length - limit);
    };
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (this.shows && !this.shows(row)) continue;
      const r = first + i;
      for (let c = 0; c < row.length; c++) {
        if (!cellMatches(row[c], this.needle)) continue;
        const match: FindMatch = [r, c, ++this.count];
        if (this.head.length < limit) this.head.push(match);
        if (direction === 'next') {
          if (this.picked.length < limit && this.wanted(r, c)) this.picked.push(match);
        } else if (this.wanted(r, c)) keep(this.picked, match);
        else this.passed = true;
        if (direction === 'prev') keep(this.tail, match);
      }
    }
    return this.skip(first, rows.length);
  }

  /** Rows first..first + count - 1 known to hold no match (not fed): only where the scan is matters. */
  skip(first: number, count: number): boolean {
    const { after_row: r, direction, limit } = this.query;
    if (direction === 'prev' && r !== undefined && first + count - 1 > r) this.passed = true;
    if (this.count <= FIND_COUNT_CAP) return true;
    return direction === 'next' ? this.picked.length < limit : !(this.passed && this.picked.length >= limit);
  }

  /** The answer's matches and count; `complete`: every row was fed. */
  result(complete: boolean): Pick<FindResult, 'matches' | 'total' | 'complete' | 'wrapped'> {
    const { limit, direction } = this.query;
    let matches: FindMatch[];
    let wrapped = false;
    if (direction === 'next') {
      matches = this.picked.slice(0, limit);
      // Past the last match: on from the first (those not given already).
      if (matches.length < limit && complete) {
        const more = this.head.filter((m) => !matches.some((p) => p[0] === m[0] && p[1] === m[1])).slice(0, limit - matches.length);
        wrapped = more.length > 0;
        matches = [...matches, ...more];
      }
    } else {
      matches = this.picked.slice(-limit).reverse();
      if (matches.length < limit && complete) {
        const more = this.tail
          .slice(-limit)
          .reverse()
          .filter((m) => !matches.some((p) => p[0] === m[0] && p[1] === m[1]))
          .slice(0, limit - matches.length);
        wrapped = more.length > 0;
        matches = [...matches, ...more];
      }
    }
    return { matches, total: this.count, complete, wrapped };
  }
}

/** The find bar's texts (ours). */
export const FIND_TEXTS = {
  label: 'Find in sheet',
  placeholder: 'Find',
  previous: 'Previous match (Shift+Enter)',
  next: 'Next match (Enter)',
  close: 'Close (Escape)',
  noMatches: 'No matches',
  searching: 'Searching…',
  /** The match shown is the n-th of `total`. */
  count: (n: number, total: number) => `${n.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  /** The api stopped counting at FIND_COUNT_CAP (a windowed sheet). */
  countMore: (n: number, cap: number) => `${n.toLocaleString('en-US')} of more than ${cap.toLocaleString('en-US')}`,
  failed: 'The sheet could not be searched. Try again.',
} as const;
