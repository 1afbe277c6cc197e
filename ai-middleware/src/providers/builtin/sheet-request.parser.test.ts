import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParseOutcome } from './sheet-request.js';
import { parseSheetRequest } from './sheet-request.parser.js';

const HEADERS = ['Region', 'Amount', 'Unit Price', 'Unit', 'Product name'];
const parse = (text: string): ParseOutcome => parseSheetRequest(text, HEADERS);

test('describe / summarise: the whole sheet or the columns named', () => {
  for (const text of ['describe', 'Describe the sheet.', 'summarize the data', 'stats', 'please give me a summary']) {
    assert.deepEqual(parse(text), { request: { kind: 'describe', columns: [] } }, text);
  }
  assert.deepEqual(parse('summarise Amount and unit price'), { request: { kind: 'describe', columns: ['Amount', 'Unit Price'] } });
  assert.deepEqual(parse('describe columns "Unit", Region'), { request: { kind: 'describe', columns: ['Unit', 'Region'] } });
});

test('totals of a column by another, and the other aggregates', () => {
  const sum = { request: { kind: 'aggregate', fn: 'sum', value: 'Amount', by: 'Region' } };
  for (const text of ['total of Amount by Region', 'Total Amount per region', 'sum of amount grouped by Region', 'Amount totals by Region', 'Can you show me the total of Amount by Region?']) {
    assert.deepEqual(parse(text), sum, text);
  }
  // The longest header wins: "Unit Price", not "Unit".
  assert.deepEqual(parse('average Unit Price by Region'), { request: { kind: 'aggregate', fn: 'mean', value: 'Unit Price', by: 'Region' } });
  assert.deepEqual(parse('max of Amount for each Product name'), { request: { kind: 'aggregate', fn: 'max', value: 'Amount', by: 'Product name' } });
  assert.deepEqual(parse('count by Region'), { request: { kind: 'aggregate', fn: 'count', value: null, by: 'Region' } });
  assert.deepEqual(parse('total of Amount'), { request: { kind: 'aggregate', fn: 'sum', value: 'Amount', by: null } });
});

test('sort, with its direction', () => {
  assert.deepEqual(parse('sort by Amount'), { request: { kind: 'sort', by: 'Amount', descending: false } });
  for (const text of ['sort by Amount descending', 'Sort the rows by amount in descending order', 'sort descending by Amount', 'order by Amount, high to low']) {
    assert.deepEqual(parse(text), { request: { kind: 'sort', by: 'Amount', descending: true } }, text);
  }
});

test('filter rows by a condition: operators in symbols and words, numbers and texts', () => {
  const cases: Array<[string, unknown]> = [
    ['filter rows where Amount > 5', { kind: 'filter', column: 'Amount', operator: 'gt', value: 5 }],
    ['show rows where Amount >= 1,200', { kind: 'filter', column: 'Amount', operator: 'ge', value: 1200 }],
    ['rows where Amount is less than 3.5', { kind: 'filter', column: 'Amount', operator: 'lt', value: 3.5 }],
    ['rows where Region is North', { kind: 'filter', column: 'Region', operator: 'eq', value: 'North' }],
    ['keep rows where Region != "South East"', { kind: 'filter', column: 'Region', operator: 'ne', value: 'South East' }],
    ["filter rows where Product name contains 'pro'", { kind: 'filter', column: 'Product name', operator: 'contains', value: 'pro' }],
    ['rows where Product name starts with Tea', { kind: 'filter', column: 'Product name', operator: 'starts', value: 'Tea' }],
  ];
  for (const [text, request] of cases) assert.deepEqual(parse(text), { request }, text);
});

test('top / bottom N by a column', () => {
  assert.deepEqual(parse('top 3 by Amount'), { request: { kind: 'top', n: 3, by: 'Amount', largest: true } });
  assert.deepEqual(parse('top 5 rows by Amount'), { request: { kind: 'top', n: 5, by: 'Amount', largest: true } });
  assert.deepEqual(parse('bottom 2 by Unit Price'), { request: { kind: 'top', n: 2, by: 'Unit Price', largest: false } });
  assert.deepEqual(parse('the 3 smallest Amount'), { request: { kind: 'top', n: 3, by: 'Amount', largest: false } });
});

test('a column the sheet lacks is named; anything else is not understood (the honest no-model reply)', () => {
  assert.deepEqual(parse('sort by Colour'), { unknownColumn: 'Colour' });
  assert.deepEqual(parse('total of "Colour" by Region'), { unknownColumn: 'Colour' });
  for (const text of ['', 'write a poem about spreadsheets', 'Analyze and process the provided data and code', 'what is the meaning of life']) {
    assert.equal(parse(text), null, text);
  }
});

test("a chart of a column by another: sum unless another aggregate is named; count of rows", () => {
  const sum = { request: { kind: 'chart', fn: 'sum', value: 'Amount', by: 'Region' } };
  for (const text of ['chart of Amount by Region', 'bar chart of amount per region', 'Plot Amount by Region', 'make a chart of the total Amount by Region', 'draw a graph of Amount by Region please']) {
    assert.deepEqual(parse(text), sum, text);
  }
  assert.deepEqual(parse('chart of average Unit Price by Region'), { request: { kind: 'chart', fn: 'mean', value: 'Unit Price', by: 'Region' } });
  assert.deepEqual(parse('chart of count by Product name'), { request: { kind: 'chart', fn: 'count', value: null, by: 'Product name' } });
  assert.deepEqual(parse('chart of Colour by Region'), { unknownColumn: 'Colour' });
  // Not a chart: the totals themselves.
  assert.deepEqual(parse('total of Amount by Region'), { request: { kind: 'aggregate', fn: 'sum', value: 'Amount', by: 'Region' } });
});
