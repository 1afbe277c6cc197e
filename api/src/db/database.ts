import { openMigratedDatabase, type DatabaseOptions } from '@tessera/server-kit';
import type { Kysely } from 'kysely';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

export type { DatabaseOptions };

/** The databases openDatabase opened on PostgreSQL: a pool of connections that commit in parallel (PGlite has one session). */
const pooled = new WeakSet<Kysely<Database>>();

/** Opens the api's database (PGlite or PostgreSQL) and runs the migrations. `db.destroy()` closes it. */
export async function openDatabase(opts: DatabaseOptions): Promise<Kysely<Database>> {
  const db = await openMigratedDatabase<Database>(opts, migrateToLatest);
  if (opts.databaseUrl) pooled.add(db);
  return db;
}

/** Whether `db` is a PostgreSQL pool (openDatabase with a URL) rather than PGlite's one session. */
export const isPooledDatabase = (db: Kysely<Database>): boolean => pooled.has(db);
