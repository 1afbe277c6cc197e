import { type AppliedOperation, type CellChange, type LiveOperation } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';
import { notFound, SHEET_NOT_FOUND, type SheetsService } from '../sheets/sheets.service.js';
import type { SheetOpsRepository } from './sheet-ops.repository.js';

/** A concurrent REST edit of the same cell between reading the version and the write: read again. */
const MAX_CONFLICT_RETRIES = 5;

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

/** The cells an operation writes; undefined for rows and columns. */
export function cellChangesOf(op: LiveOperation): CellChange[] | undefined {
  if (op.type === 'cell_update') return [{ row: op.position.row, col: op.position.column, value: op.value }];
  if (op.type === 'cells_update') return op.changes;
  return undefined;
}

/**
 * Persists a group of live cell operations of one sheet in one transaction (group commit:
 * SheetsService.patchCellsBatch), each its own version in order. When the group fails (a
 * sheet deleted meanwhile, a database error), nothing of it was written and each operation is
 * committed on its own instead, so one failing operation cannot take the others with it.
 */
export async function commitCellGroup(
  sheets: SheetsService,
  ops: SheetOpsRepository,
  sheetId: string,
  group: { userId: string; op: LiveOperation }[],
  origin: string,
): Promise<OperationOutcome[]> {
  const writes = group.map(({ userId, op }) => ({ userId, opId: op.id, changes: cellChangesOf(op) ?? [] }));
  let results;
  try {
    results = await sheets.patchCellsBatch(sheetId, writes, origin);
  } catch {
    const outcomes: OperationOutcome[] = [];
    for (const { userId, op } of group) outcomes.push(await commitOperation(sheets, ops, sheetId, userId, op, origin));
    return outcomes;
  }
  return results.map((result, i) => ({
    ok: true,
    version: result.version,
    timestamp: result.updated_at,
    duplicate: result.duplicate === true,
    operation: { ...group[i].op, user_id: group[i].userId, timestamp: result.updated_at } as AppliedOperation,
    cells: writes[i].changes.length,
  }));
}

/**
 * Persists one live operation through SheetsService (cells: patchCells, the code of PATCH
 * .../cells; rows and columns: applyStructure), idempotently by its id. Live operations apply on
 * the current version (the server's order decides, last writer wins), so they never get a 409.
 */
export async function commitOperation(
  sheets: SheetsService,
  ops: SheetOpsRepository,
  sheetId: string,
  userId: string,
  op: LiveOperation,
  origin: string,
): Promise<OperationOutcome> {
  try {
    let result;
    let cells = 0;
    if (op.type === 'cell_update' || op.type === 'cells_update') {
      const changes = cellChangesOf(op) ?? [];
      cells = changes.length;
      for (let attempt = 0; ; attempt++) {
        const current = await ops.currentVersion(sheetId);
        if (current === undefined) throw notFound(SHEET_NOT_FOUND);
        try {
          result = await sheets.patchCells(sheetId, { base_version: current, changes }, userId, origin, op.id);
          break;
        } catch (err) {
          // Only a write from outside the socket (REST) between the read and the lock can make it stale.
          if (err instanceof HttpError && err.statusCode === 409 && attempt < MAX_CONFLICT_RETRIES) continue;
          throw err;
        }
      }
    } else {
      result = await sheets.applyStructure(sheetId, { type: op.type, index: op.index, count: op.count }, userId, origin, op.id);
    }
    const operation = { ...op, user_id: userId, timestamp: result.updated_at } as AppliedOperation;
    return { ok: true, version: result.version, timestamp: result.updated_at, duplicate: result.duplicate === true, operation, cells };
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}
