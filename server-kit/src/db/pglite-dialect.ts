import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
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
  /** The session's prepared statements: one set, as PGlite has one session. */
  readonly #statements = new PreparedStatements();

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
    const conn = new PGliteConnection(this.pglite, this.#statements);
    this.#release.set(conn, release);
    return conn;
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.#release.get(conn)?.();
    this.#release.delete(conn);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await (conn as PGliteConnection).control(`BEGIN${isolation}`);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).control('COMMIT');
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await (conn as PGliteConnection).control('ROLLBACK');
  }

  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/** Words that begin a statement whose plan may be kept (see PreparedStatements). */
const PREPARABLE = new Set(['select', 'insert', 'update', 'delete', 'with']);
/** Words that begin a statement that changes no table, type or setting a kept plan depends on. */
const HARMLESS = new Set([...PREPARABLE, 'begin', 'start', 'commit', 'end', 'rollback', 'savepoint', 'release', 'lock', 'show', 'explain', 'values']);
const firstWord = (text: string) => /^\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? '';

/** How many prepared statements the session keeps (the least recently used one is closed beyond). */
export const PREPARED_STATEMENTS_MAX = 256;
/**
 * Statements with more parameters than this are not kept: a multi-row insert's text differs with
 * its row count and its kept plan grows with it (memory of the wasm heap), while its parse is
 * already shared by its many rows.
 */
export const PREPARED_PARAMETERS_MAX = 64;
/**
 * A text holding a list of values (`in ($1, $2 ...)`, multi-row `values (...), (...)`): its text
 * varies with the list's length, so each length would be prepared and planned anew, and kept
 * (measured on the live group commit, whose lists follow the group's size: a third dearer than
 * not preparing at all). Such a text goes unprepared; the hot paths pass arrays instead (= ANY,
 * unnest), whose text is fixed.
 */
