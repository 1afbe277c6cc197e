import { GridDataSchema, isGridData, parseSheet, SheetSchema } from './sheet.schema.js';

const summary = {
  id: 's1',
  name: 'Budget',
  version: 3,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  group_id: null,
  position: 0,
  is_favorite: false,
  metadata: { headers: ['A'], description: '', tags: [], rows: 1, columns: 1, groupId: null, position: 0, category: 'General', origin: 'ai' },
};

test('isGridData accepts exactly what GridDataSchema accepts', () => {
  // eslint-disable-next-line no-sparse-arrays
  const holey = [[1, , 3]];
  const samples: unknown[] = [
    [],
    [[]],
    [[1, 'a', true, null], [2.5]],
    [['x'.repeat(32_767)]],
    [['x'.repeat(32_768)]],
    [[undefined]],
    holey,
    [[{}]],
    [[[1]]],
    [1, 2],
    [['a'], 'b'],
    'rows',
    null,
    { 0: [1] },
    [new Array(16_385).fill(null)],
  ];
  for (const sample of samples) {
    expect([sample, isGridData(sample)]).toEqual([sample, GridDataSchema.safeParse(sample).success]);
  }
});

test('parseSheet gives what SheetSchema gives, keeps the grid arrays, and fails as SheetSchema does', () => {
  const data = [[1, 'a'], [null, true]];
  const parsed = parseSheet({ ...summary, data, extra: 'dropped' });
  expect(parsed).toEqual(SheetSchema.parse({ ...summary, data, extra: 'dropped' }));
  expect(parsed.data).toBe(data);
  expect(() => parseSheet({ ...summary, data: [[{}]] })).toThrow();
  expect(() => parseSheet({ ...summary, version: 'x', data })).toThrow();
  expect(() => parseSheet(null)).toThrow();
});
