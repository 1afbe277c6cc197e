import type { CellValue, PruneResult, RetentionPolicy } from '@tessera/contracts';
import { sql } from 'kysely';
import { type CellDelta, sameCell } from '../sheets/cell-grid.js';
import { notFound, SHEET_NOT_FOUND } from '../sheets/sheets.service.js';
import { versionsToKeep } from './retention.js';
import { foldPacked, type PackedCell } from './snapshot-delta.js';
import type { VersionsDb } from './versions.tables.js';

/** Versions younger than this are never pruned: open clients may still send them as their base version. */
export const RECENT_KEEP_MS = 10 * 60_000;

/** Folds consecutive ops (oldest first) into one: each cell's first old value and last new value; unchanged cells dropped. */
export function foldDeltas(ops: CellDelta[][]): CellDelta[] {
  const byCell = new Map<string, CellDelta>();
  for (const deltas of ops) {
    for (const d of deltas) {
      const key = `${d.row}:${d.col}`;
      const seen = byCell.get(key);
      if (seen) seen.new = d.new;
      else byCell.set(key, { row: d.row, col: d.col, old: d.old, new: d.new as CellValue });
    }
  }
  return [...byCell.values()].filter((d) => !sameCell(d.old, d.new));
}

/**
 * Applies a retention policy to one sheet's history. A pruned run of versions is folded into
 * the next kept version's op (so every kept version still rebuilds exactly), and a pruned delta
 * snapshot into the next kept one (or dropped when none goes on from it); named versions,
 * the live one, whole-grid versions, the version before each cells_clear, rows_remove and columns_remove and the bases of open proposals and versions of the last 10 minutes are never pruned. Full
 * snapshots of pruned versions stop being rebuild bases; their chunks stay, later snapshots share them.
 */
export async function pruneHistory(
  db: VersionsDb,
  sheetId: string,
  policy: RetentionPolicy,
  /** Runs in the prune's transaction, after it (the activity log entry: a prune is never without it). */
  record?: (trx: VersionsDb, result: PruneResult) => Promise<void>,
): Promise<PruneResult> {
  return db.transaction().execute(async (trx) => {
    const result = await pruneIn(trx, sheetId, policy);
    await record?.(trx, result);
    return result;
  });
}

