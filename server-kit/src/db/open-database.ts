import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createPGliteDialect } from './pglite-dialect.js';

export interface DatabaseOptions {
  /** When set, PostgreSQL; otherwise the embedded PGlite in `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
}

/**
 * Opens a service's database: PostgreSQL when a URL is given, else PGlite in
 * its folder. The caller runs its own migrations; `db.destroy()` closes it.
 */
export async function openKysely<DB>(opts: DatabaseOptions): Promise<Kysely<DB>> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  // PGlite needs the parent folder to exist (FACTS.md).
  await fs.mkdir(path.dirname(opts.pgliteDir), { recursive: true });
  const pglite = await PGlite.create({ dataDir: opts.pgliteDir });
  // PGlite's one session, for the life of the process: new WAL files are not filled with zeros
  // first (wal_init_zero: only their last byte is written). PGlite runs without fsync, so the
  // zeros bought no safety, and a big write paid for its WAL twice: a 100,000-row import (10 MB
  // of chunks and 10 MB of their snapshot) wrote 44 MB to pg_wal instead of 22 (issue 23).
  await pglite.exec('SET wal_init_zero = off');
  return new Kysely<DB>({ dialect: createPGliteDialect(pglite) });
}

/** Opens the database and runs `migrate` on it; closes it again when migrating fails. */
export async function openMigratedDatabase<DB>(
  opts: DatabaseOptions,
  migrate: (db: Kysely<DB>) => Promise<void>,
): Promise<Kysely<DB>> {
  const db = await openKysely<DB>(opts);
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
