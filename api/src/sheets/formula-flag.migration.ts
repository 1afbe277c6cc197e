import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A sheet's "may have formulas" fact (issue 23: a client opens a sheet of a million rows a window
 * at a time only when no cell needs the formula engine, which reads the whole grid). Kept by the
 * database, as the size of migration 0011 is, whatever path writes the cells (live cell ops,
 * saves, imports, AI and api writes, restores, row ops, duplicates, the column compactor): any
 * chunk stored with a formula cell sets it. A formula cell is a string starting with '='
 * (contracts isFormula); in a chunk's JSON text it is a string token opening with `"=` — JSON
 * never escapes '=', and the only other place `"=` appears is after an escaped quote inside a
 * string, which sets it needlessly, never wrongly. Cleared only by the code that writes a whole
 * grid it has checked (SheetsService.update), since a chunk alone says nothing about the others.
 * Existing sheets: set when any stored chunk holds `"=` (a chunk's stored text may still carry a
 * column removed since: conservative too).
 */
export const formulaFlagMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`ALTER TABLE sheets ADD COLUMN may_have_formulas boolean NOT NULL DEFAULT false`.execute(db);
    await sql`UPDATE sheets s SET may_have_formulas = true
      WHERE EXISTS (SELECT 1 FROM sheet_chunks c WHERE c.sheet_id = s.id AND strpos(c.rows::text, '"=') > 0)`.execute(db);
    // Only when the sheet's fact is still false: a sheet with formulas pays no update per chunk written.
    await sql`CREATE FUNCTION sheet_chunk_formulas() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE sheets SET may_have_formulas = true WHERE id = NEW.sheet_id AND NOT may_have_formulas;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER sheet_chunk_formulas AFTER INSERT OR UPDATE OF rows ON sheet_chunks FOR EACH ROW
      WHEN (strpos(NEW.rows::text, '"=') > 0) EXECUTE FUNCTION sheet_chunk_formulas()`.execute(db);
  },
};
