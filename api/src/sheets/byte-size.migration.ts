import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A sheet's size in bytes (spec 01 §2: the sheet list item's human-readable size): the JSON text
 * of its cells, kept up to date by the database itself whatever path writes the cells (saves,
 * live operations, imports, restores, structure edits, duplicates). Each chunk remembers its own
 * size (set before it is stored, while its text is at hand); the sheet's total moves by the
 * difference after a chunk is inserted, rewritten or deleted — no chunk is read back for it, and a
 * list of 10,000 sheets reads one column.
 */
export const byteSizeMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`ALTER TABLE sheet_chunks ADD COLUMN bytes integer NOT NULL DEFAULT 0`.execute(db);
    await sql`ALTER TABLE sheets ADD COLUMN byte_size bigint NOT NULL DEFAULT 0`.execute(db);
    await sql`UPDATE sheet_chunks SET bytes = octet_length(rows::text)`.execute(db);
    await sql`UPDATE sheets s SET byte_size = coalesce((SELECT sum(c.bytes) FROM sheet_chunks c WHERE c.sheet_id = s.id), 0)`.execute(db);
    await sql`CREATE FUNCTION sheet_chunk_measure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.bytes := octet_length(NEW.rows::text);
        RETURN NEW;
      END $$`.execute(db);
    // AFTER, not BEFORE: an upsert fires BEFORE INSERT even when it ends as an update.
    await sql`CREATE FUNCTION sheet_chunk_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE sheets SET byte_size = byte_size + NEW.bytes WHERE id = NEW.sheet_id;
        ELSIF TG_OP = 'UPDATE' THEN
          IF NEW.bytes <> OLD.bytes THEN
            UPDATE sheets SET byte_size = byte_size + NEW.bytes - OLD.bytes WHERE id = NEW.sheet_id;
          END IF;
        ELSE
          UPDATE sheets SET byte_size = byte_size - OLD.bytes WHERE id = OLD.sheet_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER sheet_chunk_measure BEFORE INSERT OR UPDATE OF rows ON sheet_chunks FOR EACH ROW EXECUTE FUNCTION sheet_chunk_measure()`.execute(db);
    await sql`CREATE TRIGGER sheet_chunk_count AFTER INSERT OR UPDATE OR DELETE ON sheet_chunks FOR EACH ROW EXECUTE FUNCTION sheet_chunk_count()`.execute(db);
  },
};
