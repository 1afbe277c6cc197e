import { type CellValue, type GridData } from '../sheets/sheet.schema.js';
import { shownCellText } from './find.js';
import { columnFilterTest, distinctValues, FILTER_VALUES_SHOWN, valueMatchesSearch } from './row-filter.js';
import { packRuns, unpackRuns } from './row-runs.js';
import { type ColumnFilterBody, columnFilterOf, FILTER_TEXTS_MAX_CHARS, FilterValuesScan, RowFilterScan, SheetFilterBodySchema, SheetFilterValuesBodySchema } from './sheet-filter.schema.js';

/** The whole grid's way (grid-filter.ts): the range up to the last row holding a value, each row judged. */
function wholeGrid(data: GridData, filters: ColumnFilterBody[], except?: number) {
  let used = 0;
  for (let r = 0; r < data.length; r++) if (data[r].some((v) => v !== null && v !== '')) used = r + 1;
  const tests = filters.filter((f) => f.column !== except).map((f) => [f.column, columnFilterTest(columnFilterOf(f))] as const);
  const passes = (r: number) => tests.every(([c, t]) => t(data[r][c]));
  return { used, passes };
}

/** Rows shown by the runs of `text`. */
function rowsOf(text: string, rowCount: number): number[] {
  const runs = unpackRuns(text, rowCount);
  if (!runs) throw new Error('not runs');
  const rows: number[] = [];
  for (let i = 0; i < runs.length; i += 2) for (let k = 0; k < runs[i + 1]; k++) rows.push(runs[i] + k);
  return rows;
}

/** A sheet fed to a scan in windows of `size` rows, as the api reads it. */
function feed(scan: { feed(rows: GridData, first: number): void }, data: GridData, size: number) {
  for (let s = 0; s < data.length; s += size) scan.feed(data.slice(s, s + size), s);
}

// Rows: a status, an amount, a note; two empty rows inside, three at the end (outside the filter's range).
const data: GridData = [
  ['open', 5, 'a'],
  ['closed', 12, null],
  [null, null, null],
  ['Open', '7', 'b'],
  ['open', 40, ''],
  ['', '', ''],
  ['pending', 3, 'c'],
  ['open', 12, 'd'],
  [null, null, null],
  [null, null],
  [],
];

test('a windowed filter shows the rows a whole grid shows, the empty rows below the range shown outside it, in any windows', () => {
  const filters: ColumnFilterBody[] = [
    { column: 0, values: { mode: 'only', texts: ['open', ''] }, condition: null },
    { column: 1, values: null, condition: { kind: 'greater', value: '6' } },
  ];
  const { used, passes } = wholeGrid(data, filters);
  const expected = [...Array.from({ length: used }, (_, r) => r).filter(passes), ...Array.from({ length: data.length - used }, (_, k) => used + k)];
  expect(expected).toEqual([4, 7, 8, 9, 10]);
  for (const size of [1, 2, 3, 5, 100]) {
    const scan = new RowFilterScan(filters);
    feed(scan, data, size);
    const result = scan.result(data.length);
    expect(rowsOf(result.runs, data.length)).toEqual(expected);
    expect([result.shown, result.rows]).toEqual([2, 8]);
  }
  // 'Is empty' passes the empty rows: those inside the range count, those below it are outside it.
  const empty = new RowFilterScan([{ column: 2, values: null, condition: { kind: 'empty', value: '' } }]);
  feed(empty, data, 4);
  const r = empty.result(data.length);
  expect(rowsOf(r.runs, data.length)).toEqual([1, 2, 4, 5, 8, 9, 10]);
  expect([r.shown, r.rows]).toEqual([4, 8]);
});

