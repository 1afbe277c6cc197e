import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { createPGliteDialect, PREPARED_STATEMENTS_MAX } from './pglite-dialect.js';

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

  it('sees a table as it is after a schema change, though its statements were prepared before', async () => {
    await sql`CREATE TABLE shape (id int PRIMARY KEY)`.execute(db);
    await sql`INSERT INTO shape VALUES (${1})`.execute(db);
    const read = () => sql<Record<string, unknown>>`SELECT * FROM shape WHERE id = ${1}`.execute(db);
    assert.deepEqual((await read()).rows, [{ id: 1 }]);
    assert.deepEqual((await read()).rows, [{ id: 1 }]);
    await sql`ALTER TABLE shape ADD COLUMN label text NOT NULL DEFAULT 'x'`.execute(db);
    assert.deepEqual((await read()).rows, [{ id: 1, label: 'x' }]);
  });

  it('passes values by their column type and reads them back typed, the same as a statement seen for the first time', async () => {
    await sql`CREATE TABLE typed (id int PRIMARY KEY, doc jsonb, flag boolean, at timestamptz, big bigint)`.execute(db);
    const at = new Date('2026-01-02T03:04:05.678Z');
    const insert = (id: number) => sql`INSERT INTO typed VALUES (${id}, ${JSON.stringify({ a: [1, 'b'] })}, ${true}, ${at}, ${'9007199254740993'})`.execute(db);
    for (let id = 1; id <= 8; id++) await insert(id);
    const rows = await sql<{ id: number }>`SELECT * FROM typed WHERE id = ANY(${[1, 8]}::int[]) ORDER BY id`.execute(db);
    assert.deepEqual(rows.rows, [1, 8].map((id) => ({ id, doc: { a: [1, 'b'] }, flag: true, at, big: 9007199254740993n })));
  });

  it('reports a failed statement with its code, and the transaction it was in rolls back', async () => {
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto('counter').values({ id: 3, n: 1 }).execute();
      await trx.insertInto('counter').values({ id: 3, n: 2 }).execute();
    });
    await assert.rejects(failing, (err: { code?: string }) => err.code === '23505');
    assert.equal(await db.selectFrom('counter').select('id').where('id', '=', 3).executeTakeFirst(), undefined);
  });

  it('keeps answering past the number of statements it keeps prepared', async () => {
    for (let k = 0; k < PREPARED_STATEMENTS_MAX + 20; k++) {
      const { rows } = await sql<{ k: number }>`SELECT ${k}::int AS k, ${sql.raw(String(k))} AS literal`.execute(db);
      assert.equal(rows[0].k, k);
    }
    const { rows } = await sql<{ k: number }>`SELECT ${5}::int AS k, ${sql.raw('0')} AS literal`.execute(db);
    assert.equal(rows[0].k, 5);
  });

  it('answers statements whose text grows with a list (in-lists, multi-row inserts), which it does not keep prepared', async () => {
    await sql`CREATE TABLE listed (id int PRIMARY KEY)`.execute(db);
    for (let n = 1; n <= 6; n++) {
      const ids = Array.from({ length: n }, (_, k) => n * 10 + k);
      await db.withTables<{ listed: { id: number } }>().insertInto('listed').values(ids.map((id) => ({ id }))).execute();
      const rows = await db.withTables<{ listed: { id: number } }>().selectFrom('listed').select('id').where('id', 'in', ids).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => r.id), ids);
    }
  });
  it('stores bytes given for a text, json or bytea parameter as that text or those bytes, in statements kept prepared or not', async () => {
    await sql`CREATE TABLE bytes (id int PRIMARY KEY, label text, doc json, raw bytea)`.execute(db);
    const table = db.withTables<{ bytes: { id: number; label: Uint8Array | string; doc: Uint8Array | string; raw: Uint8Array } }>();
    const doc = '[["é", "a,b"], ["\\u00e9"]]';
    const utf8 = (text: string) => Buffer.from(text, 'utf8');
    const raw = new Uint8Array([0, 255, 10, 34]);
    // One row: a statement kept prepared; several rows: a multi-row insert, never kept.
    await table.insertInto('bytes').values({ id: 1, label: utf8('naïve'), doc: utf8(doc), raw }).execute();
    await table.insertInto('bytes').values([2, 3].map((id) => ({ id, label: utf8(`naïve ${id}`), doc: new Uint8Array(utf8(doc)), raw }))).execute();
    // Beside text values, nulls and empty ones.
    await sql`INSERT INTO bytes VALUES (${4}, ${null}, ${'["ü"]'}, ${new Uint8Array(0)})`.execute(db);
    const rows = await sql<{ id: number; label: string; doc: string; raw: Uint8Array }>`SELECT id, label, doc::text AS doc, raw FROM bytes ORDER BY id`.execute(db);
    assert.deepEqual(
      rows.rows.map((r) => [r.id, r.label, r.doc, [...r.raw]]),
      [
        [1, 'naïve', doc, [...raw]],
        [2, 'naïve 2', doc, [...raw]],
        [3, 'naïve 3', doc, [...raw]],
        [4, null, '["ü"]', []],
      ],
    );
  });
});
