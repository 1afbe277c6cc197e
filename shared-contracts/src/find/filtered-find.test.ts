import { FindScan } from './find.js';
import { FilteredFindBodySchema } from './filtered-find.schema.js';
import { filterRowTest } from './sheet-filter.schema.js';

test("a find with a row filter on passes over the rows it hides: their matches are neither answered nor counted, and the places count the shown ones", () => {
  const rows = [
    ['open', 'Apple'],
    ['closed', 'apple pie'],
    ['open', 'pineapple'],
  ];
  const body = FilteredFindBodySchema.parse({ q: 'APPLE', filters: [{ column: 0, values: { mode: 'only', texts: ['open'] } }] });
  const scan = new FindScan(body, filterRowTest(body.filters));
  scan.feed(rows.slice(0, 2), 0);
  scan.feed(rows.slice(2), 2);
  expect(scan.result(true)).toEqual({ matches: [[0, 1, 1], [2, 1, 2]], total: 2, complete: true, wrapped: false });
});

test("a filtered find's body: the find's fields as JSON numbers, the filter's bounds, nothing else", () => {
  const error = (body: Record<string, unknown>) => FilteredFindBodySchema.safeParse(body).error?.issues[0].message;
  expect(FilteredFindBodySchema.parse({ q: 'x', filters: [] })).toEqual({ q: 'x', direction: 'next', limit: 100, filters: [] });
  expect(error({ q: 'x' })).toMatch(/filters must be a list/);
  expect(error({ q: 'x', filters: [], limit: '5' })).toMatch(/limit must be a whole number from 1 to 500/);
  expect(error({ q: 'x', filters: [], after_row: 3 })).toMatch(/go together/);
  expect(error({ q: 'x', filters: [{ column: 1 }, { column: 1 }] })).toMatch(/each column may be filtered once/);
  expect(error({ q: 'x', filters: [], extra: 1 })).toMatch(/Unrecognized key/);
});