async function pruneIn(trx: VersionsDb, sheetId: string, policy: RetentionPolicy): Promise<PruneResult> {
  {
    const sheet = await trx.selectFrom('sheets').select('version').where('id', '=', sheetId).forUpdate().executeTakeFirst();
    if (!sheet) throw notFound(SHEET_NOT_FOUND);
    const { rows: ops } = await sql<{ version: number; created_at: Date; whole: boolean; cleared: boolean; label: string | null }>`
      SELECT o.version, o.created_at, o.changes IS NULL AS whole, o.kind IN ('cells_clear', 'rows_remove', 'columns_remove') AS cleared, m.label FROM sheet_ops o
      LEFT JOIN sheet_version_marks m ON m.sheet_id = o.sheet_id AND m.version = o.version
      WHERE o.sheet_id = ${sheetId}::uuid ORDER BY o.version`.execute(trx);
    const bases = await trx.selectFrom('sheet_proposals').select('base_version').where('sheet_id', '=', sheetId).where('state', '=', 'proposed').execute();
    const always = new Set<number>([sheet.version, ...bases.map((b) => b.base_version)]);
    // Clients editing now send base versions from the last minutes; those stay exact for the merge of stale saves.
    const recentSince = Date.now() - RECENT_KEEP_MS;
    for (const op of ops) if (op.whole || op.label !== null || new Date(op.created_at).getTime() > recentSince) always.add(op.version);
    // A clear holds no cell changes a pruned run before it could fold into, and (since it takes no
    // snapshot) a rebuild replays forwards through it: the version before it stays. So does the one
    // before a remove: an insert undoing it puts back the cells of that version (SheetsService.removedToPutBack).
    for (const op of ops) if (op.cleared && op.version > 1) always.add(op.version - 1);
    const keep = versionsToKeep(
      ops.map((o) => ({ version: o.version, createdAt: new Date(o.created_at) })),
      policy,
      always,
    );
    const pruned = ops.filter((o) => !keep.has(o.version)).map((o) => o.version);
    if (pruned.length === 0) return { sheet_id: sheetId, pruned: 0, kept: ops.length };

    // Each run of pruned versions folds into the kept version right after it (the live one at the latest).
    let run: number[] = [];
    for (const op of ops) {
      if (!keep.has(op.version)) {
        run.push(op.version);
        continue;
      }
      if (run.length > 0 && !op.whole) {
        const { rows } = await sql<{ changes: string }>`SELECT changes::text AS changes FROM sheet_ops
          WHERE sheet_id = ${sheetId}::uuid AND version >= ${run[0]}::int AND version <= ${op.version}::int ORDER BY version`.execute(trx);
        const folded = foldDeltas(rows.map((r) => JSON.parse(r.changes) as CellDelta[]));
        await sql`UPDATE sheet_ops SET changes = ${JSON.stringify(folded)}::json
          WHERE sheet_id = ${sheetId}::uuid AND version = ${op.version}::int`.execute(trx);
      }
      run = [];
    }
    await foldPrunedDeltas(trx, sheetId, new Set(pruned));
    // In slices: one statement's parameters stay far below the protocol's limit.
    for (let i = 0; i < pruned.length; i += 5000) {
      const slice = pruned.slice(i, i + 5000);
      for (const table of ['sheet_ops', 'sheet_version_shapes', 'sheet_snapshots', 'sheet_snapshot_deltas', 'sheet_version_marks'] as const) {
        await trx.deleteFrom(table).where('sheet_id', '=', sheetId).where('version', 'in', slice).execute();
      }
    }
    return { sheet_id: sheetId, pruned: pruned.length, kept: ops.length - pruned.length };
  }
}

/**
 * Delta snapshots must keep going from kept version to kept version: a run of pruned ones is
 * folded into the kept one that goes on from it, and a kept one that starts at a pruned version
 * any other way is dropped (a rebuild then replays the op log there). The pruned rows themselves
 * are deleted with the other tables' rows of pruned versions.
 */
async function foldPrunedDeltas(trx: VersionsDb, sheetId: string, pruned: Set<number>): Promise<void> {
  const { rows } = await sql<{ version: number; from_version: number }>`SELECT version, from_version FROM sheet_snapshot_deltas
    WHERE sheet_id = ${sheetId}::uuid ORDER BY version`.execute(trx);
  type Run = { from: number; to: number; versions: number[] };
  let run = null as Run | null;
  for (const d of rows) {
    const prior: Run | null = run !== null && run.to === d.from_version ? run : null;
    if (pruned.has(d.version)) {
      run = prior ? { from: prior.from, to: d.version, versions: [...prior.versions, d.version] } : { from: d.from_version, to: d.version, versions: [d.version] };
      continue;
    }
    run = null;
    const from = prior ? prior.from : d.from_version;
    if (pruned.has(from)) {
      await sql`DELETE FROM sheet_snapshot_deltas WHERE sheet_id = ${sheetId}::uuid AND version = ${d.version}::int`.execute(trx);
    } else if (prior) {
      const { rows: parts } = await sql<{ changes: string }>`SELECT changes::text AS changes FROM sheet_snapshot_deltas
        WHERE sheet_id = ${sheetId}::uuid AND version IN (${sql.join([...prior.versions, d.version].map((v) => sql`${v}::int`))}) ORDER BY version`.execute(trx);
      const cells = foldPacked(parts.map((p) => JSON.parse(p.changes) as PackedCell[]));
      await sql`UPDATE sheet_snapshot_deltas SET from_version = ${from}::int, cells = ${cells.length}::int, changes = ${JSON.stringify(cells)}::json
        WHERE sheet_id = ${sheetId}::uuid AND version = ${d.version}::int`.execute(trx);
    }
  }
}
