import { cellMatches, FIND_COUNT_CAP, FindQuerySchema, FindScan } from './find.js';

const rows = [
  ['Apple', 'pear', 1],
  [null, 'PINEAPPLE', true],
  ['grape', 12, 'apple pie'],
];
const scan = (query: Record<string, string>, data = rows, window = 2) => {
  const parsed = FindQuerySchema.parse(query);
  const s = new FindScan(parsed);
  let complete = true;
  for (let first = 0; first < data.length; first += window) {
    if (!s.feed(data.slice(first, first + window), first)) {
      complete = first + window >= data.length;
      break;
    }
  }
  return s.result(complete);
};

test('a cell matches by its shown text, without case', () => {
  expect(cellMatches('PineApple', 'apple')).toBe(true);
  expect(cellMatches(12, '2')).toBe(true);
  expect(cellMatches(true, 'tru')).toBe(true);
  expect(cellMatches(null, 'n')).toBe(false);
});

test('the next matches after a cell, in row order, with their places; past the last it wraps', () => {
  expect(scan({ q: 'APPLE' })).toEqual({ matches: [[0, 0, 1], [1, 1, 2], [2, 2, 3]], total: 3, complete: true, wrapped: false });
  expect(scan({ q: 'apple', after_row: '1', after_col: '1', limit: '2' }).matches).toEqual([[2, 2, 3], [0, 0, 1]]);
  expect(scan({ q: 'apple', after_row: '1', after_col: '1', limit: '2' }).wrapped).toBe(true);
  expect(scan({ q: 'apple', after_row: '1', after_col: '1', direction: 'prev', limit: '2' }).matches).toEqual([[0, 0, 1], [2, 2, 3]]);
});

test('past the count cap the scan stops once the matches asked for are found', () => {
  const many = Array.from({ length: FIND_COUNT_CAP * 3 }, (_, r) => [`x${r}`]);
  const result = scan({ q: 'x', limit: '5' }, many, 100);
  expect(result.complete).toBe(false);
  expect(result.matches.map((m) => m[2])).toEqual([1, 2, 3, 4, 5]);
  expect(result.total).toBeGreaterThan(FIND_COUNT_CAP);
});

test('bad queries are refused with a text naming the parameter', () => {
  const error = (query: Record<string, unknown>) => FindQuerySchema.safeParse(query).error?.issues[0].message;
  expect(error({})).toMatch(/q must/);
  expect(error({ q: 'x'.repeat(300) })).toMatch(/at most 256/);
  expect(error({ q: 'x', limit: '501' })).toMatch(/limit must be a whole number from 1 to 500/);
  expect(error({ q: 'x', after_row: '3' })).toMatch(/go together/);
  expect(error({ q: 'x', direction: 'up' })).toMatch(/next or prev/);
});
