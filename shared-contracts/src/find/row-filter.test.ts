import { columnFilterTest, distinctValues, filterIsEmpty, type ColumnFilter } from './row-filter.js';

const passes = (filter: Partial<ColumnFilter>, cells: unknown[]) => {
  const test = columnFilterTest({ values: null, condition: null, ...filter });
  return cells.filter((c) => test(c as never));
};
const cells = ['Rent', 'rental car', 1200, '300', 45, '', null, true, '=A1', ' 12 '];

test('values: only the ticked texts, or every text but the unticked ones; the empty cell is the text ""', () => {
  expect(passes({ values: { mode: 'only', texts: new Set(['Rent', '1200', '']) } }, cells)).toEqual(['Rent', 1200, '', null]);
  expect(passes({ values: { mode: 'except', texts: new Set(['Rent', '1200', '']) } }, cells)).toEqual(['rental car', '300', 45, true, '=A1', ' 12 ']);
});

test('contains and equals ignore case; equals takes a number for its number', () => {
  expect(passes({ condition: { kind: 'contains', value: 'RENT' } }, cells)).toEqual(['Rent', 'rental car']);
  expect(passes({ condition: { kind: 'equals', value: 'rent' } }, cells)).toEqual(['Rent']);
  expect(passes({ condition: { kind: 'equals', value: '12.0' } }, cells)).toEqual([' 12 ']);
  expect(passes({ condition: { kind: 'equals', value: 'true' } }, cells)).toEqual([true]);
});

test('greater and less: numerically against a number (text cells never pass), alphabetically against a text; an empty cell passes neither', () => {
  expect(passes({ condition: { kind: 'greater', value: '45' } }, cells)).toEqual([1200, '300']);
  expect(passes({ condition: { kind: 'less', value: '45' } }, cells)).toEqual([' 12 ']);
  expect(passes({ condition: { kind: 'greater', value: 'r' } }, ['apple', 'Rent', 'zoo', '', null])).toEqual(['Rent', 'zoo']);
  expect(passes({ condition: { kind: 'less', value: 'r' } }, ['apple', 'Rent', 'zoo', '', null])).toEqual(['apple']);
});

test('is empty: null, "" or spaces; is not empty: the rest', () => {
  expect(passes({ condition: { kind: 'empty', value: '' } }, ['a', '', '  ', null, undefined, 0])).toEqual(['', '  ', null, undefined]);
  expect(passes({ condition: { kind: 'not_empty', value: '' } }, ['a', '', '  ', null, 0])).toEqual(['a', 0]);
});

test('values and condition must both pass', () => {
  expect(passes({ values: { mode: 'except', texts: new Set(['Rent']) }, condition: { kind: 'contains', value: 'ren' } }, cells)).toEqual(['rental car']);
});

test('a filter that leaves nothing out is none', () => {
  expect(filterIsEmpty({ values: { mode: 'except', texts: new Set() }, condition: null })).toBe(true);
  expect(filterIsEmpty({ values: { mode: 'only', texts: new Set() }, condition: null })).toBe(false);
  expect(filterIsEmpty({ values: null, condition: { kind: 'not_empty', value: '' } })).toBe(false);
});

test("distinct values are counted and listed numbers first by value, then texts alphabetically, the empty text last", () => {
  expect(distinctValues(['b', '10', '', 'A', '9', 'b', '', 'a']).values).toEqual([
    ['9', 1],
    ['10', 1],
    ['A', 1],
    ['a', 1],
    ['b', 2],
    ['', 2],
  ]);
});
