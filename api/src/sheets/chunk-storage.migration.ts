import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Chunk text stored uncompressed (TOAST storage EXTERNAL instead of EXTENDED), in the sheet and
 * in snapshots (issue 23, import). PostgreSQL compresses every value over 2 KB with pglz; a chunk
 * of 500 rows is about 50 KB, and on PGlite (WebAssembly) compressing it cost more than everything
 * else of writing it: a 100,000 × 10 import spent about 1 s storing its 10 MB, 0.35 s without
 * compression; every cell edit rewrites (and recompressed) its chunk. The price is disk: about
 * twice the bytes for chunks (api/README.md). Applies to what is written from now on.
 */
export const chunkStorageMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`ALTER TABLE sheet_chunks ALTER COLUMN rows SET STORAGE EXTERNAL`.execute(db);
    await sql`ALTER TABLE sheet_snapshot_chunks ALTER COLUMN rows SET STORAGE EXTERNAL`.execute(db);
  },
};
