import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../http/http-error.js';
import { SheetChangeFeed } from './sheet-changes.js';
import { moveCells, moveStructure, type StructureHistory, StructureLog } from './sheet-ops.transform.js';

const history = (steps: StructureHistory['steps'], replacedAt: number | null = null): StructureHistory => ({ steps, replacedAt });

describe('moving a live op from its base version', () => {
  const h = history(
    [
      { version: 3, op: { type: 'rows_remove', index: 0, count: 1 } },
      { version: 5, op: { type: 'columns_insert', index: 0, count: 2 } },
    ],
    null,
  );

  it('cells move through the structure ops after their own base only; none left is a 409 with the text', () => {
    assert.deepEqual(moveCells([{ row: 2, col: 1, value: 'x' }], 2, 6, h), [{ row: 1, col: 3, value: 'x' }]);
    assert.deepEqual(moveCells([{ row: 2, col: 1, value: 'x' }], 4, 6, h), [{ row: 2, col: 3, value: 'x' }]);
    assert.deepEqual(moveCells([{ row: 2, col: 1, value: 'x' }], undefined, 6, h), [{ row: 2, col: 1, value: 'x' }], 'no base: as the sheet is');
    const gone = moveCells([{ row: 0, col: 0, value: 'x' }], 2, 6, h);
    assert.ok(gone instanceof HttpError && gone.statusCode === 409);
  });

  it('a base before a whole-grid replacement, or ahead of the sheet, is refused', () => {
    const replaced = moveStructure({ type: 'rows_insert', index: 0, count: 1 }, 2, 6, history([], 4));
    assert.ok(replaced instanceof HttpError && replaced.statusCode === 409);
    assert.deepEqual(moveStructure({ type: 'rows_insert', index: 0, count: 1 }, 4, 6, history([], 4)), { type: 'rows_insert', index: 0, count: 1 });
    const ahead = moveCells([{ row: 0, col: 0, value: 1 }], 9, 6, h);
    assert.ok(ahead instanceof HttpError && ahead.statusCode === 400 && ahead.message === 'base_version 9 is ahead of the sheet (version 6)');
  });
});

describe('StructureLog (recent structure history in memory)', () => {
  const setup = () => {
    const feed = new SheetChangeFeed();
    const queries: [number, number][] = [];
    const log = new StructureLog(feed, async (_db, _id, base, current) => {
      queries.push([base, current]);
      return history([{ version: base + 1, op: { type: 'rows_insert', index: 0, count: 1 } }]);
    });
    const cells = (version: number) => feed.emit({ sheetId: 's', version, kind: 'cells', changes: [], userId: 'u', updatedAt: 't' });
    const rows = (version: number) =>
      feed.emit({ sheetId: 's', version, kind: 'structure', operation: { type: 'rows_remove', index: 1, count: 1 }, userId: 'u', updatedAt: 't' });
    return { feed, log, queries, cells, rows, db: null as never };
  };

  it("answers from this process's commits when it knows every version from the base on; no query", async () => {
    const { log, queries, cells, rows, db } = setup();
    cells(10);
    rows(11);
    cells(12);
    assert.deepEqual(await log.since(db, 's', 9, 12), history([{ version: 11, op: { type: 'rows_remove', index: 1, count: 1 } }]));
    assert.deepEqual(await log.since(db, 's', 11, 12), history([]));
    assert.deepEqual(await log.since(db, 's', 12, 12), history([]));
    assert.deepEqual(queries, []);
  });

  it('reads the op log when a version is unknown (another process, a base older than known, a whole-grid PUT) and keeps what it read', async () => {
    const { feed, log, queries, cells, db } = setup();
    cells(10);
    // Version 11 was committed by another api process: the sheet is at 11, this process knows up to 10.
    await log.since(db, 's', 9, 11);
    assert.deepEqual(queries, [[9, 11]]);
    await log.since(db, 's', 9, 11);
    assert.deepEqual(queries, [[9, 11]], 'filled');
    await log.since(db, 's', 5, 11);
    assert.deepEqual(queries, [[9, 11], [5, 11]], 'older than known');
    feed.emit({ sheetId: 's', version: 12, kind: 'sheet', userId: 'u' });
    await log.since(db, 's', 11, 12);
    assert.deepEqual(queries.at(-1), [11, 12], 'a PUT may have replaced rows: read');
    assert.equal(queries.length, 3);
    await log.since(db, 's', 12, 13).catch(() => undefined);
    assert.deepEqual(queries.at(-1), [12, 13]);
  });
});
