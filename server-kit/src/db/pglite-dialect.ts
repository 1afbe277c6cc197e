import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * A Kysely driver for PGlite's one session. Written here rather than taken from kysely-pglite
 * 0.6 because that one hands the session to every caller at once: two concurrent Kysely
 * transactions interleave their BEGIN/COMMIT, a query issued during someone's transaction
 * joins (and rolls back with) it, affected-row counts never reach Kysely, and its
 * constructor leaves an unawaited mkdir behind. Here the session goes to one holder at a
 * time, and a transaction holds it until commit or rollback.
 */
class PGliteDriver implements Driver {
  #queue: Promise<void> = Promise.resolve();
  #release = new WeakMap<DatabaseConnection, () => void>();

  constructor(private readonly pglite: PGlite) {}

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((r) => (release = r));
    const previous = this.#queue;
    this.#queue = previous.then(() => turn);
    await previous;
    const conn = new PGliteConnection(this.pglite);
    this.#release.set(conn, release);
    return conn;
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.#release.get(conn)?.();
    this.#release.delete(conn);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await conn.executeQuery(CompiledQuery.raw(`BEGIN${isolation}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(query.sql, [...query.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}

export function createPGliteDialect(pglite: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pglite),
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
