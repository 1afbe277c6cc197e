import type { CellValue } from '../sheets/sheet.schema.js';
import { type ClearBlock, clearBlocksThrough, clearedPlacesThrough, inBlock, placesSpan } from './cells-clear.js';
import { LiveOperationSchema, type LiveOperation, type LiveServerFrame } from './live.schema.js';
import { LiveSheet } from './live-sheet.js';
import { transformOperation } from './transform-position.js';

const column = (col: number, rows: number): ClearBlock => ({ rows: { start: 0, count: rows }, columns: { start: col, count: 1 } });

describe('a cells_clear block', () => {
  test('the schema takes a block inside the sheet limits and refuses negative, empty, huge or forged ones', () => {
    const op = { id: 'c', type: 'cells_clear', rows: { start: 0, count: 1_000_000 }, columns: { start: 2, count: 1 }, base_version: 3 };
    expect(LiveOperationSchema.safeParse(op).success).toBe(true);
    for (const bad of [
      { ...op, rows: { start: -1, count: 1 } },
      { ...op, rows: { start: 0, count: 0 } },
      { ...op, rows: { start: 1_048_000, count: 1_000 } },
      { ...op, columns: { start: 0, count: 1e12 } },
      { ...op, columns: { start: 0.5, count: 1 } },
      { ...op, rows: { start: 0, count: 1, end: 9 } },
      { ...op, value: 'x' },
    ])
      expect(LiveOperationSchema.safeParse(bad).success).toBe(false);
  });

  test('through rows removed it shrinks (nothing left: dropped); through columns inserted before it it moves', () => {
    expect(clearBlocksThrough([column(2, 100)], [{ type: 'rows_remove', index: 10, count: 5 }], 'after')).toEqual([column(2, 95)]);
    expect(clearBlocksThrough([column(2, 100)], [{ type: 'columns_insert', index: 0, count: 2 }], 'after')).toEqual([column(4, 100)]);
    expect(clearBlocksThrough([column(2, 100)], [{ type: 'columns_remove', index: 2, count: 1 }], 'after')).toEqual([]);
    expect(transformOperation({ id: 'c', type: 'cells_clear', ...column(2, 100) }, { type: 'columns_remove', index: 2, count: 1 }, 'after').operation).toBeNull();
  });

  test('rows inserted inside it: committed before the clear, cleared with it (it grows); committed after it, kept (it splits)', () => {
    const rows = (start: number, count: number): ClearBlock => ({ rows: { start, count }, columns: { start: 2, count: 1 } });
    const insert = { type: 'rows_insert', index: 40, count: 3 } as const;
    expect(clearBlocksThrough([rows(10, 50)], [insert], 'after')).toEqual([rows(10, 53)]);
    expect(clearBlocksThrough([rows(10, 50)], [insert], 'before')).toEqual([rows(10, 30), rows(43, 20)]);
    // At its first row the inserted rows stay before it; just after its last, after it.
    expect(clearBlocksThrough([rows(10, 50)], [{ ...insert, index: 10 }], 'after')).toEqual([rows(13, 50)]);
    expect(clearBlocksThrough([rows(10, 50)], [{ ...insert, index: 60 }], 'before')).toEqual([rows(10, 50)]);
  });

  test('through a sort: a whole column stays whole; rows the sort scattered are refused (null), rows kept together move', () => {
    const sort = { type: 'rows_sort', order: [3, 2, 1, 0] } as const;
    expect(clearBlocksThrough([column(1, 4)], [sort], 'after')).toEqual([column(1, 4)]);
    expect(clearBlocksThrough([{ rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } }], [sort], 'after')).toEqual([
      { rows: { start: 2, count: 2 }, columns: { start: 1, count: 1 } },
    ]);
    expect(clearBlocksThrough([{ rows: { start: 1, count: 2 }, columns: { start: 1, count: 1 } }], [{ type: 'rows_sort', order: [1, 0, 3, 2] }], 'after')).toBeNull();
    expect(inBlock(column(1, 4), 3, 1)).toBe(true);
    expect(inBlock(column(1, 4), 4, 1)).toBe(false);
  });
});

