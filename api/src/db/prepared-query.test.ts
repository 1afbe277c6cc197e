import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { preparedQuery } from './prepared-query.js';

const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Stands for a database: keeps what it was asked to run. */
function recorder() {
  const ran: CompiledQuery[] = [];
  const on = { executeQuery: async (q: CompiledQuery) => (ran.push(q), { rows: [] }) } as unknown as Kysely<any>;
  return { on, ran };
}

describe('preparedQuery', () => {
  it('runs the text compiled once with each run’s values in their holes, the fixed values kept', async () => {
    const find = preparedQuery(db, (h) => db.selectFrom('t').selectAll().where('a', '=', h('x')).where('b', '=', 5).where(sql<boolean>`c = ANY(${h('ys')}::text[])`).where('d', '=', h('x')));
    const { on, ran } = recorder();
    await find(on, { x: 'first', ys: ['p', 'q'] });
    await find(on, { x: 'second', ys: [] });
    assert.equal(ran[0].sql, 'select * from "t" where "a" = $1 and "b" = $2 and c = ANY($3::text[]) and "d" = $4');
    assert.equal(ran[1].sql, ran[0].sql);
    assert.deepEqual(ran[0].parameters, ['first', 5, ['p', 'q'], 'first']);
    assert.deepEqual(ran[1].parameters, ['second', 5, [], 'second']);
  });
});
