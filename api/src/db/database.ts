import { openMigratedDatabase, type DatabaseOptions } from '@tessera/server-kit';
import type { Kysely } from 'kysely';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

export type { DatabaseOptions };

/** Opens the api's database (PGlite or PostgreSQL) and runs the migrations. `db.destroy()` closes it. */
export function openDatabase(opts: DatabaseOptions): Promise<Kysely<Database>> {
  return openMigratedDatabase<Database>(opts, migrateToLatest);
}
