import type { CellValue, GridData } from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { type CellDelta, CHUNK_ROWS, chunkCount, chunkOf } from './cell-grid.js';
import { recordVersion } from '../versions/version-recorder.js';
import type { VersionTables } from '../versions/versions.tables.js';
import { type StoredStructureOp, withOpIds } from './sheet-ops.tables.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Chunks per INSERT: keeps one statement's parameters and size moderate. */
const INSERT_BATCH = 40;
/** Op-log rows per INSERT (7 parameters each, far below PostgreSQL's 65,535). */
const OP_INSERT_BATCH = 1000;

/** The stored text of every chunk, in order (chunk i holds rows [i * CHUNK_ROWS, (i + 1) * CHUNK_ROWS)). */
export async function readChunkTexts(db: Db, sheetId: string): Promise<string[]> {
  const chunks = await db
    .selectFrom('sheet_chunks')
    .select(sql<string>`rows::text`.as('rows'))
    .where('sheet_id', '=', sheetId)
    .orderBy('chunk')
    .execute();
  return chunks.map((c) => c.rows);
}

/**
 * The grid as JSON text, assembled from the chunks' stored text without parsing it: reading
 * a 100,000-row sheet costs a concatenation, not a parse and a serialisation.
 */
export function joinChunkTexts(chunks: string[]): string {
  const parts: string[] = [];
  for (const rows of chunks) {
    const inner = rows.trim().slice(1, -1);
    if (inner.trim() !== '') parts.push(inner);
  }
  return `[${parts.join(',')}]`;
}

export async function readGridText(db: Db, sheetId: string): Promise<string> {
  return joinChunkTexts(await readChunkTexts(db, sheetId));
}

export async function readGrid(db: Db, sheetId: string): Promise<GridData> {
  return JSON.parse(await readGridText(db, sheetId)) as GridData;
}

/** Writes (inserts or replaces) the given chunks of `grid`. */
export async function writeChunks(db: Db, sheetId: string, grid: GridData, chunks: Iterable<number>): Promise<void> {
  const rows = [...chunks].map((chunk) => ({
    sheet_id: sheetId,
    chunk,
    rows: JSON.stringify(grid.slice(chunk * CHUNK_ROWS, (chunk + 1) * CHUNK_ROWS)),
  }));
  await upsertChunks(db, rows);
}

async function upsertChunks(db: Db, rows: { sheet_id: string; chunk: number; rows: string }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await db
      .insertInto('sheet_chunks')
      .values(rows.slice(i, i + INSERT_BATCH))
      .onConflict((oc) => oc.columns(['sheet_id', 'chunk']).doUpdateSet({ rows: (eb) => eb.ref('excluded.rows') }))
      .execute();
  }
}

/** The rows of the chunks from `firstChunk` on (row `firstChunk * CHUNK_ROWS` first), parsed. */
export async function readRowsFrom(db: Db, sheetId: string, firstChunk: number): Promise<GridData> {
  const chunks = await db
    .selectFrom('sheet_chunks')
    .select(sql<string>`rows::text`.as('rows'))
    .where('sheet_id', '=', sheetId)
    .where('chunk', '>=', firstChunk)
    .orderBy('chunk')
    .execute();
  return JSON.parse(joinChunkTexts(chunks.map((c) => c.rows))) as GridData;
}

/**
 * Replaces every row from chunk `firstChunk` on by `rows` (the chunks before it stay as they
 * are): rows inserted or removed move every later row, so every later chunk is rewritten.
 */
export async function writeRowsFrom(db: Db, sheetId: string, firstChunk: number, rows: GridData): Promise<void> {
  const count = chunkCount(rows.length);
  const chunkRows = Array.from({ length: count }, (_, i) => ({
    sheet_id: sheetId,
    chunk: firstChunk + i,
    rows: JSON.stringify(rows.slice(i * CHUNK_ROWS, (i + 1) * CHUNK_ROWS)),
  }));
  await upsertChunks(db, chunkRows);
  await db.deleteFrom('sheet_chunks').where('sheet_id', '=', sheetId).where('chunk', '>=', firstChunk + count).execute();
}

/** A whole grid for a sheet that has none yet. */
export async function writeNewGrid(db: Db, sheetId: string, grid: GridData): Promise<void> {
  await writeChunks(db, sheetId, grid, Array.from({ length: chunkCount(grid.length) }, (_, i) => i));
}

