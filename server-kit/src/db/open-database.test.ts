import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openKysely } from './open-database.js';

describe('openKysely on PGlite', () => {
  let dir: string;
  let db: Kysely<unknown>;
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'server-kit-open-'));
    db = await openKysely({ pgliteDir: path.join(dir, 'db') });
  });
  after(async () => {
    await db.destroy();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('does not fill new WAL files with zeros (PGlite runs without fsync: the zeros were a second write of every big change)', async () => {
    const { rows } = await sql<{ wal_init_zero: string }>`SHOW wal_init_zero`.execute(db);
    assert.equal(rows[0].wal_init_zero, 'off');
  });

  it('finds what it wrote when opened again', async () => {
    await sql`CREATE TABLE kept (id int PRIMARY KEY, doc json)`.execute(db);
    // Several MB: new WAL files are made.
    for (let id = 0; id < 40; id++) await sql`INSERT INTO kept VALUES (${id}, ${JSON.stringify({ a: `${id}`.repeat(500_000) })})`.execute(db);
    await db.destroy();
    db = await openKysely({ pgliteDir: path.join(dir, 'db') });
    const { rows } = await sql<{ n: number; total: number }>`SELECT count(*)::int AS n, sum(length(doc->>'a'))::int AS total FROM kept`.execute(db);
    assert.deepEqual(rows[0], { n: 40, total: 500_000 * (10 + 30 * 2) });
  });
});
