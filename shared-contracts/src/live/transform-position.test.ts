import { seededRandom } from '../testing/seeded-random.js';
import type { LiveOperation } from './live.schema.js';
import {
  type StructureStep,
  transformCell,
  transformChanges,
  transformIndex,
  transformOperation,
  transformOperationThrough,
  transformStructure,
} from './transform-position.js';

const rowsInsert = (index: number, count: number): StructureStep => ({ type: 'rows_insert', index, count });
const rowsRemove = (index: number, count: number): StructureStep => ({ type: 'rows_remove', index, count });
const colsInsert = (index: number, count: number): StructureStep => ({ type: 'columns_insert', index, count });
const colsRemove = (index: number, count: number): StructureStep => ({ type: 'columns_remove', index, count });

describe('a row or column index', () => {
  test('through an insert: before it stays, at or after it moves down by the count', () => {
    expect(transformIndex(1, rowsInsert(2, 3))).toBe(1);
    expect(transformIndex(2, rowsInsert(2, 3))).toBe(5);
    expect(transformIndex(7, rowsInsert(2, 3))).toBe(10);
  });

  test('through a removal: before it stays, inside it is gone, after it moves up by the count', () => {
    expect(transformIndex(1, rowsRemove(2, 3))).toBe(1);
    expect(transformIndex(2, rowsRemove(2, 3))).toBeNull();
    expect(transformIndex(4, rowsRemove(2, 3))).toBeNull();
    expect(transformIndex(5, rowsRemove(2, 3))).toBe(2);
  });
});

describe('a cell', () => {
  test('rows move the row, columns the column; the other stays', () => {
    expect(transformCell({ row: 4, col: 2 }, rowsInsert(0, 1))).toEqual({ row: 5, col: 2 });
    expect(transformCell({ row: 4, col: 2 }, colsInsert(0, 2))).toEqual({ row: 4, col: 4 });
    expect(transformCell({ row: 4, col: 2 }, colsRemove(0, 2))).toEqual({ row: 4, col: 0 });
    expect(transformCell({ row: 4, col: 2 }, colsRemove(2, 1))).toBeNull();
    expect(transformCell({ row: 4, col: 2 }, rowsRemove(4, 1))).toBeNull();
  });

  test('pushed past the sheet limit it is dropped', () => {
    expect(transformCell({ row: 1_048_575, col: 0 }, rowsInsert(0, 1))).toBeNull();
    expect(transformCell({ row: 0, col: 16_383 }, colsInsert(3, 1))).toBeNull();
  });

  test('through several ops in order, the changes left and how many were dropped', () => {
    const changes = [
      { row: 0, col: 0, value: 'a' },
      { row: 3, col: 1, value: 'b' },
      { row: 5, col: 2, value: 'c' },
    ];
    // Row 0 inserted (all move down), then rows 3-4 removed (the one at 3 was at 2 before: b stays, at 4), then column 1 removed.
    const { changes: left, dropped } = transformChanges(changes, [rowsInsert(0, 1), rowsRemove(2, 2), colsRemove(1, 1)]);
    expect(left).toEqual([
      { row: 1, col: 0, value: 'a' },
      { row: 4, col: 1, value: 'c' },
    ]);
    expect(dropped).toBe(1);
    expect(transformChanges(changes, [colsInsert(5, 1)]).changes).toBe(changes);
  });
});

