import { z } from 'zod';
import { type CellValue, CELL_MAX_LENGTH, SHEET_MAX_COLUMNS } from '../sheets/sheet.schema.js';
import { shownCellText } from './find.js';
import { type ColumnFilter, columnFilterTest, compareFilterTexts, FILTER_CONDITION_KINDS, FILTER_VALUE_MAX_CHARS, FILTER_VALUES_SHOWN, valueMatchesSearch } from './row-filter.js';
import { RunsBuilder, packRuns } from './row-runs.js';

/**
 * A windowed sheet's row filter, judged by the api (its rows are not in the browser): POST
 * /sheets/:id/filter answers the rows shown, POST /sheets/:id/filter/values a column's values for
 * the filter's dialog. The same filter as a whole grid's (row-filter.ts: columnFilterTest on each
 * cell's shown text; a windowed sheet has no formula engine, so a formula is judged by its text, as
 * its grid shows it), sent as JSON: a values filter's texts as an array.
 */

/** Columns one request may filter (a person filters a few; each costs every row a test). */
export const FILTER_COLUMNS_MAX = 64;
/** Texts a values filter may list (ticked or unticked one by one in the dialog, 200 shown at a time). */
export const FILTER_TEXTS_MAX = 10_000;
/** Characters of every listed text together in one request, bounding what it holds while it scans. */
export const FILTER_TEXTS_MAX_CHARS = 1_000_000;
/** A filter request's body (the texts above as JSON, escapes included). */
export const FILTER_BODY_MAX_BYTES = 8 * 1024 * 1024;

const ColumnIndexSchema = z
  .number({ error: `column must be a whole number from 0 to ${SHEET_MAX_COLUMNS - 1}` })
  .int(`column must be a whole number from 0 to ${SHEET_MAX_COLUMNS - 1}`)
  .min(0, `column must be a whole number from 0 to ${SHEET_MAX_COLUMNS - 1}`)
  .max(SHEET_MAX_COLUMNS - 1, `column must be a whole number from 0 to ${SHEET_MAX_COLUMNS - 1}`);

/** One column's filter as sent: `values` (texts ticked, mode only, or unticked, mode except) and `condition`, each null when unused. */
export const ColumnFilterBodySchema = z.strictObject({
  column: ColumnIndexSchema,
  values: z
    .strictObject({
      mode: z.enum(['only', 'except'], { error: 'values.mode must be only or except' }),
      texts: z.array(z.string().max(CELL_MAX_LENGTH, `a listed text may be at most ${CELL_MAX_LENGTH} characters`)).max(FILTER_TEXTS_MAX, `a filter may list at most ${FILTER_TEXTS_MAX} texts`),
    })
    .nullable()
    .default(null),
  condition: z
    .strictObject({
      kind: z.enum(FILTER_CONDITION_KINDS, { error: `condition.kind must be one of ${FILTER_CONDITION_KINDS.join(', ')}` }),
      value: z.string().max(FILTER_VALUE_MAX_CHARS, `condition.value may be at most ${FILTER_VALUE_MAX_CHARS} characters`),
    })
    .nullable()
    .default(null),
});
export type ColumnFilterBody = z.output<typeof ColumnFilterBodySchema>;

/** The filters of a request (POST /sheets/:id/filter, its values, a find with a filter on). */
export const FiltersSchema = z
  .array(ColumnFilterBodySchema, { error: 'filters must be a list of column filters' })
  .max(FILTER_COLUMNS_MAX, `at most ${FILTER_COLUMNS_MAX} columns may be filtered`)
  .refine((filters) => new Set(filters.map((f) => f.column)).size === filters.length, { error: 'each column may be filtered once' })
  .refine((filters) => filters.reduce((n, f) => n + (f.values?.texts.reduce((m, t) => m + t.length, 0) ?? 0), 0) <= FILTER_TEXTS_MAX_CHARS, {
    error: `the listed texts may hold at most ${FILTER_TEXTS_MAX_CHARS} characters together`,
  });

/** POST /sheets/:id/filter's body: the filtered columns' filters (every column within the sheet). */
export const SheetFilterBodySchema = z.strictObject({ filters: FiltersSchema });
export type SheetFilterBody = z.output<typeof SheetFilterBodySchema>;

