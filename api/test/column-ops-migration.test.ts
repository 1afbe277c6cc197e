import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { GridData } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrations.js';
import type { Database } from '../src/db/schema.js';
import { catchUpChunks, chunksBehind, joinChunkTexts } from '../src/sheets/sheet-store.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { restructure } from '../src/sheets/structure-op.js';
import { rebuildChunks } from '../src/versions/version-rebuild.js';
import { databaseMigratedTo } from './support/migrated-database.js';

/**
 * Migration 0013 (column ops written lazily, issue 23) on a database holding a sheet and history
 * written before it: a column inserted by rewriting every chunk, snapshot copies that do not say
 * which version their text is of. After it, every version still rebuilds exactly, and a column
 * inserted the new way (no chunk written) rebuilds from those old copies too.
 */
describe('migration 0013_sheet_column_ops on existing sheets', () => {
  let db: Kysely<Database>;
  let cleanup: () => Promise<void>;
  const id = crypto.randomUUID();
  const userId = crypto.randomUUID();
  const g1: GridData = Array.from({ length: 1_200 }, (_, r) => [`r${r}c0`, `r${r}c1`]);
  const g2 = restructure(structuredClone(g1), [], 2, { type: 'columns_insert', index: 1, count: 1 }).grid;
  const g3 = structuredClone(g2);
  g3[700][0] = 'v3';
  const chunksOf = (g: GridData) => [0, 1, 2].map((i) => JSON.stringify(g.slice(i * 500, (i + 1) * 500)));

  before(async () => {
    ({ db, cleanup } = await databaseMigratedTo('0012_sheet_chunk_layout'));
    await sql`INSERT INTO users (id, username, password_hash, role) VALUES (${userId}::uuid, 'old', 'x', 'admin')`.execute(db);
    // As the code before 0013 stored it: created (v1), a column inserted into every chunk (v2), a cell (v3).
    await sql`INSERT INTO sheets (id, name, version, row_count, col_count, headers, tags, extra) VALUES
      (${id}::uuid, 'Old', 3, 1200, 3, '["A","B","C"]', '[]', '{}')`.execute(db);
    const written = [2, 3, 2];
    for (const [chunk, rows] of chunksOf(g3).entries()) {
      await sql`INSERT INTO sheet_chunks (sheet_id, chunk, ord, n, rows, version)
        VALUES (${id}::uuid, ${chunk}, ${chunk}, ${chunk === 2 ? 200 : 500}, ${rows}::json, ${written[chunk]})`.execute(db);
    }
    await sql`INSERT INTO sheet_ops (sheet_id, version, kind, changes, op) VALUES (${id}::uuid, 1, 'create', NULL, NULL),
      (${id}::uuid, 2, 'columns_insert', NULL, '{"type":"columns_insert","index":1,"count":1}'),
      (${id}::uuid, 3, 'cells', '[{"row":700,"col":0,"old":"r700c0","new":"v3"}]', NULL)`.execute(db);
    await sql`INSERT INTO sheet_version_shapes VALUES (${id}::uuid, 1, 1200, 2), (${id}::uuid, 2, 1200, 3), (${id}::uuid, 3, 1200, 3)`.execute(db);
    await sql`INSERT INTO sheet_version_headers VALUES (${id}::uuid, 1, '["A","B"]'), (${id}::uuid, 2, '["A","B","C"]')`.execute(db);
    const layout = '[[0,500],[1,500],[2,200]]';
    await sql`INSERT INTO sheet_snapshots (sheet_id, version, chunk_count, layout) VALUES (${id}::uuid, 1, 3, ${layout}::json), (${id}::uuid, 2, 3, ${layout}::json)`.execute(db);
    for (const [version, g] of [[1, g1], [2, g2]] as const) {
      for (const [chunk, rows] of chunksOf(g).entries()) {
        await sql`INSERT INTO sheet_snapshot_chunks (sheet_id, chunk, version, rows) VALUES (${id}::uuid, ${chunk}, ${version}, ${rows}::json)`.execute(db);
      }
    }
    await migrateToLatest(db);
  });
  after(() => cleanup());

  const rebuilt = async (version: number, live: number) => JSON.parse(joinChunkTexts((await rebuildChunks(db, id, version, live)).chunks)) as GridData;
  const stored = async () =>
    (await sql<{ chunk: number; version: number; rows: string }>`SELECT chunk, version, rows::text AS rows FROM sheet_chunks WHERE sheet_id = ${id}::uuid ORDER BY chunk`.execute(db)).rows;

  it("keeps the old snapshot copies as they were (as of their own version) and indexes the op log's column ops", async () => {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sheet_snapshot_chunks WHERE sheet_id = ${id}::uuid AND written IS NULL`.execute(db);
    assert.equal(rows[0].n, 6);
    const { rows: index } = await sql<{ def: string }>`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'sheet_ops_column_ops_idx'`.execute(db);
    assert.match(index[0]?.def ?? '', /WHERE .*columns_insert.*columns_remove/);
    for (const [version, expected] of [[1, g1], [2, g2], [3, g3]] as const) assert.deepEqual(await rebuilt(version, 3), expected, `version ${version}`);
  });

  it('a column inserted after the migration writes no chunk, and every version rebuilds exactly, before and after the chunks are caught up', async () => {
    const sheets = new SheetsService(db);
    const before = await stored();
    const { version: v4 } = await sheets.applyStructure(id, { type: 'columns_insert', index: 0, count: 1 }, userId);
    assert.equal(v4, 4);
    assert.deepEqual(await stored(), before, 'no chunk written');
    const g4 = restructure(structuredClone(g3), [], 3, { type: 'columns_insert', index: 0, count: 1 }).grid;
    const { version: v5 } = await sheets.patchCells(id, { base_version: 4, changes: [{ row: 0, col: 1, value: 'v5' }] }, userId);
    const g5 = structuredClone(g4);
    g5[0][1] = 'v5';
    const all = [g1, g2, g3, g4, g5];
    assert.deepEqual((await sheets.readGrid(id)).data, g5);
    for (const [i, expected] of all.entries()) assert.deepEqual(await rebuilt(i + 1, v5), expected, `version ${i + 1}`);
    await catchUpChunks(db, id, (await chunksBehind(db, id)).map((c) => c.chunk));
    assert.deepEqual(JSON.parse(joinChunkTexts((await stored()).map((c) => c.rows))), g5, 'the chunks caught up');
    for (const [i, expected] of all.entries()) assert.deepEqual(await rebuilt(i + 1, v5), expected, `version ${i + 1}, caught up`);
  });
});
