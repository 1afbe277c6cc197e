import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openKysely } from '@tessera/server-kit';
import { type Kysely, Migrator } from 'kysely';
import { migrations } from '../../src/db/migrations.js';
import type { Database } from '../../src/db/schema.js';
import { createPgDatabase } from './test-app.js';

/**
 * A fresh database (PostgreSQL under TEST_PG_URL, else PGlite in a temp folder) migrated up to
 * `name` and no further: the migration tests write data as the code before the next one did.
 */
export async function databaseMigratedTo(name: string): Promise<{ db: Kysely<Database>; cleanup: () => Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-api-migration-'));
  const pgDb = process.env.TEST_PG_URL ? await createPgDatabase(process.env.TEST_PG_URL) : undefined;
  const db = await openKysely<Database>({ databaseUrl: pgDb?.url, pgliteDir: path.join(dataDir, 'api') });
  const cleanup = async () => {
    await db.destroy();
    await pgDb?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(name);
  assert.equal(error, undefined);
  return { db, cleanup };
}
