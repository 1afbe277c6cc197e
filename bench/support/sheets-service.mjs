// The built api's SheetsService in this process, for benches of its scans and writes: on PGlite in a
// temp folder, or on PostgreSQL with BENCH_PG_URL (a throwaway database made there), with one admin
// user to act as. close() ends the database and removes what was made. Build the api first.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchDatabase } from './api-instances.mjs';
import { requireFromApi, root } from './built-api.mjs';

export async function benchSheetsService(label) {
  const { sql } = await import(requireFromApi.resolve('kysely'));
  const { openDatabase } = await import(path.join(root, 'api/dist/db/database.js'));
  const { SheetsService } = await import(path.join(root, 'api/dist/sheets/sheets.service.js'));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `tessera-bench-${label}-`));
  const pg = process.env.BENCH_PG_URL ? await benchDatabase(process.env.BENCH_PG_URL) : null;
  const db = await openDatabase({ databaseUrl: pg?.url, pgliteDir: path.join(dir, 'db') });
  const userId = crypto.randomUUID();
  await sql`INSERT INTO users (id, username, password_hash, role) VALUES (${userId}::uuid, ${`bench-${label}`}, 'x', 'admin')`.execute(db);
  return {
    db,
    sheets: new SheetsService(db),
    userId,
    database: pg ? 'PostgreSQL' : 'PGlite',
    async close() {
      await db.destroy();
      await pg?.drop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