describe('a structure op through another', () => {
  test('insert through insert: before stays, after moves; at the same index the later one goes after', () => {
    expect(transformStructure(rowsInsert(1, 2), rowsInsert(3, 1), 'after')).toEqual(rowsInsert(1, 2));
    expect(transformStructure(rowsInsert(5, 2), rowsInsert(3, 1), 'after')).toEqual(rowsInsert(6, 2));
    expect(transformStructure(rowsInsert(3, 2), rowsInsert(3, 1), 'after')).toEqual(rowsInsert(4, 2));
    expect(transformStructure(rowsInsert(3, 2), rowsInsert(3, 1), 'before')).toEqual(rowsInsert(3, 2));
  });

  test('insert through removal: at the start of the range stays, after it moves up, strictly inside it is dropped', () => {
    expect(transformStructure(rowsInsert(2, 1), rowsRemove(2, 3), 'after')).toEqual(rowsInsert(2, 1));
    expect(transformStructure(rowsInsert(5, 1), rowsRemove(2, 3), 'after')).toEqual(rowsInsert(2, 1));
    expect(transformStructure(rowsInsert(3, 1), rowsRemove(2, 3), 'after')).toBeNull();
  });

  test('removal through insert: an insert at or before it moves it, after it leaves it, inside it grows it', () => {
    expect(transformStructure(rowsRemove(2, 3), rowsInsert(2, 1), 'after')).toEqual(rowsRemove(3, 3));
    expect(transformStructure(rowsRemove(2, 3), rowsInsert(5, 1), 'after')).toEqual(rowsRemove(2, 3));
    expect(transformStructure(rowsRemove(2, 3), rowsInsert(3, 2), 'after')).toEqual(rowsRemove(2, 5));
  });

  test('removal through removal: what is left of the range, or nothing', () => {
    expect(transformStructure(rowsRemove(0, 2), rowsRemove(4, 2), 'after')).toEqual(rowsRemove(0, 2));
    expect(transformStructure(rowsRemove(6, 2), rowsRemove(1, 2), 'after')).toEqual(rowsRemove(4, 2));
    expect(transformStructure(rowsRemove(2, 4), rowsRemove(4, 4), 'after')).toEqual(rowsRemove(2, 2));
    expect(transformStructure(rowsRemove(3, 4), rowsRemove(1, 4), 'after')).toEqual(rowsRemove(1, 2));
    expect(transformStructure(rowsRemove(1, 6), rowsRemove(3, 2), 'after')).toEqual(rowsRemove(1, 4));
    expect(transformStructure(rowsRemove(3, 2), rowsRemove(1, 6), 'after')).toBeNull();
  });

  test('rows and columns do not move each other', () => {
    expect(transformStructure(colsRemove(1, 1), rowsRemove(0, 5), 'after')).toEqual(colsRemove(1, 1));
    expect(transformStructure(colsInsert(2, 1), colsRemove(0, 1), 'after')).toEqual(colsInsert(1, 1));
  });
});

describe('a live operation', () => {
  test('a cell_update moves or is dropped; a cells_update keeps its id and what is left', () => {
    const one: LiveOperation = { id: 'o', type: 'cell_update', position: { row: 2, column: 1 }, value: 'x', base_version: 3 };
    expect(transformOperation(one, rowsRemove(0, 1), 'after')).toEqual({ operation: { ...one, position: { row: 1, column: 1 } }, dropped: 0 });
    expect(transformOperation(one, rowsRemove(2, 1), 'after')).toEqual({ operation: null, dropped: 1 });
    const paste: LiveOperation = {
      id: 'p',
      type: 'cells_update',
      changes: [
        { row: 0, col: 0, value: 1 },
        { row: 1, col: 0, value: 2 },
      ],
    };
    expect(transformOperationThrough(paste, [rowsRemove(0, 1), rowsInsert(0, 3)], 'after')).toEqual({
      operation: { ...paste, changes: [{ row: 3, col: 0, value: 2 }] },
      dropped: 1,
    });
    expect(transformOperationThrough(paste, [rowsRemove(0, 2)], 'after')).toEqual({ operation: null, dropped: 2 });
  });
});

/**
 * Convergence (the transform's first property): two concurrent structure ops A (committed
 * first) and B, applied as the server does (A, then B moved through A) and as B's author does
 * (B, then A moved through B from the other side), end with the same rows in the same order;
 * and a cell edit made before A lands, through A, on the row it was made on. Rows carry their identity.
 */
describe('convergence on random pairs', () => {
  const apply = (rows: string[], op: StructureStep | null, tag: string) => {
    if (op === null) return rows;
    const next = [...rows];
    if (op.type === 'rows_insert') next.splice(op.index, 0, ...Array.from({ length: op.count }, (_, k) => `${tag}${k}`));
    else next.splice(op.index, op.count);
    return next;
  };

  test('for 2,000 random pairs of row inserts and removes', () => {
    const next = seededRandom(17);
    const int = (n: number) => Math.floor(next() * n);
    for (let i = 0; i < 2000; i++) {
      const rows = Array.from({ length: 1 + int(8) }, (_, k) => `r${k}`);
      const pick = (): StructureStep => {
        if (next() < 0.5) return rowsInsert(int(rows.length + 1), 1 + int(3));
        const index = int(rows.length);
        return rowsRemove(index, 1 + int(rows.length - index));
      };
      const a = pick();
      const b = pick();
      const server = apply(apply(rows, a, 'A'), transformStructure(b, a, 'after'), 'B');
      const author = apply(apply(rows, b, 'B'), transformStructure(a, b, 'before'), 'A');
      expect({ a, b, rows: author }).toEqual({ a, b, rows: server });

      // A cell edit made on the rows before A: through A it is on the same row (by identity), or dropped with its row.
      const row = int(rows.length);
      const moved = transformCell({ row, col: 0 }, a);
      const after = apply(rows, a, 'A');
      if (moved === null) expect(after).not.toContain(rows[row]);
      else expect(after[moved.row]).toBe(rows[row]);
    }
  });
});
