import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CellDelta } from '../sheets/cell-grid.js';
import { type StoredStructureOp, withOpIds } from '../sheets/sheet-ops.tables.js';

export interface LoggedOp {
  version: number;
  kind: string;
  userId: string | null;
  createdAt: Date;
  /** null: a whole new grid (no cells recorded). */
  changes: CellDelta[] | null;
  /** The live client's operation id, when the op came through the socket. */
  opId: string | null;
  /** Rows or columns inserted or removed. */
  structure: StoredStructureOp | null;
}

/** Reads of the op log (sheet_ops) for reconnecting clients. */
export class SheetOpsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The sheet's current version, or undefined when there is no such sheet. */
  async currentVersion(sheetId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('sheets').select('version').where('id', '=', sheetId).executeTakeFirst();
    return row?.version;
  }

  /** Ops after `since`, oldest first, at most `limit`. */
  async after(sheetId: string, since: number, limit: number): Promise<LoggedOp[]> {
    const rows = await withOpIds(this.db)
      .selectFrom('sheet_ops')
      .select(['version', 'kind', 'user_id', 'created_at', 'op_id', sql<string | null>`changes::text`.as('changes'), sql<string | null>`op::text`.as('op')])
      .where('sheet_id', '=', sheetId)
      .where('version', '>', since)
      .orderBy('version')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      version: r.version,
      kind: r.kind,
      userId: r.user_id,
      createdAt: r.created_at,
      changes: r.changes === null ? null : (JSON.parse(r.changes) as CellDelta[]),
      opId: r.op_id,
      structure: r.op === null ? null : (JSON.parse(r.op) as StoredStructureOp),
    }));
  }
}
