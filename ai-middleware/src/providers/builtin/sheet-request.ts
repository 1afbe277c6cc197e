/**
 * The sheet requests builtin (no model) understands; each becomes real Python: pandas on the
 * gVisor engine (pandas-writer.ts), the standard library on Pyodide (python-writer.ts).
 */

export const AGGREGATES = ['sum', 'mean', 'count', 'min', 'max'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const FILTER_OPERATORS = ['gt', 'ge', 'lt', 'le', 'eq', 'ne', 'contains', 'not_contains', 'starts', 'ends'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type SheetRequest =
  /** count, sum, mean, min, max, distinct of the columns named (all when none is). */
  | { kind: 'describe'; columns: string[] }
  /** fn of `value` for each distinct `by` (value null: count the rows); `by` null: over the whole column. */
  | { kind: 'aggregate'; fn: Aggregate; value: string | null; by: string | null }
  | { kind: 'sort'; by: string; descending: boolean }
  | { kind: 'filter'; column: string; operator: FilterOperator; value: string | number }
  | { kind: 'top'; n: number; by: string; largest: boolean }
  /** A Matplotlib bar chart of fn of `value` (null: count the rows) for each distinct `by`; pandas engine only. */
  | { kind: 'chart'; fn: Aggregate; value: string | null; by: string };

/** The builtin's answer to a chart asked of an engine without Matplotlib (Pyodide). */
export const chartNeedsMatplotlib = (request: { value: string | null; by: string }): string =>
  `Charts need Matplotlib, which this server's Python (Pyodide) does not have. Ask for the numbers instead: ${request.value === null ? 'count' : `total of ${request.value}`} by ${request.by}`;

/** What parsing an instruction gave: a request, a column name the sheet does not have, or nothing understood. */
export type ParseOutcome = { request: SheetRequest } | { unknownColumn: string } | null;
