import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PARSED_OUTPUT_NOISE_MESSAGE,
  PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE,
  RESULT_GRID_NOISE_MESSAGE,
} from '@tessera/contracts';
import { extractGrid, gridOfRun, printedOutputGrids } from './grid-extractor.js';

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

test('a list of 200,000 lists is a grid (its width was a spread of every row: past ~120,000 rows the call stack overflowed)', () => {
  const rows = Array.from({ length: 200_000 }, (_, r) => (r === 150_000 ? [r, 'wide', true] : [r]));
  const grid = extractGrid(rows);
  assert.deepEqual(grid?.headers, ['A', 'B', 'C']);
  assert.equal(grid?.rows.length, 200_000);
  assert.deepEqual(grid?.rows[150_000], [150_000, 'wide', true]);
  assert.deepEqual(grid?.rows[0], [0, null, null]);
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

// Printed output (the code assigned no result): spec 02 §5 "Parsing text into a grid" and the filters.

const SCHEDULE_CSV = 'Doctor ID,Doctor Name,1,2,3\nD1,Alice,M,N\nD2,Bob,N,M,O,extra';
const on = { parsePrintedOutput: true };

test('printed comma text → csv_parsed, rows padded or trimmed to the header width', () => {
  assert.deepEqual(printedOutputGrids(`Solved.\n\n${SCHEDULE_CSV}\n`), [
    {
      headers: ['Doctor ID', 'Doctor Name', '1', '2', '3'],
      rows: [
        ['D1', 'Alice', 'M', 'N', null],
        ['D2', 'Bob', 'N', 'M', 'O'],
      ],
      source: 'csv_parsed',
    },
  ]);
});

test('printed tab text → csv_parsed; a pipe / markdown table → table_parsed, rules skipped', () => {
  assert.deepEqual(printedOutputGrids('Doctor ID\t1\t2\nD1\tM\t5')[0], {
    headers: ['Doctor ID', '1', '2'],
    rows: [['D1', 'M', 5]],
    source: 'csv_parsed',
  });
  const markdown = 'Schedule:\n| Doctor ID | 1 | 2 |\n|:---|---:|---|\n| D1 | M | N |\n| D2 | N |';
  assert.deepEqual(printedOutputGrids(markdown)[0], {
    headers: ['Doctor ID', '1', '2'],
    rows: [
      ['D1', 'M', 'N'],
      ['D2', 'N', null],
    ],
    source: 'table_parsed',
  });
  const grid = '+----+----+\n| a  | b  |\n+====+====+\n| 1  | 2  |\n+----+----+';
  assert.deepEqual(printedOutputGrids(grid)[0]?.rows, [[1, 2]]);
});

test('printed Python lists (print(rows)) → array_converted: list of lists with its header row, list of dicts in key order', () => {
  assert.deepEqual(printedOutputGrids("[['Doctor ID', 1, 2], ['D1', 'M', None], ['D2', 'N', 'M', 'x']]"), [
    {
      headers: ['Doctor ID', '1', '2'],
      rows: [
        ['D1', 'M', null],
        ['D2', 'N', 'M'],
      ],
      source: 'array_converted',
    },
  ]);
  assert.deepEqual(printedOutputGrids("rows:\n[{'Doctor ID': 'D1', 1: 'M'}, {'Doctor ID': 'D2', 2: 'N'}]\ndone"), [
    {
      headers: ['Doctor ID', '1', '2'],
      rows: [
        ['D1', 'M', null],
        ['D2', null, 'N'],
      ],
      source: 'array_converted',
    },
  ]);
});

test('printed JSON (print(json.dumps(...))) and pprint over several lines → array_converted', () => {
  assert.deepEqual(printedOutputGrids('{"headers": ["a", "b"], "rows": [[1, 2]]}')[0], { headers: ['a', 'b'], rows: [[1, 2]], source: 'array_converted' });
  assert.deepEqual(printedOutputGrids('{"a": [1, 2], "b": [3]}')[0], {
    headers: ['a', 'b'],
    rows: [
      [1, 3],
      [2, null],
    ],
    source: 'array_converted',
  });
  const pprinted = "[['Doctor ID', 1, 2],\n ['D1', 'M', 'N'],\n ['D2', 'N', 'M']]";
  assert.deepEqual(printedOutputGrids(pprinted).length, 1);
  assert.equal(printedOutputGrids(pprinted)[0].rows.length, 2);
});

test('printed text that holds no table: sentences, one column, a header without rows, a list of scalars', () => {
  for (const text of ['', 'Hello', 'total\n42', 'a,b', 'Done, thanks', '[1, 2, 3]', "[['only header', 'row']]", '{}', 'x = [1, 2']) {
    assert.deepEqual(printedOutputGrids(text), [], JSON.stringify(text));
  }
});

test('each table of the output is a candidate, in order: a log block and a schedule', () => {
  const out = 'Running HiGHS 1.7.0\nCoefficient ranges:\n  Matrix [1e+00, 1e+00]\n  Cost   [1e+00, 1e+00]\n\n' + SCHEDULE_CSV;
  assert.deepEqual(
    printedOutputGrids(out).map((g) => g.headers[0]),
    ['Matrix [1e+00', 'Doctor ID'],
  );
});

test('gridOfRun: a printed schedule is kept; the largest schedule wins', () => {
  assert.equal(gridOfRun(null, SCHEDULE_CSV, false, on).grid?.source, 'csv_parsed');
  const small = 'Doctor ID,1,2,3,4\nD1,M,N,O,M';
  const big = 'Doctor ID,1,2,3,4\nD1,M,N,O,M\nD2,N,M,O,N';
  assert.equal(gridOfRun(null, `${small}\n\n${big}`, false, on).grid?.rows.length, 2);
});

test("gridOfRun: a printed table that is not a schedule is discarded with 'Parsed output ignored (not a schedule)'", () => {
  assert.deepEqual(gridOfRun(null, 'Region,Total\nNorth,12\nSouth,5', false, on), {
    grid_discarded: { reason: 'not_a_schedule', message: PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE },
  });
  assert.equal(PARSED_OUTPUT_NOT_A_SCHEDULE_MESSAGE, 'Parsed output ignored (not a schedule)');
});

test('gridOfRun: printed tables that are all solver debug logs are discarded as noise, even schedule-shaped', () => {
  // A logged line split on its commas: a doctor header and days, but a header showing log text.
  assert.deepEqual(gridOfRun(null, 'INFO: Doctor ID,1,2,3,4\nIteration 1, obj 3, gap 0.1, 4, 5', false, on), {
    grid_discarded: { reason: 'solver_debug_log', message: PARSED_OUTPUT_NOISE_MESSAGE },
  });
});

test('gridOfRun: no table in the output, parsing off (enhanced table parsing) or output cut at the cap → no grid, no message', () => {
  assert.deepEqual(gridOfRun(null, 'Hello', false, on), {});
  assert.deepEqual(gridOfRun(null, SCHEDULE_CSV, false, { parsePrintedOutput: false }), {});
  assert.deepEqual(gridOfRun(null, SCHEDULE_CSV, true, on), {});
});

test('gridOfRun: a grid the code returns in result is always kept, schedule or not, and the printed output is then not read', () => {
  assert.deepEqual(gridOfRun([{ Region: 'North', Total: 12 }], SCHEDULE_CSV, false, on).grid?.headers, ['Region', 'Total']);
  assert.equal(gridOfRun('Region,Total\nNorth,12', '', false, on).grid?.source, 'delimited_text');
  assert.deepEqual(gridOfRun(42, SCHEDULE_CSV, false, on), {});
});

test('gridOfRun: a result grid that is a solver debug log is discarded as noise', () => {
  assert.deepEqual(gridOfRun([['Running HiGHS 1.7.0'], ['Presolving model'], ['Iteration 1: obj = 5']], '', false, on), {
    grid_discarded: { reason: 'solver_debug_log', message: RESULT_GRID_NOISE_MESSAGE },
  });
});
