import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { createPGliteDialect } from './pglite-dialect.js';

interface TestDb {
  counter: { id: number; n: number };
}

describe('the serialised PGlite dialect', () => {
  let db: Kysely<TestDb>;
  before(async () => {
    // In memory: this tests the driver, not persistence.
    db = new Kysely<TestDb>({ dialect: createPGliteDialect(await PGlite.create()) });
    await sql`CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)`.execute(db);
    await db.insertInto('counter').values({ id: 1, n: 0 }).execute();
  });
  after(() => db.destroy());

  it('runs concurrent read-modify-write transactions one after another, losing no update', async () => {
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction().execute(async (trx) => {
          const { n } = await trx.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
          await new Promise((r) => setImmediate(r));
          await trx.updateTable('counter').set({ n: n + 1 }).where('id', '=', 1).execute();
        }),
      ),
    );
    const { n } = await db.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
    assert.equal(n, 20);
  });

  it('keeps a query outside a transaction out of a concurrent transaction that rolls back', async () => {
    const failing = db.transaction().execute(async (trx) => {
      await trx.updateTable('counter').set({ n: -1 }).where('id', '=', 1).execute();
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('roll back');
    });
    const outside = db.insertInto('counter').values({ id: 2, n: 7 }).execute();
    await assert.rejects(failing, /roll back/);
    await outside;
    const rows = await db.selectFrom('counter').selectAll().orderBy('id').execute();
    assert.deepEqual(rows, [
      { id: 1, n: 20 },
      { id: 2, n: 7 },
    ]);
  });

  it('reports affected rows to Kysely', async () => {
    const result = await db.updateTable('counter').set({ n: 0 }).execute();
    assert.equal(result[0].numUpdatedRows, 2n);
  });
});