/** A LiveSheet whose copy is a plain grid; frames fed as the server sends them. */
function setup(rows: CellValue[][]) {
  const grid = rows.map((r) => [...r]);
  const sent: LiveOperation[] = [];
  const live = new LiveSheet({
    version: 1,
    send: (op) => sent.push(op),
    applyCells: (changes) => changes.forEach((c) => (grid[c.row][c.col] = c.value)),
    applyStructure: (op) => {
      if (op.type === 'rows_insert') grid.splice(op.index, 0, ...Array.from({ length: op.count }, () => grid[0].map(() => null as CellValue)));
    },
    applyClear: (blocks, keep) => {
      for (const b of blocks)
        for (let r = b.rows.start; r < b.rows.start + b.rows.count; r++)
          for (let c = b.columns.start; c < b.columns.start + b.columns.count; c++) if (!keep(r, c)) grid[r][c] = null;
    },
    replace: () => {},
    onVersion: () => {},
    onPending: () => {},
    onError: () => {},
    fetch: async () => null,
  });
  return { live, sent, grid };
}

const clearFrame = (version: number, block: ClearBlock): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: 's', version, operation: { id: `r${version}`, type: 'cells_clear', ...block, user_id: 'bob', timestamp: 't' } },
});

test("someone else's clear empties the block but an own edit still on its way (it lands after the clear on the server)", () => {
  const { live, grid } = setup([['a', 1], ['b', 2], ['c', 3]]);
  grid[1][1] = 'mine';
  live.send([{ id: 'mine', type: 'cell_update', position: { row: 1, column: 1 }, value: 'mine' }]);
  live.receive(clearFrame(2, column(1, 3)));
  expect(grid).toEqual([['a', null], ['b', 'mine'], ['c', null]]);
});

test("someone else's clear does not empty rows the own pending insert put inside it; their later write into an own pending clear stays hidden", () => {
  const { live, grid } = setup([['a', 1], ['b', 2], ['c', 3]]);
  grid.splice(1, 0, ['new', 'typed']);
  live.send([{ id: 'ins', type: 'rows_insert', index: 1, count: 1 }]);
  live.receive(clearFrame(2, column(1, 3)));
  expect(grid).toEqual([['a', null], ['new', 'typed'], ['b', null], ['c', null]]);

  const other = setup([['a', 1], ['b', 2]]);
  other.grid[0][0] = null;
  other.grid[1][0] = null;
  other.live.send([{ id: 'clr', type: 'cells_clear', ...column(0, 2) }]);
  expect(other.sent[0]).toMatchObject({ type: 'cells_clear', base_version: 1 });
  other.live.receive({
    type: 'operation',
    data: { sheet_id: 's', version: 2, operation: { id: 'w', type: 'cell_update', position: { row: 1, column: 0 }, value: 'theirs', user_id: 'bob', timestamp: 't' } },
  });
  expect(other.grid).toEqual([[null, 1], [null, 2]]);
});

describe('where the cells of a cleared block are now (cells_clear_undo)', () => {
  test('rows and columns move through inserts, removals and a sort as their cells do; removed ones are -1', () => {
    const block: ClearBlock = { rows: { start: 1, count: 4 }, columns: { start: 1, count: 3 } };
    const places = clearedPlacesThrough(block, [
      { type: 'rows_insert', index: 0, count: 1 },
      // Inside the block, after the clear: the block's rows below it move, the inserted row is not one of them.
      { type: 'rows_insert', index: 4, count: 1 },
      { type: 'columns_remove', index: 2, count: 1 },
      { type: 'rows_remove', index: 3, count: 1 },
      // order[new] = old: rows 0..6 reversed.
      { type: 'rows_sort', order: [6, 5, 4, 3, 2, 1, 0] },
    ]);
    // Block rows 1,2,3,4 -> 2,3,4,5 -> 2,3,5,6 (inserts) -> 2,-1,4,5 (row 3 removed) -> 4,-1,2,1 (7 rows reversed).
    expect(Array.from(places.rows)).toEqual([4, -1, 2, 1]);
    expect(Array.from(places.columns)).toEqual([1, -1, 2]);
    // The sort moved row 2 (block row 0) to 4, row 5 (block row 3) to 1: their formulas by as many rows.
    expect(Array.from(places.sorted!)).toEqual([2, 0, -2, -4]);
    expect(clearedPlacesThrough(block, [{ type: 'rows_insert', index: 0, count: 1 }]).sorted).toBeUndefined();
    expect(placesSpan(places.rows)).toEqual({ start: 1, count: 4 });
    expect(placesSpan(Int32Array.from([-1, -1]))).toBeNull();
  });
});
