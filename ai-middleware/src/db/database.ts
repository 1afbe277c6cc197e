import path from 'node:path';
import { openMigratedDatabase } from '@tessera/server-kit';
import type { Kysely } from 'kysely';
import { migrateToLatest } from './migrations.js';
import type { AiDatabase } from './schema.js';

export interface DatabaseOptions {
  /** PGlite keeps its files in `<dataDir>/ai`. */
  dataDir: string;
  /** When set, a real PostgreSQL is used instead of PGlite. */
  databaseUrl?: string | undefined;
}

/** Opens the middleware's own database and runs the migrations before returning it. */
export function openDatabase(options: DatabaseOptions): Promise<Kysely<AiDatabase>> {
  return openMigratedDatabase<AiDatabase>(
    { pgliteDir: path.join(options.dataDir, 'ai'), ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) },
    async (db) => {
      await migrateToLatest(db as Kysely<unknown>);
    },
  );
}
