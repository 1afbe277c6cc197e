import { type AppliedOperation, type CellChange, cellChangesOf, type LiveOperation } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';
import { sentSortOrder, type StoredMoveOp } from '../sheets/sheet-ops.tables.js';
import type { LiveCellOutcome, LiveCellWrite, SheetsService } from '../sheets/sheets.service.js';
import type { SheetOpsRepository } from './sheet-ops.repository.js';

export type OperationOutcome =
  | {
      ok: true;
      version: number;
      timestamp: string;
      /** The operation id was already applied on this sheet (a re-send after a reconnect): ack it again, do not broadcast. */
      duplicate: boolean;
      /** The operation as applied, stamped with the token's user and the commit time. */
      operation: AppliedOperation;
      /** Cells written (metrics); 0 for a structural operation. */
      cells: number;
    }
  | { ok: false; code: string; message: string };

/** The cells an operation writes; null for rows and columns (one definition, the client's). */
export { cellChangesOf };

/** The operation the server broadcasts: at its own version, with the positions it landed on (no base_version any more). */
function appliedOperation(op: LiveOperation, userId: string, timestamp: string, landed: { changes?: CellChange[]; structure?: StoredMoveOp }): AppliedOperation {
  const { base_version: _base, ...rest } = op;
  let moved: LiveOperation = rest;
  if (rest.type === 'cell_update' && landed.changes) moved = { ...rest, position: { row: landed.changes[0].row, column: landed.changes[0].col } };
  else if (rest.type === 'cells_update' && landed.changes) moved = { ...rest, changes: landed.changes };
  else if (rest.type === 'rows_sort' && landed.structure?.type === 'rows_sort') return { ...rest, column: landed.structure.column, ...sentSortOrder(landed.structure), user_id: userId, timestamp };
  else if (rest.type === 'cells_clear' && landed.structure?.type === 'cells_clear') moved = { ...rest, rows: landed.structure.rows, columns: landed.structure.columns };
  else if (rest.type === 'cells_clear_undo' && landed.structure?.type === 'cells_clear_undo')
    return { ...rest, undo: landed.structure.undo, rows: landed.structure.rows, columns: landed.structure.columns, user_id: userId, timestamp };
  else if (
    landed.structure &&
    landed.structure.type !== 'rows_sort' &&
    landed.structure.type !== 'cells_clear' &&
    landed.structure.type !== 'cells_clear_undo' &&
    rest.type !== 'cell_update' &&
    rest.type !== 'cells_update' &&
    rest.type !== 'rows_sort' &&
    rest.type !== 'cells_clear' &&
    rest.type !== 'cells_clear_undo'
  )
    moved = { ...rest, index: landed.structure.index, count: landed.structure.count };
  return { ...moved, user_id: userId, timestamp } as AppliedOperation;
}

function outcomeOf(op: LiveOperation, userId: string, result: LiveCellOutcome): OperationOutcome {
  if ('refused' in result) return { ok: false, code: result.refused.code, message: result.refused.message };
  return {
    ok: true,
    version: result.version,
    timestamp: result.updated_at,
    duplicate: result.duplicate === true,
    operation: appliedOperation(op, userId, result.updated_at, { changes: result.changes }),
    cells: result.changes.length,
  };
}

const writeOf = ({ userId, op }: { userId: string; op: LiveOperation }): LiveCellWrite => ({
  userId,
  opId: op.id,
  changes: cellChangesOf(op) ?? [],
  baseVersion: op.base_version,
  ...(op.type === 'cells_update' && op.source === 'ai' ? { ai: true } : {}),
});

/**
 * Persists a group of live cell operations of one sheet in one transaction (group commit:
 * SheetsService.patchCellsBatch), each its own version in order, each moved through the rows
 * and columns inserted or removed after its own base version (an operation whose cells are
 * all gone is refused: its outcome is the error frame naming it). Structural ops earlier in
 * the same batch were committed before this run (LiveHub commits runs in arrival order), so
 * the op log this reads holds them. When the group fails (a sheet deleted meanwhile, a
 * database error), nothing of it was written and each operation is committed on its own
 * instead, so one failing operation cannot take the others with it.
 */
export async function commitCellGroup(
  sheets: SheetsService,
  ops: SheetOpsRepository,
  sheetId: string,
  group: { userId: string; op: LiveOperation }[],
  origin: string,
): Promise<OperationOutcome[]> {
  let results;
  try {
    results = await sheets.patchCellsBatch(sheetId, group.map(writeOf), origin);
  } catch {
    const outcomes: OperationOutcome[] = [];
    for (const { userId, op } of group) outcomes.push(await commitOperation(sheets, ops, sheetId, userId, op, origin));
    return outcomes;
  }
  return results.map((result, i) => outcomeOf(group[i].op, group[i].userId, result));
}

/**
 * Persists one live operation through SheetsService (cells: patchCellsBatch with one write;
 * rows and columns: applyStructure), idempotently by its id, moved through the rows and columns
 * inserted or removed after its base version. Live cells are last-writer-wins in server order,
 * so they never get a 409 for a cell changed since; an operation with nothing left after the
 * move, or based before a whole-grid replacement, is refused (409).
 */
export async function commitOperation(
  sheets: SheetsService,
  _ops: SheetOpsRepository,
  sheetId: string,
  userId: string,
  op: LiveOperation,
  origin: string,
): Promise<OperationOutcome> {
  try {
    if (op.type === 'cell_update' || op.type === 'cells_update') {
      const [result] = await sheets.patchCellsBatch(sheetId, [writeOf({ userId, op })], origin);
      return outcomeOf(op, userId, result);
    }
    if (op.type === 'rows_sort') {
      const result = await sheets.applySort(sheetId, { column: op.column, direction: op.direction, undo: op.undo }, userId, origin, op.id, op.base_version);
      const operation = appliedOperation(op, userId, result.updated_at, { structure: result.operation });
      return { ok: true, version: result.version, timestamp: result.updated_at, duplicate: result.duplicate === true, operation, cells: 0 };
    }
    if (op.type === 'cells_clear') {
      const result = await sheets.applyClear(sheetId, { rows: op.rows, columns: op.columns }, userId, origin, op.id, op.base_version);
      const operation = appliedOperation(op, userId, result.updated_at, { structure: result.operation });
      return { ok: true, version: result.version, timestamp: result.updated_at, duplicate: result.duplicate === true, operation, cells: 0 };
    }
    if (op.type === 'cells_clear_undo') {
      const result = await sheets.applyClearUndo(sheetId, op.undo, userId, origin, op.id, op.base_version);
      const operation = appliedOperation(op, userId, result.updated_at, { structure: result.operation });
      return { ok: true, version: result.version, timestamp: result.updated_at, duplicate: result.duplicate === true, operation, cells: 0 };
    }
    const undo = (op.type === 'rows_insert' || op.type === 'columns_insert') && op.undo !== undefined ? { undo: op.undo } : {};
    const result = await sheets.applyStructure(sheetId, { type: op.type, index: op.index, count: op.count, ...undo }, userId, origin, op.id, op.base_version);
    const operation = appliedOperation(op, userId, result.updated_at, { structure: result.operation });
    return { ok: true, version: result.version, timestamp: result.updated_at, duplicate: result.duplicate === true, operation, cells: 0 };
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
