import type { ShellContext } from '@tessera/contracts';
import { createVersionService } from './version.service.js';

test("a version's short rows (an empty row is stored as []) come padded to its width, so the grid keeps every cell in its column", async () => {
  const version = {
    version_id: 'v2',
    version: 2,
    status: 'live',
    author: 'ann',
    author_id: 'u1',
    created_at: '2026-11-26T00:00:00.000Z',
    delta_cells: 1,
    kind: 'cells',
    label: null,
    base_version: null,
    headers: ['A', 'B', 'C'],
    rows: [[], ['', 'x'], []],
    changes: [{ row: 1, col: 1, old: null, new: 'x' }],
  };
  const api = { get: async () => ({ data: JSON.parse(JSON.stringify(version)) }) } as unknown as ShellContext['api'];
  const result = await createVersionService(api).get('s1', 'v2');
  expect(result.success && result.data.rows).toEqual([
    [null, null, null],
    ['', 'x', null],
    [null, null, null],
  ]);
});