/** Replaces the stored grid by `grid`, rewriting only the chunks that differ (`touchedRows`) or changed length. */
export async function replaceGrid(
  db: Db,
  sheetId: string,
  grid: GridData,
  oldRowCount: number,
  touchedRows: Iterable<number>,
): Promise<void> {
  const chunks = new Set<number>();
  const newCount = chunkCount(grid.length);
  for (const row of touchedRows) if (row < grid.length) chunks.add(chunkOf(row));
  // The last chunk of either size may change length without a changed cell.
  if (grid.length !== oldRowCount) {
    if (newCount > 0) chunks.add(newCount - 1);
    for (let c = chunkCount(oldRowCount); c < newCount; c++) chunks.add(c);
  }
  await writeChunks(db, sheetId, grid, chunks);
  await db.deleteFrom('sheet_chunks').where('sheet_id', '=', sheetId).where('chunk', '>=', newCount).execute();
}

/**
 * Applies cell changes by loading and rewriting only the chunks they touch (plus the empty
 * rows a write beyond the end creates). Returns the deltas, with old values, in order.
 */
export async function applyCellChanges(
  db: Db,
  sheetId: string,
  rowCount: number,
  changes: { row: number; col: number; value: CellValue }[],
  loaded?: Map<number, CellValue[][]>,
): Promise<{ deltas: CellDelta[]; rowCount: number; width: number; written: Map<number, string> }> {
  const chunks = loaded ?? (await loadChunks(db, sheetId, rowsToLoad(rowCount, changes)));
  const { deltas, rowCount: newRowCount, width } = applyInMemory(chunks, rowCount, changes);
  const written = new Map([...chunks].map(([chunk, rows]) => [chunk, JSON.stringify(rows)] as const));
  await upsertChunks(
    db,
    [...written].map(([chunk, rows]) => ({ sheet_id: sheetId, chunk, rows })),
  );
  return { deltas, rowCount: newRowCount, width, written };
}

/**
 * Several change sets applied in order as consecutive versions (a live group commit), writing
 * each touched chunk once: returns each set's deltas (old values as of its own version), row
 * count and width, and the chunks' final texts.
 */
export async function applyCellChangeSets(
  db: Db,
  sheetId: string,
  rowCount: number,
  sets: { row: number; col: number; value: CellValue }[][],
): Promise<{ steps: { deltas: CellDelta[]; rowCount: number; width: number }[]; written: Map<number, string> }> {
  const chunks = await loadChunks(db, sheetId, rowsToLoad(rowCount, sets.flat()));
  const steps = [];
  for (const changes of sets) {
    const step = applyInMemory(chunks, rowCount, changes);
    rowCount = step.rowCount;
    steps.push(step);
  }
  const written = new Map([...chunks].map(([chunk, rows]) => [chunk, JSON.stringify(rows)] as const));
  await upsertChunks(
    db,
    [...written].map(([chunk, rows]) => ({ sheet_id: sheetId, chunk, rows })),
  );
  return { steps, written };
}

/** Applies cell changes to loaded chunks (growing the rows a write beyond the end creates); returns the deltas, in order. */
function applyInMemory(
  chunks: Map<number, CellValue[][]>,
  rowCount: number,
  changes: { row: number; col: number; value: CellValue }[],
): { deltas: CellDelta[]; rowCount: number; width: number } {
  let newRowCount = rowCount;
  for (const c of changes) if (c.row + 1 > newRowCount) newRowCount = c.row + 1;
  // Rows between the old end and a new row become empty rows; their chunks are written too.
  const firstGrown = newRowCount > rowCount ? Math.max(0, chunkCount(rowCount) - 1) : chunkCount(newRowCount);
  for (let chunk = firstGrown; chunk < chunkCount(newRowCount); chunk++) {
    const rows = chunks.get(chunk) ?? [];
    const length = Math.min(CHUNK_ROWS, newRowCount - chunk * CHUNK_ROWS);
    while (rows.length < length) rows.push([]);
    chunks.set(chunk, rows);
  }
  const deltas: CellDelta[] = [];
  let width = 0;
  for (const c of changes) {
    const row = chunks.get(chunkOf(c.row))![c.row % CHUNK_ROWS];
    while (row.length < c.col) row.push('');
    const old = row[c.col] ?? null;
    row[c.col] = c.value;
    if (row.length > width) width = row.length;
    deltas.push({ row: c.row, col: c.col, old, new: c.value });
  }
  return { deltas, rowCount: newRowCount, width };
}

