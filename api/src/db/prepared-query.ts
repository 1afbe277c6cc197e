import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Something Kysely compiles: a query builder, or a `sql` template (compiled against a database). */
interface Compiles<R> {
  compile(db: Kysely<any>): CompiledQuery<R>;
}

/** Runs a prepared statement on a database or transaction with these values in its holes. */
export type PreparedQuery<R, N extends string> = (on: Kysely<any>, values: Record<N, unknown>) => Promise<QueryResult<R>>;

/**
 * A statement built and compiled once, run many times with other values. Kysely builds a query's
 * tree and compiles it to text afresh every time it runs: for the few statements of every live
 * group commit that was a steady part of the group's CPU, for the same text each time. `build`
 * gets `hole(name)`, a stand-in for a value, wherever the query takes one; `run` puts the values in
 * the holes' places (the text is the same, so the database's prepared statement is too).
 */
export function preparedQuery<R, N extends string>(
  db: Kysely<any>,
  build: (hole: (name: N) => any) => Compiles<R>,
): PreparedQuery<R, N> {
  const holes = new Map<string, N>();
  const compiled = build((name) => {
    const stand = `\u0000hole:${name}`;
    holes.set(stand, name);
    return stand;
  }).compile(db);
  const slots = compiled.parameters.map((p) => (typeof p === 'string' ? holes.get(p) : undefined));
  return (on, values) => on.executeQuery<R>({ ...compiled, parameters: slots.map((name, i) => (name === undefined ? compiled.parameters[i] : values[name])) });
}
