import { LIVE_MAX_FRAME_BYTES } from '../live/live.schema.js';
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
      // An AI or code result: the server sets the sheet's lastAIUpdate when it commits it.
      source: 'ai',
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

test('a result of long texts is cut by encoded size too: every frame stays under the socket bound (a 10,000-cell chunk of them was a 3 MB frame the socket closed with 1009)', () => {
  const text = `"${'\u0001'.repeat(200)}"é`;
  const target = Array.from({ length: 5000 }, () => [text, text]);
  const ops = gridToOperations([], target, 2);
  const cells = ops.filter((op) => op.type === 'cells_update');
  expect(cells.length).toBeGreaterThan(1);
  for (const op of cells) {
    const frame = JSON.stringify({ type: 'operation', sheet_id: 's1', operation: { ...op, base_version: 1, user_id: 'u1', timestamp: 1 } });
    expect(new TextEncoder().encode(frame).length).toBeLessThan(LIVE_MAX_FRAME_BYTES);
  }
  expect(cells.flatMap((op) => (op.type === 'cells_update' ? op.changes : []))).toHaveLength(10_000);
});
