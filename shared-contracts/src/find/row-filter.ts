import type { CellValue } from '../sheets/sheet.schema.js';
import { findNeedle, shownCellText } from './find.js';

/**
 * A personal row filter (ours; every peer has one: a Google Sheets filter view, Grist's column
 * filter): it changes which of a sheet's rows one user's grid shows, never the sheet nor anyone
 * else's view. A row is shown when every filtered column's cell passes that column's filter (AND).
 * A cell is judged by its text as shown (shownCellText, a formula's computed value where the grid
 * has one), as find judges it (cellMatches): what the user reads is what is filtered.
 */

export const FILTER_CONDITION_KINDS = ['contains', 'equals', 'greater', 'less', 'empty', 'not_empty'] as const;
export type FilterConditionKind = (typeof FILTER_CONDITION_KINDS)[number];

/** A condition on the cell's shown text; `value` is ignored by empty / not_empty. */
export interface FilterCondition {
  kind: FilterConditionKind;
  value: string;
}

/**
 * Which shown texts pass: `only` the listed ones (after 'Clear' and ticking some: a value someone
 * types later stays hidden, as asked), or every one `except` the listed ones (after unticking
 * some from 'Select all': a value typed later shows). The empty cell's text is ''.
 */
export type FilterValues = { mode: 'only' | 'except'; texts: ReadonlySet<string> };

/** One column's filter: its values and its condition, each optional, both must pass. */
export interface ColumnFilter {
  values: FilterValues | null;
  condition: FilterCondition | null;
}

/** Longest text a condition may compare with (as find's query). */
export const FILTER_VALUE_MAX_CHARS = 256;
/** Distinct values the filter's list shows at once (a search box narrows them): a longer list is said, not drawn. */
export const FILTER_VALUES_SHOWN = 200;

/** A number typed or stored as text ("12", " 3.5 ", "-1e3"), as the sort reads it. */
const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
const numberOf = (text: string): number | null => (NUMERIC.test(text) ? Number(text) : null);

/** An empty cell (null, '' or only spaces) is empty; anything else is not. */
const isEmptyText = (text: string): boolean => text.trim() === '';

/**
 * A condition prepared once for many cells: compare(text) answers for one cell's shown text.
 * contains and equals ignore case (as find); equals also takes 5 for "5.0". greater and less compare
 * numbers numerically when the condition's value is a number (a text cell then never passes), else
 * texts alphabetically without case; an empty cell passes neither.
 */
export function conditionTest(condition: FilterCondition): (text: string) => boolean {
  const needle = findNeedle(condition.value.trim());
  const number = numberOf(condition.value);
  switch (condition.kind) {
    case 'empty':
      return isEmptyText;
    case 'not_empty':
      return (text) => !isEmptyText(text);
    case 'contains':
      return (text) => text.toLowerCase().includes(needle);
    case 'equals':
      return (text) => {
        if (number !== null) {
          const n = numberOf(text);
          if (n !== null) return n === number;
        }
        return text.trim().toLowerCase() === needle;
      };
    case 'greater':
    case 'less': {
      const sign = condition.kind === 'greater' ? 1 : -1;
      if (number !== null) {
        return (text) => {
          const n = numberOf(text);
          return n !== null && Math.sign(n - number) === sign;
        };
      }
      return (text) => !isEmptyText(text) && Math.sign(TEXT_ORDER.compare(text.trim(), condition.value.trim())) === sign;
    }
  }
}
const TEXT_ORDER = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** A column's filter prepared for many cells: does a cell with this shown value pass? */
export function columnFilterTest(filter: ColumnFilter): (value: CellValue | undefined) => boolean {
  const condition = filter.condition ? conditionTest(filter.condition) : null;
  const values = filter.values;
  return (value) => {
    const text = shownCellText(value);
    if (values && values.texts.has(text) !== (values.mode === 'only')) return false;
    return condition === null || condition(text);
  };
}

/** Does the filter let every row through (no values left out, no condition)? Then it is no filter. */
export const filterIsEmpty = (filter: ColumnFilter): boolean => filter.condition === null && (filter.values === null || (filter.values.mode === 'except' && filter.values.texts.size === 0));

/** A column's distinct shown texts with how many cells show each, in the list's order. */
export interface DistinctValues {
  /** [text, count], numbers by value then texts alphabetically, the empty text last. */
  values: [string, number][];
}

/** Counts a column's shown texts (`texts` yields one per row) and orders them as the filter's list shows them. */
export function distinctValues(texts: Iterable<string>): DistinctValues {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const values = [...counts];
  values.sort(([a], [b]) => compareFilterTexts(a, b));
  return { values };
}

/** The order of the filter's list: numbers by value, then texts alphabetically without case, the empty text last. */
export function compareFilterTexts(a: string, b: string): number {
  if (a === '' || b === '') return a === '' ? (b === '' ? 0 : 1) : -1;
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na !== null && nb !== null) return na - nb;
  if (na !== null || nb !== null) return na !== null ? -1 : 1;
  return TEXT_ORDER.compare(a, b);
}

/** Does a value of the list (its text, '' for the blanks) match the dialog's search box's text? */
export const valueMatchesSearch = (text: string, search: string): boolean => {
  const needle = search.trim().toLowerCase();
  return needle === '' || (text === '' ? FILTER_TEXTS.blank : text).toLowerCase().includes(needle);
};

/** The filter's texts: the menu entry, its dialog, the bar over a filtered grid. */
export const FILTER_TEXTS = {
  menu: 'Filter by this column…',
  title: (column: string) => `Filter by ${column}`,
  search: 'Search values',
  selectAll: 'Select all',
  clearValues: 'Clear',
  blank: '(Blanks)',
  /** The list stops at FILTER_VALUES_SHOWN values: the rest are counted. */
  moreValues: (n: number) => `and ${n.toLocaleString('en-US')} more ${n === 1 ? 'value' : 'values'} (search to find them)`,
  noValues: 'No values match the search',
  /** Select all / Clear with a search on a windowed sheet, when more values match than a filter may list. */
  tooManyValues: (most: number) => `More than ${most.toLocaleString('en-US')} values match the search: narrow it, or use a condition`,
  conditionLabel: 'Condition',
  conditionValue: 'Value',
  conditions: {
    none: 'None',
    contains: 'Text contains',
    equals: 'Is equal to',
    greater: 'Greater than',
    less: 'Less than',
    empty: 'Is empty',
    not_empty: 'Is not empty',
  } satisfies Record<FilterConditionKind | 'none', string>,
  apply: 'Apply',
  cancel: 'Cancel',
  removeColumn: 'Remove this filter',
  /** The bar over a filtered grid. */
  showing: (shown: number, rows: number) => `Showing ${shown.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`,
  /** The bar while the rows a filter shows are first being counted (a windowed sheet asks the api). */
  counting: 'Filtering rows…',
  clear: 'Clear filter',
  /** The tooltip of the mark (a funnel) after a filtered column's header label. */
  headerMarkTitle: 'This column is filtered',
  personal: 'Only your view is filtered; others still see every row.',
} as const;
