import { LiveClientFrameSchema, LiveConnectQuerySchema, LiveServerFrameSchema } from './live.schema.js';

const SHEET = '6f1d2c3b-0000-4000-8000-000000000001';

test("takes the spec's operation frame (spec 01 §3), its user_id and timestamp included", () => {
  const frame = {
    type: 'operation',
    sheet_id: SHEET,
    user_id: 'u-random',
    timestamp: 1700000000000,
    operation: { id: 'op1', type: 'cell_update', position: { row: 3, column: 2 }, value: 'x', user_id: 'u-random', timestamp: 1700000000000 },
  };
  expect(LiveClientFrameSchema.parse(frame)).toEqual(frame);
});

test('takes a pasted range as one cells_update and a reload_request', () => {
  const paste = { type: 'operation', sheet_id: SHEET, operation: { id: 'p', type: 'cells_update', changes: [{ row: 0, col: 0, value: 1 }] } };
  expect(LiveClientFrameSchema.safeParse(paste).success).toBe(true);
  expect(LiveClientFrameSchema.safeParse({ type: 'reload_request', sheet_id: SHEET }).success).toBe(true);
});

test('refuses out-of-range cells, wrong types, unknown fields and types, empty and oversized batches', () => {
  const op = (operation: object) => ({ type: 'operation', sheet_id: SHEET, operation });
  const bad = [
    op({ id: 'a', type: 'cell_update', position: { row: -1, column: 0 }, value: 1 }),
    op({ id: 'a', type: 'cell_update', position: { row: 1_048_576, column: 0 }, value: 1 }),
    op({ id: 'a', type: 'cell_update', position: { row: 0, column: 16_384 }, value: 1 }),
    op({ id: 'a', type: 'cell_update', position: { row: 0.5, column: 0 }, value: 1 }),
    op({ id: 'a', type: 'cell_update', position: { row: 0, column: 0 }, value: ['nested'] }),
    op({ id: 'a', type: 'cell_update', position: { row: 0, column: 0 }, value: 'x'.repeat(32_768) }),
    op({ id: 'a', type: 'cell_update', position: { row: 0, column: 0 }, value: 1, extra: true }),
    op({ id: '', type: 'cell_update', position: { row: 0, column: 0 }, value: 1 }),
    op({ id: 'a', type: 'cells_update', changes: [] }),
    op({ id: 'a', type: 'cells_update', changes: Array.from({ length: 10_001 }, () => ({ row: 0, col: 0, value: 1 })) }),
    op({ id: 'a', type: 'row_insert', at: 3 }),
    { type: 'sync', sheet_id: SHEET },
    { type: 'operation', operation: { id: 'a', type: 'cell_update', position: { row: 0, column: 0 }, value: 1 } },
  ];
  for (const frame of bad) expect(LiveClientFrameSchema.safeParse(frame).success).toBe(false);
});

test('reads since from the query and ignores a user_id there', () => {
  expect(LiveConnectQuerySchema.parse({ token: 't', since: '12', user_id: 'someone' })).toEqual({ token: 't', since: 12, user_id: 'someone' });
  expect(LiveConnectQuerySchema.safeParse({ since: '-1' }).success).toBe(false);
});

test('server frames carry their data under `data`', () => {
  const op = {
    type: 'operation',
    data: { sheet_id: SHEET, version: 7, operation: { id: 'o', type: 'cell_update', position: { row: 0, column: 0 }, value: null, user_id: 'u', timestamp: '2026-01-01T00:00:00.000Z' } },
  };
  expect(LiveServerFrameSchema.parse(op)).toEqual(op);
  expect(LiveServerFrameSchema.safeParse({ type: 'user_joined', data: { user_id: 'u', sheet_id: SHEET, display_name: 'Ann' } }).success).toBe(true);
  expect(LiveServerFrameSchema.safeParse({ type: 'operation', data: { ...op.data, operation: { ...op.data.operation, user_id: undefined } } }).success).toBe(false);
});

test("the access frame carries the member's new level on the sheet; 'none' is a close, never a frame", () => {
  const frame = { type: 'access', data: { sheet_id: SHEET, access: 'viewer' } };
  expect(LiveServerFrameSchema.parse(frame)).toEqual(frame);
  for (const access of ['editor', 'owner']) expect(LiveServerFrameSchema.safeParse({ type: 'access', data: { sheet_id: SHEET, access } }).success).toBe(true);
  expect(LiveServerFrameSchema.safeParse({ type: 'access', data: { sheet_id: SHEET, access: 'none' } }).success).toBe(false);
  expect(LiveServerFrameSchema.safeParse({ type: 'access', data: { sheet_id: SHEET, access: 'admin' } }).success).toBe(false);
});
