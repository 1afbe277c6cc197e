import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import { createPGliteDialect } from './pglite-dialect.js';
import type { Database } from './schema.js';

export interface DatabaseOptions {
  /** When set, PostgreSQL; otherwise the embedded PGlite in `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
}

/** Opens the database (PGlite or PostgreSQL) and runs the migrations. `db.destroy()` closes it. */
export async function openDatabase(opts: DatabaseOptions): Promise<Kysely<Database>> {
  let db: Kysely<Database>;
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    // PGlite needs the parent folder to exist (FACTS.md).
    await fs.mkdir(path.dirname(opts.pgliteDir), { recursive: true });
    const pglite = await PGlite.create({ dataDir: opts.pgliteDir });
    db = new Kysely<Database>({ dialect: createPGliteDialect(pglite) });
  }
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
