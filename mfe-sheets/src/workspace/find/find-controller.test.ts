import { type CellValue, type ColumnFilterBody, FIND_TEXTS, type FindQuery, type FindResult, type GridData } from '@tessera/contracts';
import { gridLink } from '../grid/grid-link.js';
import type { WindowedSheet } from '../windowed/windowed-sheet.js';
import { FindController, FIND_TYPING_MS, statusText } from './find-controller.js';

jest.useFakeTimers();

/**
 * A windowed sheet's find: the api's matches are at its stored version; a match whose row the
 * session holds and that no longer matches there (an own edit not saved yet, someone's since) is
 * passed over, and the next one is gone to.
 */
test("a match that the rows held no longer show is passed over; the grid goes to the next", async () => {
  const held = new Map<number, CellValue[]>([[5, ['edited since']], [7, ['Apple tart']]]);
  const link: GridData = [];
  const jumps: [number, number, boolean | undefined][] = [];
  gridLink(link).jumpTo = (row, col, select) => jumps.push([row, col, select]);
  const asked: FindQuery[] = [];
  const answer: FindResult = { id: 's', version: 3, row_count: 200_000, matches: [[5, 0, 1], [7, 0, 2], [150_000, 1, 3]], total: 3, complete: true, wrapped: false };
  const finder = new FindController(() => ({
    kind: 'windowed',
    sheet: { rowAt: (row: number) => held.get(row) } as unknown as WindowedSheet,
    link,
    search: async (query) => {
      asked.push(query);
      return { success: true, data: answer };
    },
  }));
  finder.setQuery('apple');
  await jest.advanceTimersByTimeAsync(FIND_TYPING_MS);
  expect(asked).toEqual([{ q: 'apple', direction: 'next', limit: 100 }]);
  expect(jumps).toEqual([[7, 0, true]]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(2, 3));
  // A row not held (never read): the api's answer stands.
  finder.go(1);
  expect(jumps.at(-1)).toEqual([150_000, 1, true]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(3, 3));
});

test('Enter before typing settles searches at once', async () => {
  const asked: FindQuery[] = [];
  const finder = new FindController(() => ({
    kind: 'windowed',
    sheet: { rowAt: () => undefined } as unknown as WindowedSheet,
    link: null,
    search: async (query) => {
      asked.push(query);
      return { success: true, data: { id: 's', version: 1, row_count: 10, matches: [[2, 0, 1]], total: 1, complete: true, wrapped: false } };
    },
  }));
  finder.setQuery('pear');
  finder.go(1);
  expect(asked.map((q) => q.q)).toEqual(['pear']);
  await jest.advanceTimersByTimeAsync(FIND_TYPING_MS * 2);
  expect(asked).toHaveLength(1);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(1, 1));
});

test("with the user's row filter on, each search carries it: the count is the api's, of the rows it shows, and Enter goes through those only; the filter changed, the next Enter asks again from the match gone to", async () => {
  const link: GridData = [];
  const jumps: [number, number][] = [];
  gridLink(link).jumpTo = (row, col) => jumps.push([row, col]);
  let filters: ColumnFilterBody[] = [{ column: 0, values: { mode: 'only', texts: ['open'] }, condition: null }];
  const asked: [FindQuery, ColumnFilterBody[]][] = [];
  const finder = new FindController(() => ({
    kind: 'windowed',
    sheet: { rowAt: () => undefined } as unknown as WindowedSheet,
    link,
    filters: () => filters,
    search: async (query, sent) => {
      asked.push([query, sent]);
      // The api: 2 matches in the rows the filter shows (of 40 in the sheet); with no filter, the next of all 40 past the one asked from.
      const data: FindResult = sent.length > 0
        ? { id: 's', version: 1, row_count: 200_000, matches: [[7, 1, 1], [170_000, 1, 2]], total: 2, complete: true, wrapped: false }
        : { id: 's', version: 1, row_count: 200_000, matches: [[170_001, 1, 30]], total: 40, complete: true, wrapped: false };
      return { success: true, data };
    },
  }));
  finder.setQuery('pear');
  await jest.advanceTimersByTimeAsync(FIND_TYPING_MS);
  expect(asked).toEqual([[{ q: 'pear', direction: 'next', limit: 100 }, filters]]);
  expect(jumps).toEqual([[7, 1]]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(1, 2));
  // Enter: the next shown match, past the slab, from the page held.
  finder.go(1);
  expect(jumps.at(-1)).toEqual([170_000, 1]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(2, 2));
  expect(asked).toHaveLength(1);
  // Clear filter: the next Enter asks again, past the match gone to, without it.
  filters = [];
  finder.go(1);
  await jest.advanceTimersByTimeAsync(0);
  expect(asked.at(-1)).toEqual([{ q: 'pear', direction: 'next', limit: 100, after_row: 170_000, after_col: 1 }, []]);
  expect(jumps.at(-1)).toEqual([170_001, 1]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(30, 40));
});

test("a filter just set (its rows still being asked of the api): the match is gone to once the grid shows the filter's rows, not before", async () => {
  const link: GridData = [];
  const jumps: [number, number][] = [];
  gridLink(link).jumpTo = (row, col) => jumps.push([row, col]);
  // The grid's rows are still the filter's before: it hides row 40, which the new filter shows.
  let shown = (row: number) => row !== 40;
  gridLink(link).rowShown = (row) => shown(row);
  let rowsIn = () => {};
  gridLink(link).filterSettled = () => new Promise<void>((resolve) => (rowsIn = resolve));
  const finder = new FindController(() => ({
    kind: 'windowed',
    sheet: { rowAt: () => undefined } as unknown as WindowedSheet,
    link,
    filters: () => [{ column: 0, values: null, condition: { kind: 'not_empty', value: '' } }],
    search: async () => ({ success: true, data: { id: 's', version: 1, row_count: 100, matches: [[40, 0, 1]], total: 1, complete: true, wrapped: false } }),
  }));
  finder.setQuery('pear');
  await jest.advanceTimersByTimeAsync(FIND_TYPING_MS);
  expect(jumps).toEqual([]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.searching);
  // The filter's rows arrive: row 40 shown, gone to.
  shown = () => true;
  rowsIn();
  await jest.advanceTimersByTimeAsync(0);
  expect(jumps).toEqual([[40, 0]]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(1, 1));
  gridLink(link).filterSettled = null;
});
