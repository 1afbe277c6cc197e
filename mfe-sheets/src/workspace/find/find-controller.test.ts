import { type CellValue, FIND_TEXTS, type FindQuery, type FindResult, type GridData } from '@tessera/contracts';
import { gridLink } from '../grid/grid-link.js';
import type { WindowedSheet } from '../windowed/windowed-sheet.js';
import { FindController, FIND_HIDDEN_PASSED_MAX, FIND_TYPING_MS, statusText } from './find-controller.js';

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

test("matches the user's row filter hides are passed over page after page, never 'No matches': past FIND_HIDDEN_PASSED_MAX the bar says so and Enter walks on", async () => {
  const link: GridData = [];
  const jumps: [number, number][] = [];
  gridLink(link).jumpTo = (row, col) => jumps.push([row, col]);
  // Rows before 1,500 hidden by the filter; every row matches; the api answers 100 matches a page, on from the last.
  gridLink(link).rowShown = (row) => row >= 1_500;
  let pages = 0;
  const finder = new FindController(() => ({
    kind: 'windowed',
    sheet: { rowAt: () => undefined } as unknown as WindowedSheet,
    link,
    search: async () => {
      const first = pages++ * 100;
      const matches = Array.from({ length: 100 }, (_, i) => [first + i, 0, first + i + 1] as [number, number, number]);
      return { success: true, data: { id: 's', version: 1, row_count: 10_000, matches, total: 10_000, complete: true, wrapped: false } };
    },
  }));
  finder.setQuery('x');
  await jest.advanceTimersByTimeAsync(FIND_TYPING_MS);
  await waitForPages(() => pages >= FIND_HIDDEN_PASSED_MAX / 100);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.hiddenPassed(FIND_HIDDEN_PASSED_MAX));
  expect(pages).toBe(FIND_HIDDEN_PASSED_MAX / 100);
  expect(jumps).toEqual([]);
  // Enter: on past row 999, to the first row shown.
  finder.go(1);
  await waitForPages(() => jumps.length > 0);
  expect(jumps).toEqual([[1_500, 0]]);
  expect(statusText(finder.status)).toBe(FIND_TEXTS.count(1_501, 10_000));
});

/** Lets the controller's requests settle (each page's answer a promise) until `done`. */
async function waitForPages(done: () => boolean) {
  for (let i = 0; i < 100 && !done(); i++) await jest.advanceTimersByTimeAsync(0);
}