/**
 * The rows a filter shows, at the sheet's `version` (cells edited after it are the client's to judge):
 * `runs` (row-runs.ts' packed text) of the sheet's `row_count` rows, `shown` of the filter's range,
 * its first `rows` rows (up to the last row holding a value, as a whole grid's: the rows below it
 * are shown, outside the range, and in `runs`).
 */
export const SheetFilterResultSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  row_count: z.number().int(),
  rows: z.number().int(),
  shown: z.number().int(),
  runs: z.string(),
});
export type SheetFilterResult = z.infer<typeof SheetFilterResultSchema>;

/**
 * POST /sheets/:id/filter/values' body: the filters (the column's own is left out), the column, the
 * dialog's search text; `all`: every value matching, not the first FILTER_VALUES_SHOWN (the dialog's
 * Select all / Clear with a search), as many as a filter may list (FILTER_TEXTS_MAX texts of
 * FILTER_TEXTS_MAX_CHARS characters in all; `more` says how many did not fit).
 */
export const SheetFilterValuesBodySchema = z.strictObject({
  filters: FiltersSchema,
  column: ColumnIndexSchema,
  search: z.string().max(FILTER_VALUE_MAX_CHARS, `search may be at most ${FILTER_VALUE_MAX_CHARS} characters`).default(''),
  all: z.boolean({ error: 'all must be true or false' }).optional(),
});
export type SheetFilterValuesBody = z.output<typeof SheetFilterValuesBodySchema>;

/**
 * A column's values as the dialog lists them (distinctValues' order), in the rows the other columns'
 * filters show of the filter's range, matching the search: the first FILTER_VALUES_SHOWN with their
 * counts, and how many more values there are (`more`).
 */
export const SheetFilterValuesResultSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  values: z.array(z.tuple([z.string(), z.number().int()])),
  more: z.number().int(),
});
export type SheetFilterValuesResult = z.infer<typeof SheetFilterValuesResultSchema>;

/** A column's filter as sent, from the grid's. */
export const columnFilterBody = (column: number, filter: ColumnFilter): ColumnFilterBody => ({
  column,
  values: filter.values ? { mode: filter.values.mode, texts: [...filter.values.texts] } : null,
  condition: filter.condition ? { ...filter.condition } : null,
});

/** A filter as sent, as the grid's (its texts a Set). */
export const columnFilterOf = (body: ColumnFilterBody): ColumnFilter => ({
  values: body.values ? { mode: body.values.mode, texts: new Set(body.values.texts) } : null,
  condition: body.condition,
});

/** Does a row hold a value (a cell neither null nor '')? The filter's range ends at the last such row (grid-filter's usedRows). */
const holdsValue = (row: readonly CellValue[] | undefined): boolean => row !== undefined && row.some((v) => v !== null && v !== undefined && v !== '');

/** The filters prepared for many rows: does a row pass every column's, but `except`'s? (A find with a filter on skips the rows failing it.) */
export function filterRowTest(filters: readonly ColumnFilterBody[], except?: number): (row: readonly CellValue[] | undefined) => boolean {
  const tests = filters.filter((f) => f.column !== except).map((f) => [f.column, columnFilterTest(columnFilterOf(f))] as const);
  return (row) => {
    for (const [col, test] of tests) if (!test(row?.[col])) return false;
    return true;
  };
}

/**
 * One pass over a sheet's rows in row order, fed a window at a time, building the runs of the rows
 * a filter shows. The range's end (the last row holding a value) is known only at the end: the
 * passes counted after the last row seen holding one are taken off then, and every row past it shown.
 */
export class RowFilterScan {
  private readonly passes: (row: readonly CellValue[] | undefined) => boolean;
  private readonly runs = new RunsBuilder();
  private used = 0;
  private shownPastUsed = 0;

  constructor(filters: readonly ColumnFilterBody[]) {
    this.passes = filterRowTest(filters);
  }

