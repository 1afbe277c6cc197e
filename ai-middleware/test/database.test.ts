import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { type TestStorage, createTestStorage, testConfig } from './helpers/test-app.js';

const backend = process.env.TEST_PG_URL ? 'PostgreSQL' : 'PGlite';

describe(`the middleware's own database (${backend})`, () => {
  let storage: TestStorage;
  before(async () => {
    storage = await createTestStorage();
  });
  after(async () => {
    await storage?.cleanup();
  });

  test('migrations create ai_sessions, and the table stores and returns a session', async () => {
    const app = await buildApp(testConfig('http://127.0.0.1:9', storage));
    try {
      await app.db
        .insertInto('ai_sessions')
        .values({ session_id: 's-1', user_id: 'user-1', session_name: 'Budget', tags: JSON.stringify(['q3', 'finance']), context_summary: null })
        .execute();
      const row = await app.db.selectFrom('ai_sessions').selectAll().where('session_id', '=', 's-1').executeTakeFirstOrThrow();
      assert.equal(row.user_id, 'user-1');
      assert.equal(row.session_name, 'Budget');
      assert.deepEqual(row.tags, ['q3', 'finance']);
      assert.ok(row.created_at instanceof Date);
      assert.ok(row.last_active instanceof Date);
      // Primary key: a second session with the same id is refused.
      await assert.rejects(
        app.db.insertInto('ai_sessions').values({ session_id: 's-1', user_id: 'u', session_name: 'x', context_summary: null }).execute(),
      );
    } finally {
      await app.close();
    }
  });

  test('a restart keeps the data and does not re-run migrations', async () => {
    const app = await buildApp(testConfig('http://127.0.0.1:9', storage));
    try {
      const rows = await app.db.selectFrom('ai_sessions').select('session_id').execute();
      assert.deepEqual(rows, [{ session_id: 's-1' }]);
      const applied = await sql<{ name: string }>`select name from ai_migration order by name`.execute(app.db);
      assert.deepEqual(applied.rows.map((r) => r.name), ['0001_ai_sessions', '0002_ai_messages', '0003_ai_git_usage']);
    } finally {
      await app.close();
    }
  });
});
