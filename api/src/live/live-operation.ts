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
      const changes: CellChange[] =
        op.type === 'cell_update' ? [{ row: op.position.row, col: op.position.column, value: op.value }] : op.changes;
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