  /** Rows from absolute row `first`, in order. */
  feed(rows: readonly (readonly CellValue[])[], first: number): void {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (holdsValue(row)) {
        this.used = first + i + 1;
        this.shownPastUsed = 0;
      }
      if (this.passes(row)) {
        this.runs.add(first + i);
        if (first + i >= this.used) this.shownPastUsed++;
      }
    }
  }

  /** The answer for a sheet of `rowCount` rows (all fed). */
  result(rowCount: number): Pick<SheetFilterResult, 'rows' | 'shown' | 'runs'> {
    const shown = this.runs.shown - this.shownPastUsed;
    this.runs.cut(this.used);
    this.runs.addRange(this.used, rowCount - this.used);
    return { rows: this.used, shown, runs: packRuns(this.runs.flat()) };
  }
}

/** A 53-bit hash of a text (cyrb53): the values past the listed ones are counted by it, not kept. */
function hashText(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A column's values counted over rows fed in order, as distinctValues orders them, keeping the texts
 * of the first FILTER_VALUES_SHOWN only (a sorted list; a new text goes after those it ties with,
 * as a stable sort of first appearances puts it): one pushed past them can never come back (the
 * list's last only moves up), so the rest are counted by a hash each (their number, exact but for a
 * 53-bit hash's collisions), never kept. Memory: the listed texts and 8 bytes or so a further value.
 * `all`: as many as a filter may list instead (FILTER_TEXTS_MAX texts, FILTER_TEXTS_MAX_CHARS
 * characters together), the list cut from its end to fit.
 */
export class FilterValuesScan {
  private readonly passes: (row: readonly CellValue[] | undefined) => boolean;
  private readonly listed: string[] = [];
  private readonly counts = new Map<string, number>();
  private readonly rest = new Set<number>();
  /** Blanks counted (never listed until the end: the empty text is the list's last). */
  private blanks = 0;
  /** Blanks of rows holding no value since the last row holding one (outside the range if no later row holds one). */
  private blanksPastUsed = 0;
  /** Texts listed at most, and their characters together. */
  private readonly most: number;
  private readonly mostChars: number;
  private chars = 0;
  /** A text was cut from the list's end: none past its last may join it (the list is the first of all seen). */
  private cut = false;

  constructor(
    filters: readonly ColumnFilterBody[],
    private readonly column: number,
    private readonly search: string,
    all = false,
  ) {
    this.passes = filterRowTest(filters, column);
    this.most = all ? FILTER_TEXTS_MAX : FILTER_VALUES_SHOWN;
    this.mostChars = all ? FILTER_TEXTS_MAX_CHARS : Infinity;
  }

  /** Rows from absolute row `first`, in order. */
  feed(rows: readonly (readonly CellValue[])[], first: number): void {
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const holds = holdsValue(row);
      if (holds) this.blanksPastUsed = 0;
      if (!this.passes(row)) continue;
      const text = shownCellText(row?.[this.column]);
      if (!valueMatchesSearch(text, this.search)) continue;
      if (text !== '') this.count(text);
      else {
        this.blanks++;
        if (!holds) this.blanksPastUsed++;
      }
    }
  }

  private count(text: string): void {
    const had = this.counts.get(text);
    if (had !== undefined) {
      this.counts.set(text, had + 1);
      return;
    }
    const { listed } = this;
    // After every text it ties with: the upper bound.
    let lo = 0;
    let hi = listed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareFilterTexts(listed[mid], text) <= 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.most || (this.cut && lo >= listed.length) || (lo >= listed.length && this.chars + text.length > this.mostChars)) {
      if (lo >= listed.length) this.cut = true;
      this.rest.add(hashText(text));
      return;
    }
    listed.splice(lo, 0, text);
    this.counts.set(text, 1);
    this.chars += text.length;
    while (listed.length > this.most || this.chars > this.mostChars) {
      const out = listed.pop() as string;
      this.cut = true;
      this.chars -= out.length;
      this.counts.delete(out);
      this.rest.add(hashText(out));
    }
  }

  /** The answer (every row fed). */
  result(): Pick<SheetFilterValuesResult, 'values' | 'more'> {
    const values: [string, number][] = this.listed.map((text) => [text, this.counts.get(text) ?? 0]);
    let more = this.rest.size;
    const blanks = this.blanks - this.blanksPastUsed;
    if (blanks > 0) {
      if (values.length < this.most && !this.cut) values.push(['', blanks]);
      else more++;
    }
    return { values, more };
  }
}
