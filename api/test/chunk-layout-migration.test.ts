import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrations.js';
import type { Database } from '../src/db/schema.js';
import { joinChunkTexts } from '../src/sheets/sheet-store.js';
import { SheetsService } from '../src/sheets/sheets.service.js';
import { rebuildChunks } from '../src/versions/version-rebuild.js';
import { databaseMigratedTo } from './support/migrated-database.js';

/**
 * Migration 0012 (chunks of any size, issue 23) on a database holding sheets and history written
 * before it: 500-row chunks numbered by position and snapshots that name only their chunk count.
 * After it, every version still rebuilds exactly, and the new row operations work on the old chunks.
 */
describe('migration 0012_sheet_chunk_layout on existing sheets', () => {
  let db: Kysely<Database>;
  let cleanup: () => Promise<void>;
  const id = crypto.randomUUID();
  const userId = crypto.randomUUID();
  const grid = (edits: [number, number, string][] = []) => {
    const g = Array.from({ length: 1_200 }, (_, r) => [`r${r}c0`, `r${r}c1`]);
    for (const [r, c, v] of edits) g[r][c] = v;
    return g;
  };
  const v2 = grid([[700, 1, 'v2']]);
  const v3 = grid([[700, 1, 'v2'], [1_100, 0, 'v3']]);
  const chunksOf = (g: string[][]) => [0, 1, 2].map((i) => JSON.stringify(g.slice(i * 500, (i + 1) * 500)));

  before(async () => {
    ({ db, cleanup } = await databaseMigratedTo('0010_oidc_identities'));
    await sql`INSERT INTO users (id, username, password_hash, role) VALUES (${userId}::uuid, 'old', 'x', 'admin')`.execute(db);
    // A sheet as the code before 0012 stored it: version 3 live, a full snapshot at version 1, two cell versions.
    await sql`INSERT INTO sheets (id, name, version, row_count, col_count, headers, tags, extra) VALUES
      (${id}::uuid, 'Old', 3, 1200, 2, '["A","B"]', '[]', '{}')`.execute(db);
    for (const [chunk, rows] of chunksOf(v3).entries()) await sql`INSERT INTO sheet_chunks (sheet_id, chunk, rows) VALUES (${id}::uuid, ${chunk}, ${rows}::json)`.execute(db);
    await sql`INSERT INTO sheet_ops (sheet_id, version, kind, changes) VALUES (${id}::uuid, 1, 'create', NULL),
      (${id}::uuid, 2, 'cells', '[{"row":700,"col":1,"old":"r700c1","new":"v2"}]'),
      (${id}::uuid, 3, 'cells', '[{"row":1100,"col":0,"old":"r1100c0","new":"v3"}]')`.execute(db);
    await sql`INSERT INTO sheet_version_shapes VALUES (${id}::uuid, 1, 1200, 2), (${id}::uuid, 2, 1200, 2), (${id}::uuid, 3, 1200, 2)`.execute(db);
    await sql`INSERT INTO sheet_version_headers VALUES (${id}::uuid, 1, '["A","B"]')`.execute(db);
    await sql`INSERT INTO sheet_snapshots VALUES (${id}::uuid, 1, 3)`.execute(db);
    for (const [chunk, rows] of chunksOf(grid()).entries()) await sql`INSERT INTO sheet_snapshot_chunks VALUES (${id}::uuid, ${chunk}, 1, ${rows}::json)`.execute(db);
    await migrateToLatest(db);
  });
  after(() => cleanup());

  const rebuilt = async (version: number, live: number) => JSON.parse(joinChunkTexts((await rebuildChunks(db, id, version, live)).chunks));

  it('gives the old chunks their ids, sizes and order, and the old snapshot its layout', async () => {
    const chunks = await db.selectFrom('sheet_chunks').select(['chunk', 'ord', 'n', 'version']).where('sheet_id', '=', id).orderBy('chunk').execute();
    assert.deepEqual(
      chunks.map((c) => [c.chunk, Number(c.ord), c.n, c.version]),
      [
        [0, 0, 500, 3],
        [1, 1, 500, 3],
        [2, 2, 200, 3],
      ],
    );
    const { rows } = await sql<{ layout: unknown }>`SELECT layout FROM sheet_snapshots WHERE sheet_id = ${id}::uuid`.execute(db);
    assert.deepEqual(typeof rows[0].layout === 'string' ? JSON.parse(rows[0].layout) : rows[0].layout, [
      [0, 500],
      [1, 500],
      [2, 200],
    ]);
    for (const [version, expected] of [[1, grid()], [2, v2], [3, v3]] as const) assert.deepEqual(await rebuilt(version, 3), expected, `version ${version}`);
  });

  it('a row inserted and one removed on the migrated chunks: the sheet and every version read back exactly', async () => {
    const sheets = new SheetsService(db);
    await sheets.applyStructure(id, { type: 'rows_insert', index: 0, count: 1 }, userId);
    await sheets.applyStructure(id, { type: 'rows_remove', index: 1_000, count: 1 }, userId);
    const v4 = [['', ''], ...v3];
    const v5 = v4.filter((_, r) => r !== 1_000);
    assert.deepEqual((await sheets.readGrid(id)).data, v5);
    for (const [version, expected] of [[1, grid()], [2, v2], [3, v3], [4, v4], [5, v5]] as const) assert.deepEqual(await rebuilt(version, 5), expected, `version ${version}`);
  });
});
