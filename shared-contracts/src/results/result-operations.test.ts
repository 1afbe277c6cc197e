import { gridToOperations } from './result-operations.js';

const current = [
  ['North', 10],
  ['South', 5],
  ['East', 7],
];

test('a sort sends only the cells that changed, as one cells_update', () => {
  const sorted = [
    ['North', 10],
    ['East', 7],
    ['South', 5],
  ];
  const ops = gridToOperations(current, sorted, 2);
  expect(ops).toEqual([
    {
      id: expect.any(String),
      type: 'cells_update',
      changes: [
        { row: 1, col: 0, value: 'East' },
        { row: 1, col: 1, value: 7 },
        { row: 2, col: 0, value: 'South' },
        { row: 2, col: 1, value: 5 },
      ],
    },
  ]);
});

test('a filter removes the rows past the result; a longer result inserts rows first', () => {
  expect(gridToOperations(current, [['South', 5]], 2).map((op) => op.type)).toEqual(['cells_update', 'rows_remove']);
  expect(gridToOperations(current, [['South', 5]], 2).at(-1)).toMatchObject({ type: 'rows_remove', index: 1, count: 2 });
  const longer = gridToOperations(current, [...current, ['West', 1]], 2);
  expect(longer[0]).toMatchObject({ type: 'rows_insert', index: 3, count: 1 });
  expect(longer[1]).toMatchObject({ type: 'cells_update', changes: [{ row: 3, col: 0, value: 'West' }, { row: 3, col: 1, value: 1 }] });
});

test('an unchanged grid sends nothing; many changes go in chunks of 10,000 cells', () => {
  expect(gridToOperations(current, current, 2)).toEqual([]);
  const big = Array.from({ length: 6000 }, (_, i) => [i, i]);
  const ops = gridToOperations([], big, 2);
  expect(ops.map((op) => (op.type === 'cells_update' ? op.changes.length : op.type))).toEqual(['rows_insert', 10_000, 2_000]);
  expect(new Set(ops.map((op) => op.id)).size).toBe(3);
});