/** Rows whose chunks a change set reads: its own, and the current last row when it writes past the end. */
export function rowsToLoad(rowCount: number, changes: { row: number }[]): number[] {
  const rows = changes.map((c) => c.row);
  if (rowCount > 0 && rows.some((r) => r >= rowCount)) rows.push(rowCount - 1);
  return rows;
}

/** The stored chunks holding these rows, parsed. */
export async function loadChunks(db: Db, sheetId: string, rows: number[]): Promise<Map<number, CellValue[][]>> {
  const wanted = [...new Set(rows.map(chunkOf))];
  const map = new Map<number, CellValue[][]>();
  if (wanted.length === 0) return map;
  const found = await db
    .selectFrom('sheet_chunks')
    .select(['chunk', sql<string>`rows::text`.as('rows')])
    .where('sheet_id', '=', sheetId)
    .where('chunk', 'in', wanted)
    .execute();
  for (const { chunk, rows: text } of found) map.set(chunk, JSON.parse(text) as CellValue[][]);
  return map;
}

/** Op-log entries after `version`, oldest first: their cell deltas, or null for a whole new grid. */
export async function opsAfter(db: Db, sheetId: string, version: number): Promise<(CellDelta[] | null)[]> {
  const ops = await db
    .selectFrom('sheet_ops')
    .select(sql<string | null>`changes::text`.as('changes'))
    .where('sheet_id', '=', sheetId)
    .where('version', '>', version)
    .orderBy('version')
    .execute();
  return ops.map((op) => (op.changes === null ? null : (JSON.parse(op.changes) as CellDelta[])));
}

export async function appendOp(
  db: Db,
  op: {
    sheetId: string;
    version: number;
    kind: string;
    userId: string | null;
    changes: CellDelta[] | null;
    /** The live client's operation id (idempotency of re-sent operations). */
    opId?: string;
    /** A structural operation's description, kept for replays to reconnecting clients. */
    structure?: StoredStructureOp;
  },
): Promise<void> {
  await withOpIds(db)
    .insertInto('sheet_ops')
    .values({
      sheet_id: op.sheetId,
      version: op.version,
      kind: op.kind,
      user_id: op.userId,
      changes: op.changes === null ? null : JSON.stringify(op.changes),
      op_id: op.opId ?? null,
      op: op.structure ? JSON.stringify(op.structure) : null,
    })
    .execute();
  // What the op log alone cannot rebuild a version from: its shape, headers and (at whole-grid ops) a snapshot.
  await recordVersion(db, op.sheetId, op.version, op.changes === null);
}

/**
 * The op-log rows of consecutive cell versions (a live group commit) in a few statements instead
 * of a few per version: the op rows, the shapes and changed headers of all but the last version
 * as multi-row inserts, and the last one through recordVersion, which reads the sheet row (it
 * holds the last version) and takes a snapshot when one is due. A group never runs past a
 * snapshot version (the caller ends it there), so a snapshot always sees its own version's grid.
 */
export async function appendCellOps(
  db: Db,
  sheetId: string,
  ops: { version: number; userId: string; opId: string; changes: CellDelta[]; rowCount: number; colCount: number; headers: string[]; headersChanged: boolean }[],
): Promise<void> {
  if (ops.length === 0) return;
  for (let i = 0; i < ops.length; i += OP_INSERT_BATCH) {
    await withOpIds(db)
      .insertInto('sheet_ops')
      .values(
        ops.slice(i, i + OP_INSERT_BATCH).map((op) => ({
          sheet_id: sheetId,
          version: op.version,
          kind: 'cells',
          user_id: op.userId,
          changes: JSON.stringify(op.changes),
          op_id: op.opId,
          op: null,
        })),
      )
      .execute();
  }
  const before = ops.slice(0, -1);
  const versions = db.withTables<VersionTables>();
  for (let i = 0; i < before.length; i += OP_INSERT_BATCH) {
    await versions
      .insertInto('sheet_version_shapes')
      .values(before.slice(i, i + OP_INSERT_BATCH).map((op) => ({ sheet_id: sheetId, version: op.version, row_count: op.rowCount, col_count: op.colCount })))
      .execute();
  }
  const headers = before.filter((op) => op.headersChanged);
  if (headers.length > 0) {
    await versions
      .insertInto('sheet_version_headers')
      .values(headers.map((op) => ({ sheet_id: sheetId, version: op.version, headers: JSON.stringify(op.headers) })))
      .execute();
  }
  await recordVersion(db, sheetId, ops[ops.length - 1].version, false);
}