const SIZED_TEXT = /\)\s*,\s*\(|\bin\s*\(/i;

/**
 * Named prepared statements of the PGlite session, by SQL text. PGlite's own `query` sends six
 * protocol messages per statement (parse, describe, bind, describe, execute, sync), each a call
 * into the wasm, and Postgres parses and plans the text every time: about 0.4-0.5 ms of CPU for
 * a one-row statement. A kept statement costs one call (bind, describe, execute, sync) and no
 * parsing (the plan too is kept once Postgres chooses a generic one): about a third of that.
 * Anything that may change what a kept plan reads or returns (DDL, SET, DO ...) closes them all
 * first, so a statement never meets a table changed under it ("cached plan must not change
 * result type").
 */
class PreparedStatements {
  readonly #byText = new Map<string, { name: string; types: number[] }>();
  #next = 0;
  /** Names to close with the next message (evicted, or all of them before a schema change). */
  #closing: string[] = [];

  get(text: string): { name: string; types: number[] } | undefined {
    const statement = this.#byText.get(text);
    if (statement) {
      // Most recently used last: the map's first entry is the one to evict.
      this.#byText.delete(text);
      this.#byText.set(text, statement);
    }
    return statement;
  }

  /** A fresh name for `text`, closing the least recently used statement when full. */
  name(): string {
    if (this.#byText.size >= PREPARED_STATEMENTS_MAX) {
      const [oldest] = this.#byText;
      this.#byText.delete(oldest[0]);
      this.#closing.push(oldest[1].name);
    }
    return `tessera_${this.#next++}`;
  }

  add(text: string, statement: { name: string; types: number[] }): void {
    this.#byText.set(text, statement);
  }

  /** Close every statement (with the next message). */
  forgetAll(): void {
    for (const { name } of this.#byText.values()) this.#closing.push(name);
    this.#byText.clear();
  }

  /** The Close messages owed (taken: the caller sends them). */
  takeClosing(): Uint8Array[] {
    const closing = this.#closing.map((name) => protocol.serialize.close({ type: 'S', name }));
    this.#closing = [];
    return closing;
  }
}

const concat = (parts: Uint8Array[]) => Buffer.concat(parts);

/** What follows every Bind: Describe of the unnamed portal, Execute (all rows), Sync. */
const EXECUTE_TAIL = concat([protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()]);

/**
 * Bind (unnamed portal, statement `name`, text values as UTF-8 in format 0, bytes as they are in
 * format 1, results as text) then EXECUTE_TAIL, written once into one buffer. PGlite's own bind
 * serialiser measures every text value character by character in JS, and copies each value
 * and the message four or five times (growing buffers, slices, then a concat): for an import's
 * statements of 4 MB that was more CPU than Postgres spent parsing them.
 */
function executeMessage(name: string, values: (string | Uint8Array | null)[]): Buffer {
  const lengths = values.map((v) => (v === null ? -1 : typeof v === 'string' ? Buffer.byteLength(v) : v.byteLength));
  const nameLength = Buffer.byteLength(name);
  let bind = 4 + 1 + nameLength + 1 + 2 + 2 * values.length + 2 + 2;
  for (const length of lengths) bind += 4 + Math.max(length, 0);
  const out = Buffer.allocUnsafe(1 + bind + EXECUTE_TAIL.length);
  let o = 0;
  out[o++] = 0x42; // 'B'
  o = out.writeInt32BE(bind, o);
  out[o++] = 0; // the unnamed portal
  o += out.write(name, o, 'utf8');
  out[o++] = 0;
  o = out.writeInt16BE(values.length, o);
  for (const v of values) o = out.writeInt16BE(v instanceof Uint8Array ? 1 : 0, o);
  o = out.writeInt16BE(values.length, o);
  values.forEach((v, i) => {
    o = out.writeInt32BE(lengths[i], o);
    if (typeof v === 'string') o += out.write(v, o, 'utf8');
    else if (v !== null) {
      out.set(v, o);
      o += v.byteLength;
    }
  });
  o = out.writeInt16BE(0, o); // no result format codes: every column as text
  out.set(EXECUTE_TAIL, o);
  return out;
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGlite,
    private readonly statements: PreparedStatements,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const word = firstWord(query.sql);
    const keep = PREPARABLE.has(word) && query.parameters.length <= PREPARED_PARAMETERS_MAX && !SIZED_TEXT.test(query.sql);
    const bytes = query.parameters.some((param) => param instanceof Uint8Array);
    if (!keep && !HARMLESS.has(word)) {
      this.statements.forgetAll();
      const closing = this.statements.takeClosing();
      if (closing.length > 0) await this.pglite.runExclusive(() => this.#send(concat([...closing, protocol.serialize.sync()]), query));
    }
    if (!keep && !bytes) return this.#resultOf<R>(await this.pglite.query<R>(query.sql, [...query.parameters]));
    return this.pglite.runExclusive(async () => {
      let statement = keep ? this.statements.get(query.sql) : undefined;
      if (!statement) {
        // Its parameter types first (Postgres infers them), as PGlite's query does: they choose each value's serializer.
        // Not kept: the unnamed statement, which the next Parse replaces.
        const name = keep ? this.statements.name() : '';
        const { serialize } = protocol;
        const described = await this.#send(
          concat([...this.statements.takeClosing(), serialize.parse({ name, text: query.sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
          query,
        );
        statement = { name, types: parse.parseDescribeStatementResults(described) };
        if (keep) this.statements.add(query.sql, statement);
      }
      // The values as PGlite's query serialises them (by the parameter's type, else as text), but
      // bytes (a Uint8Array, a Buffer) go as they are, in the binary format of their parameter's
      // type — UTF-8 text for text, varchar and json (not jsonb, whose binary form starts with a
      // version byte), the bytes themselves for bytea — as node-postgres sends a Buffer: a large
      // text already encoded (an import's chunks, megabytes) is neither decoded to a string nor
      // measured and encoded again character by character.
      const { types } = statement;
      const values = query.parameters.map((param, i) => {
        if (param === null || param === undefined) return null;
        if (param instanceof Uint8Array) return param;
        const serializer = this.pglite.serializers[types[i]];
        const text: unknown = serializer ? serializer(param) : param;
        return text instanceof Uint8Array ? text : String(text);
      });
      const messages = await this.#send(executeMessage(statement.name, values), query);
      return this.#resultOf<R>(parse.parseResults(messages, this.pglite.parsers)[0] as Results<R>);
    });
  }

  /** A transaction's BEGIN, COMMIT or ROLLBACK: one simple-protocol message (no parameters, nothing to plan). */
  async control(text: string): Promise<void> {
    await this.pglite.runExclusive(() => this.#send(protocol.serialize.query(text), CompiledQuery.raw(text)));
  }

  /** Sends protocol messages ending in a sync; a database error comes back as PGlite's query throws it (with the query). */
  async #send(message: Uint8Array, query: CompiledQuery) {
    try {
      return await this.pglite.execProtocolStream(message, {});
    } catch (err) {
      if (err instanceof Error && 'code' in err) {
        Object.assign(err, { query: query.sql, params: query.parameters });
        // A plan that no longer fits its tables (changed by something that slipped past the DDL check): prepare afresh next time.
        if ((err as { code?: string }).code === '0A000') this.statements.forgetAll();
      }
      throw err;
    }
  }

  #resultOf<R>(result: Results<R>): QueryResult<R> {
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
