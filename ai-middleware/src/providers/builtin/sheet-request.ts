/** The sheet requests builtin (no model) understands; each becomes real Python (python-writer.ts). */

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
  | { kind: 'top'; n: number; by: string; largest: boolean };

/** What parsing an instruction gave: a request, a column name the sheet does not have, or nothing understood. */
export type ParseOutcome = { request: SheetRequest } | { unknownColumn: string } | null;
