import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The cells of a sheet the formula engine would be given (contracts heldCells: each row up to its
 * last non-null cell), kept by the database as the size of migration 0011 is, whatever path writes
 * the cells: a large sheet whose formulas the engine could not take anyway (past HYBRID_MAX_CELLS)
 * opens a window at a time instead of whole (contracts opensWindowed). The client cannot count it
 * without loading the sheet, and rows × columns only bounds it from above (rows shorter than the
 * widest, trailing cells cleared to null), so it would open windowed sheets the engine computes.
 *
 * Each chunk counts its rows when stored (`held`, beside `bytes`; a row whose last cell is not null
 * holds its length, the common case, read without walking its cells; about 0.65 ms for 500 × 10 on
 * PostgreSQL, more on PGlite); a writer may give the count instead (an import counts its rows as it
 * parses them: a 1,000,000-row import would spend seconds on it; a cell write counts the chunk it
 * rewrites). An upsert that ends as an update carries the count its insert had (given, or counted
 * by the insert's trigger from the same rows), marked as given; any other update is counted again.
 * The sheet's total moves by the difference. The count is of the stored text: a chunk with column ops still pending
 * (sheet-store.ts pendingColumnOps) counts as it was before them until the column compactor
 * rewrites it, so the api gives the total only when no chunk is behind (SheetsService.heldCells).
 */
export const heldCellsMigration: Migration = {
  async up(db: Kysely<any>) {
    // Text that is not rows (never written by the api) holds nothing rather than failing the write.
    await sql`CREATE FUNCTION sheet_rows_held(rows json) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
      SELECT coalesce(sum(CASE WHEN jsonb_typeof(r) <> 'array' THEN 0
        WHEN jsonb_typeof(r -> -1) <> 'null' THEN jsonb_array_length(r)
        ELSE (SELECT coalesce(max(i), 0) FROM jsonb_array_elements(r) WITH ORDINALITY AS e(c, i) WHERE jsonb_typeof(c) <> 'null') END), 0)::int
      FROM jsonb_array_elements(CASE WHEN json_typeof(rows) = 'array' THEN rows::jsonb ELSE '[]'::jsonb END) AS r $$`.execute(db);
    await sql`ALTER TABLE sheet_chunks ADD COLUMN held integer NOT NULL DEFAULT -1`.execute(db);
    await sql`ALTER TABLE sheets ADD COLUMN held_cells bigint NOT NULL DEFAULT 0`.execute(db);
    await sql`UPDATE sheet_chunks SET held = sheet_rows_held(rows)`.execute(db);
    await sql`UPDATE sheets s SET held_cells = coalesce((SELECT sum(c.held) FROM sheet_chunks c WHERE c.sheet_id = s.id), 0)`.execute(db);
    // Migration 0011's functions, measuring and summing `held` beside `bytes` (one update of the sheet per chunk, as before).
    await sql`CREATE OR REPLACE FUNCTION sheet_chunk_measure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.bytes := octet_length(NEW.rows::text);
        -- -1 (the default): not given, counted. -2 - n: given as n by an upsert's update (sheet-store upsertChunks).
        -- An update that leaves it as it was did not give it (catchUpChunks): counted.
        IF NEW.held <= -2 THEN
          NEW.held := -2 - NEW.held;
        ELSIF NEW.held = -1 OR (TG_OP = 'UPDATE' AND NEW.held = OLD.held) THEN
          NEW.held := sheet_rows_held(NEW.rows);
        END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION sheet_chunk_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE sheets SET byte_size = byte_size + NEW.bytes, held_cells = held_cells + NEW.held WHERE id = NEW.sheet_id;
        ELSIF TG_OP = 'UPDATE' THEN
          IF NEW.bytes <> OLD.bytes OR NEW.held <> OLD.held THEN
            UPDATE sheets SET byte_size = byte_size + NEW.bytes - OLD.bytes, held_cells = held_cells + NEW.held - OLD.held WHERE id = NEW.sheet_id;
          END IF;
        ELSE
          UPDATE sheets SET byte_size = byte_size - OLD.bytes, held_cells = held_cells - OLD.held WHERE id = OLD.sheet_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
  },
};
