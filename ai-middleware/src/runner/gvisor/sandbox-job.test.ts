import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnsOf, sandboxJobLine } from './sandbox-job.js';

const sheet = { headers: ['Region', 'Amount'], rows: [['North', 10, 'extra'], ['South']], sheet_name: 'Sales' };

test('code that names only df gets the sheet as columns, cut to the headers, short rows padded', () => {
  const line = sandboxJobLine({ ...sheet, code: "result = df.groupby('Region').sum()" });
  assert.ok(line.endsWith('\n'));
  assert.deepEqual(JSON.parse(line), {
    code: "result = df.groupby('Region').sum()",
    headers: ['Region', 'Amount'],
    columns: [
      ['North', 'South'],
      [10, null],
    ],
  });
});

test('code that names rows, records or sheet (even in a string) gets the rows as they are', () => {
  for (const code of ['print(len(rows))', "result = records[0]['Amount']", "print(sheet['name'])", "eval('rows')"]) {
    assert.deepEqual(JSON.parse(sandboxJobLine({ ...sheet, code })), { ...sheet, code }, code);
  }
  // A longer word is not the variable.
  assert.ok('columns' in JSON.parse(sandboxJobLine({ ...sheet, code: 'subrows = 1\nsheets = 2\nresult = df' })));
});

test('columnsOf: an empty sheet has its columns, empty', () => {
  assert.deepEqual(columnsOf(2, []), [[], []]);
});