test("a column's values: the whole grid's list (other columns' filters, the range, the search), the first FILTER_VALUES_SHOWN and the rest counted", () => {
  const filters: ColumnFilterBody[] = [
    { column: 0, values: { mode: 'except', texts: ['closed'] }, condition: null },
    { column: 1, values: null, condition: { kind: 'less', value: '0' } }, // the column's own: left out
  ];
  const whole = (column: number, search: string) => {
    const { used, passes } = wholeGrid(data, filters, column);
    const texts = Array.from({ length: used }, (_, r) => r).filter(passes).map((r) => shownCellText(data[r][column] as CellValue | undefined));
    return distinctValues(texts.filter((t) => valueMatchesSearch(t, search))).values;
  };
  for (const [column, search] of [[1, ''], [2, ''], [0, 'OP'], [2, 'blank']] as const) {
    const scan = new FilterValuesScan(filters, column, search);
    feed(scan, data, 3);
    expect(scan.result()).toEqual({ values: whole(column, search), more: 0 });
  }
  expect(whole(1, '')).toEqual([['3', 1], ['5', 1], ['7', 1], ['12', 1], ['40', 1], ['', 2]]);

  // 1,000 distinct texts and blanks, in reverse order: the first FILTER_VALUES_SHOWN listed, the other 800 (and the blanks) counted.
  const many: GridData = Array.from({ length: 2_100 }, (_, r) => [r % 2 === 0 ? `v${String(999 - (r >> 1) % 1000).padStart(4, '0')}` : null]);
  const scan = new FilterValuesScan([], 0, '');
  feed(scan, many, 500);
  const listed = distinctValues(many.map((row) => shownCellText(row[0]))).values;
  expect(scan.result()).toEqual({ values: listed.slice(0, FILTER_VALUES_SHOWN), more: 1_001 - FILTER_VALUES_SHOWN });
  // Every value (all): the 1,000 texts and the blanks of the range (the last row, empty, is past it).
  const every = new FilterValuesScan([], 0, '', true);
  feed(every, many, 500);
  expect(every.result()).toEqual({ values: distinctValues(many.slice(0, -1).map((row) => shownCellText(row[0]))).values, more: 0 });
});

test("all values: as many as a filter may list — FILTER_TEXTS_MAX_CHARS characters together: the first in the list's order, the rest counted (and the blanks after them)", () => {
  // 40 texts of 30,000 characters, in reverse order, and blanks: 33 fit in 1,000,000 characters.
  const long = (i: number) => `${String(i).padStart(2, '0')}${'x'.repeat(29_998)}`;
  const data: GridData = [...Array.from({ length: 40 }, (_, r) => [long(39 - r)]), [null], ['last']];
  const scan = new FilterValuesScan([], 0, '', true);
  feed(scan, data, 7);
  const listed = distinctValues(data.map((row) => shownCellText(row[0]))).values;
  const fit = Math.floor(FILTER_TEXTS_MAX_CHARS / 30_000);
  expect(scan.result()).toEqual({ values: listed.slice(0, fit), more: listed.length - fit });
  expect(SheetFilterValuesBodySchema.safeParse({ filters: [], column: 0, all: 'yes' }).error?.issues[0].message).toBe('all must be true or false');
});

test('runs pack small: 1,000,000 rows every other one shown stay under 1.5 MB, and come back exact', () => {
  const flat: number[] = [];
  for (let r = 0; r < 1_000_000; r += 2) flat.push(r, 1);
  const text = packRuns(flat);
  expect(text.length).toBeLessThan(1.5 * 1024 * 1024);
  expect(Array.from(unpackRuns(text, 1_000_000) ?? [])).toEqual(flat);
  expect(packRuns([0, 1_000_000]).length).toBeLessThan(10);
  expect(unpackRuns(packRuns([5, 3, 100, 2]), 101)).toBeNull(); // past the rows stated
  expect(unpackRuns('b' + packRuns([5, 3]).slice(1), 10)).toBeNull();
});

test('the bodies are validated: columns within bounds, once each, texts bounded, no extra field', () => {
  const ok = SheetFilterBodySchema.safeParse({ filters: [{ column: 2, values: { mode: 'only', texts: ['a'] } }] });
  expect(ok.success && ok.data.filters[0]).toEqual({ column: 2, values: { mode: 'only', texts: ['a'] }, condition: null });
  for (const body of [
    { filters: [{ column: -1 }] },
    { filters: [{ column: 1.5 }] },
    { filters: [{ column: 16_384 }] },
    { filters: [{ column: 1 }, { column: 1 }] },
    { filters: [{ column: 1, extra: true }] },
    { filters: [], extra: 1 },
    { filters: [{ column: 1, condition: { kind: 'matches', value: '' } }] },
    { filters: [{ column: 1, condition: { kind: 'contains', value: 'x'.repeat(257) } }] },
    { filters: [{ column: 1, values: { mode: 'only', texts: Array.from({ length: 10_001 }, (_, i) => `${i}`) } }] },
    { filters: [{ column: 1, values: { mode: 'only', texts: Array.from({ length: 40 }, () => 'x'.repeat(30_000)) } }] },
  ]) {
    expect(SheetFilterBodySchema.safeParse(body).success).toBe(false);
  }
  expect(SheetFilterValuesBodySchema.safeParse({ filters: [], column: 0, search: 'x'.repeat(257) }).success).toBe(false);
  expect(SheetFilterValuesBodySchema.safeParse({ filters: [] }).success).toBe(false);
});
