import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import type { AiDatabase } from './schema.js';

export interface DatabaseOptions {
  /** PGlite keeps its files in `<dataDir>/ai`. */
  dataDir: string;
  /** When set, a real PostgreSQL is used instead of PGlite. */
  databaseUrl?: string | undefined;
}

/** Opens the middleware's own database and runs the migrations before returning it. */
export async function openDatabase(options: DatabaseOptions): Promise<Kysely<AiDatabase>> {
  let db: Kysely<AiDatabase>;
  if (options.databaseUrl) {
    db = new Kysely<AiDatabase>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }) }),
    });
  } else {
    const dir = path.join(options.dataDir, 'ai');
    // PGlite needs the folder's parent to exist.
    await mkdir(dir, { recursive: true });
    const pglite = new PGlite(dir);
    await pglite.waitReady;
    db = new Kysely<AiDatabase>({ dialect: new KyselyPGlite(pglite).dialect });
  }
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return db;
}
