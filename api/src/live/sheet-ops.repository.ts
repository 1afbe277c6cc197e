import { type ChartDefinition, chartsOf } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CellDelta } from '../sheets/cell-grid.js';
import { type StoredMoveOp, withOpIds } from '../sheets/sheet-ops.tables.js';

export interface LoggedOp {
  version: number;
  kind: string;
  userId: string | null;
  createdAt: Date;
  /** null: a whole new grid (no cells recorded). */
  changes: CellDelta[] | null;
  /** The live client's operation id, when the op came through the socket. */
  opId: string | null;
  /** Rows or columns inserted or removed, or rows sorted. */
  structure: StoredMoveOp | null;
  /** A chart change ('chart'): the chart it changed as stored at that version (null: deleted); absent when it cannot be told. */
  chart?: { id: string; chart: ChartDefinition | null };
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
    const ops: LoggedOp[] = rows.map((r) => ({
      version: r.version,
      kind: r.kind,
      userId: r.user_id,
      createdAt: r.created_at,
      changes: r.changes === null ? null : (JSON.parse(r.changes) as CellDelta[]),
      opId: r.op_id,
      structure: r.op === null ? null : (JSON.parse(r.op) as StoredMoveOp),
    }));
    const chartOps = ops.filter((op) => op.kind === 'chart');
    if (chartOps.length > 0) await this.#chartChanges(sheetId, chartOps);
    return ops;
  }

  /**
   * Which chart each chart op changed: the charts recorded at its version against the latest ones
   * recorded before it (every chart op records its version's charts; one op changes one chart).
   * An op whose lists differ in no chart or in several is left without (it is then synced).
   */
  async #chartChanges(sheetId: string, chartOps: LoggedOp[]): Promise<void> {
    const first = chartOps[0].version;
    const last = chartOps[chartOps.length - 1].version;
    const { rows } = await sql<{ version: number; charts: unknown }>`SELECT version, charts FROM sheet_version_charts
      WHERE sheet_id = ${sheetId}::uuid AND version <= ${last}::int AND version >= coalesce(
        (SELECT max(version) FROM sheet_version_charts WHERE sheet_id = ${sheetId}::uuid AND version < ${first}::int), 0)
      ORDER BY version`.execute(this.db);
    const lists = rows.map((r) => ({ version: r.version, charts: chartsOf({ charts: r.charts }) }));
    for (const op of chartOps) {
      const at = lists.findIndex((l) => l.version === op.version);
      if (at < 0) continue;
      const before = at > 0 ? lists[at - 1].charts : [];
      const after = lists[at].charts;
      const key = (c: ChartDefinition) => JSON.stringify(c);
      const was = new Map(before.map((c) => [c.id, key(c)]));
      const changed = new Set([...after.filter((c) => was.get(c.id) !== key(c)).map((c) => c.id), ...before.filter((c) => !after.some((a) => a.id === c.id)).map((c) => c.id)]);
      if (changed.size !== 1) continue;
      const [id] = changed;
      op.chart = { id, chart: after.find((c) => c.id === id) ?? null };
    }
  }
}
