import { CELL_PATCH_MAX_CHANGES, LIVE_MAX_FRAME_BYTES, LiveOperationFrameSchema, type CellChange } from '@tessera/contracts';
import { cellOperations, structureOperation } from './live-ops.js';

const frameOf = (operation: unknown) => ({ type: 'operation', operation, sheet_id: 's1' });

test('one cell is a cell_update; a range is one cells_update the server accepts', () => {
  const [one] = cellOperations([{ row: 2, col: 3, value: 'x' }], 'u1');
  expect(one).toMatchObject({ type: 'cell_update', position: { row: 2, column: 3 }, value: 'x', user_id: 'u1' });
  const range = cellOperations(
    [
      { row: 0, col: 0, value: 1 },
      { row: 0, col: 1, value: null },
    ],
    'u1',
  );
  expect(range).toHaveLength(1);
  expect(range[0]).toMatchObject({ type: 'cells_update', changes: [{ row: 0, col: 0, value: 1 }, { row: 0, col: 1, value: null }] });
  for (const op of [one, ...range]) expect(LiveOperationFrameSchema.safeParse(frameOf(op)).success).toBe(true);
  expect(one.id).not.toBe(range[0].id);
});

test('a paste of 25,000 cells is cut at the limit of an operation, in order', () => {
  const changes: CellChange[] = Array.from({ length: 25_000 }, (_, i) => ({ row: Math.floor(i / 10), col: i % 10, value: i }));
  const ops = cellOperations(changes, 'u1');
  expect(ops.map((o) => (o.type === 'cells_update' ? o.changes.length : 0))).toEqual([CELL_PATCH_MAX_CHANGES, CELL_PATCH_MAX_CHANGES, 5_000]);
  expect(ops.flatMap((o) => (o.type === 'cells_update' ? o.changes : []))).toEqual(changes);
  for (const op of ops) expect(LiveOperationFrameSchema.safeParse(frameOf(op)).success).toBe(true);
});

test('long texts are cut so that every frame stays under the socket frame limit', () => {
  const text = 'é'.repeat(30_000);
  const changes: CellChange[] = Array.from({ length: 200 }, (_, i) => ({ row: i, col: 0, value: text }));
  const ops = cellOperations(changes, 'u1');
  expect(ops.length).toBeGreaterThan(1);
  for (const op of ops) expect(new TextEncoder().encode(JSON.stringify(frameOf(op))).length).toBeLessThan(LIVE_MAX_FRAME_BYTES);
  expect(ops.flatMap((o) => (o.type === 'cells_update' ? o.changes : []))).toHaveLength(200);
});

test('a paste of texts that JSON escapes (control characters: 6 bytes each in the frame) is cut by its encoded size: every frame stays under the limit', () => {
  const text = '\u0001'.repeat(30_000);
  expect(JSON.stringify(text).length).toBe(6 * 30_000 + 2);
  const changes: CellChange[] = Array.from({ length: 40 }, (_, i) => ({ row: i, col: 0, value: i % 2 ? text : `"${'\\'.repeat(20_000)}"` }));
  const ops = cellOperations(changes, 'u1');
  for (const op of ops) expect(new TextEncoder().encode(JSON.stringify(frameOf(op))).length).toBeLessThan(LIVE_MAX_FRAME_BYTES);
  expect(ops.flatMap((o) => (o.type === 'cells_update' ? o.changes : []))).toEqual(changes);
  for (const op of ops) expect(LiveOperationFrameSchema.safeParse(frameOf(op)).success).toBe(true);
});

test('rows and columns become structure operations in the stored grid; the spare area alone sends nothing', () => {
  const size = { rows: 5, cols: 3 };
  expect(structureOperation({ axis: 'row', index: 2, amount: 2 }, size, 'u1')).toMatchObject({ type: 'rows_insert', index: 2, count: 2 });
  expect(structureOperation({ axis: 'row', index: 5, amount: 1 }, size, 'u1')).toMatchObject({ type: 'rows_insert', index: 5, count: 1 });
  expect(structureOperation({ axis: 'row', index: 9, amount: 1 }, size, 'u1')).toBeNull();
  expect(structureOperation({ axis: 'col', index: 1, amount: -1 }, size, 'u1')).toMatchObject({ type: 'columns_remove', index: 1, count: 1 });
  // A removal reaching into the spare columns is cut to the stored ones.
  expect(structureOperation({ axis: 'col', index: 2, amount: -4 }, size, 'u1')).toMatchObject({ type: 'columns_remove', index: 2, count: 1 });
  expect(structureOperation({ axis: 'col', index: 3, amount: -1 }, size, 'u1')).toBeNull();
});
