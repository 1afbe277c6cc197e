import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractGrid } from './grid-extractor.js';

test('scalars stay scalars: no grid for numbers, booleans, null, plain text or a list of scalars', () => {
  for (const value of [42, 3.5, true, null, 'just a sentence', [1, 2, 3], [], {}]) {
    assert.equal(extractGrid(value), undefined, JSON.stringify(value));
  }
});

test('a list of lists gets letter headers, short rows padded with blanks', () => {
  assert.deepEqual(extractGrid([[1, 2, 3], ['a'], []]), {
    headers: ['A', 'B', 'C'],
    rows: [[1, 2, 3], ['a', null, null], [null, null, null]],
    source: 'list_of_lists',
  });
});

test('a list of objects: headers are the union of keys in first-seen order, missing cells blank', () => {
  assert.deepEqual(extractGrid([{ region: 'N', total: 5 }, { region: 'S', note: 'late' }]), {
    headers: ['region', 'total', 'note'],
    rows: [
      ['N', 5, null],
      ['S', null, 'late'],
    ],
    source: 'list_of_objects',
  });
});

test('an object with headers/columns and data/rows: rows trimmed or padded to the header width', () => {
  assert.deepEqual(extractGrid({ headers: ['a', 'b'], data: [[1, 2, 3], [4]] }), {
    headers: ['a', 'b'],
    rows: [
      [1, 2],
      [4, null],
    ],
    source: 'headers_and_rows',
  });
  assert.deepEqual(extractGrid({ columns: ['a', 'b'], rows: [{ a: 1, b: 2 }] })?.rows, [[1, 2]]);
});

test('a dict of column lists becomes columns, the shorter ones padded', () => {
  assert.deepEqual(extractGrid({ name: ['x', 'y'], score: [1] }), {
    headers: ['name', 'score'],
    rows: [
      ['x', 1],
      ['y', null],
    ],
    source: 'columns_dict',
  });
});

test('nested values become their JSON text in a cell', () => {
  assert.deepEqual(extractGrid([[{ k: 1 }, [1, 2]]])?.rows, [['{"k":1}', '[1,2]']]);
});

test('JSON text is parsed, then extracted like the value it holds', () => {
  assert.deepEqual(extractGrid('[{"a": 1}, {"a": 2}]'), { headers: ['a'], rows: [[1], [2]], source: 'json_text' });
  assert.equal(extractGrid('[1, 2]'), undefined);
});

test('delimited text: tab, pipe or comma; first line headers; numbers read as numbers', () => {
  assert.deepEqual(extractGrid('name\tamount\nx\t10\ny\t2.5'), {
    headers: ['name', 'amount'],
    rows: [
      ['x', 10],
      ['y', 2.5],
    ],
    source: 'delimited_text',
  });
  assert.deepEqual(extractGrid('| a | b |\n|---|---|\n| 1 | two |')?.rows, [[1, 'two']]);
  assert.deepEqual(extractGrid('a,b,c\n1,2\n1,2,3,4')?.rows, [
    [1, 2, null],
    [1, 2, 3],
  ]);
});

test('quoted delimited cells keep their commas and doubled quotes', () => {
  assert.deepEqual(extractGrid('name,note\n"Smith, J","said ""hi"""\nLee,ok'), {
    headers: ['name', 'note'],
    rows: [
      ['Smith, J', 'said "hi"'],
      ['Lee', 'ok'],
    ],
    source: 'delimited_text',
  });
});

test('text whose first line has fewer than 2 columns is no grid', () => {
  assert.equal(extractGrid('total\n42'), undefined);
});
