import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Chunks of any size in row order (issue 23: one row inserted at the top of a 100,000-row sheet
 * rewrote all 200 chunks below it, and its snapshot copied them all). A chunk's number becomes its
 * stable id; `ord` sorts the chunks, `n` counts their rows, `version` is the version that last
 * wrote one (a snapshot copies only chunks written since the previous snapshot); each snapshot
 * keeps its layout, [[chunk id, rows], ...] in row order. Existing chunks keep their ids (their
 * index), so older snapshots' chunk rows stay theirs.
 */
export const chunkLayoutMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`ALTER TABLE sheet_chunks ADD COLUMN ord float8, ADD COLUMN n integer, ADD COLUMN version integer`.execute(db);
    // Written by the sheet's current version at the latest: the next snapshot copies them once more, which is always right.
    await sql`UPDATE sheet_chunks c SET ord = c.chunk, n = json_array_length(c.rows), version = s.version FROM sheets s WHERE s.id = c.sheet_id`.execute(db);
    await sql`ALTER TABLE sheet_chunks ALTER COLUMN ord SET NOT NULL, ALTER COLUMN n SET NOT NULL, ALTER COLUMN version SET NOT NULL`.execute(db);
    await sql`ALTER TABLE sheet_snapshots ADD COLUMN layout json`.execute(db);
    await sql`UPDATE sheet_snapshots s SET layout = coalesce((SELECT json_agg(json_build_array(g.chunk, json_array_length(sc.rows)) ORDER BY g.chunk)
      FROM generate_series(0, s.chunk_count - 1) AS g(chunk)
      CROSS JOIN LATERAL (SELECT c.rows FROM sheet_snapshot_chunks c WHERE c.sheet_id = s.sheet_id AND c.chunk = g.chunk AND c.version <= s.version
        ORDER BY c.version DESC LIMIT 1) sc), '[]'::json)`.execute(db);
    await sql`ALTER TABLE sheet_snapshots ALTER COLUMN layout SET NOT NULL`.execute(db);
  },
};
