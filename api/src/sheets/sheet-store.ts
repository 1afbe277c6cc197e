import { type CellValue, type GridData, heldCells } from '@tessera/contracts';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { type CellDelta, ChunkLayout, CHUNK_ROWS, MAX_CHUNK_ROWS } from './cell-grid.js';
import { groupVersionsRecorded, recordVersion } from '../versions/version-recorder.js';
import type { VersionTables } from '../versions/versions.tables.js';
import { type StoredMoveOp, type StoredStructureOp, withOpIds } from './sheet-ops.tables.js';
import { applyColumnOps } from './column-text.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Chunks per INSERT: keeps one statement's parameters and size moderate. */
const INSERT_BATCH = 40;
/** Op-log rows per INSERT (7 parameters each, far below PostgreSQL's 65,535). */
const OP_INSERT_BATCH = 1000;

/** One stored chunk: its stable id, sort key, row count, rows (JSON text) and the version that wrote it. */
export interface ChunkRow {
  sheet_id: string;
  chunk: number;
  ord: number;
  n: number;
  /** JSON text, or its UTF-8 bytes (an import's chunks: sent as they are). */
  rows: string | Uint8Array;
  version: number;
  /** Its cells the formula engine would be given, when the writer counted them (else the database does: migration 0016). */
  held?: number;
}

/**
 * Columns inserted or removed are not written into every chunk (on 100,000 × 26 that was 31 MB
 * written, seconds): the op log keeps them (`sheet_ops.op`, never pruned), and a chunk's text is
 * as of the version that wrote it (`sheet_chunks.version`), so the column ops after that version
 * still apply to it. Every read of chunk text here applies them (`currentText`); writes store the
 * text as of their own version; the column compactor (column-compactor.ts) rewrites the chunks
 * in the background, a few at a time. This is the SQL of those pending ops, oldest first, as JSON
 * text ([[version, {type, index, count}], ...], null when none), for a chunk of sheet `sheetId`
 * written at `written`, up to `upTo` (default: all). Migration 0013's partial index makes it an
 * index probe per chunk.
 */
export function pendingColumnOps(sheetId: RawBuilder<unknown>, written: RawBuilder<unknown>, upTo?: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(SELECT json_agg(json_build_array(o.version, o.op) ORDER BY o.version)::text FROM sheet_ops o
    WHERE o.sheet_id = ${sheetId} AND o.version > ${written}${upTo ? sql` AND o.version <= ${upTo}` : sql``} AND o.kind IN ('columns_insert', 'columns_remove'))`;
}

/** The pending column ops of a sheet_chunks row selected from `sheet_chunks`. */
const pendingOfChunk = () => pendingColumnOps(sql.ref('sheet_chunks.sheet_id'), sql.ref('sheet_chunks.version'));

/** Pending ops as read (pendingColumnOps), parsed: their versions and ops, oldest first. */
export function parsePendingOps(pending: string | null): { version: number; op: StoredStructureOp }[] {
  if (pending === null) return [];
  return (JSON.parse(pending) as [number, StoredStructureOp][]).map(([version, op]) => ({ version, op }));
}

/** A chunk's stored text with its pending column ops applied: its text as of the sheet's version. */
export function currentText(rows: string, pending: string | null): string {
  return pending === null ? rows : applyColumnOps(rows, parsePendingOps(pending).map((p) => p.op));
}

/** The text of every chunk as of the sheet's version, in row order. */
export async function readChunkTexts(db: Db, sheetId: string): Promise<string[]> {
  const chunks = await db
    .selectFrom('sheet_chunks')
    .select([sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
    .where('sheet_id', '=', sheetId)
    .orderBy('ord')
    .execute();
  return chunks.map((c) => currentText(c.rows, c.pending));
}

/** Where the rows are (ids, sizes and sort keys of the chunks in row order), without their text. */
export async function readLayout(db: Db, sheetId: string): Promise<ChunkLayout> {
  const chunks = await db.selectFrom('sheet_chunks').select(['chunk', 'n', 'ord']).where('sheet_id', '=', sheetId).orderBy('ord').execute();
  return new ChunkLayout(
    chunks.map((c) => c.chunk),
    chunks.map((c) => c.n),
    chunks.map((c) => Number(c.ord)),
  );
}

/** The layout and every chunk's text (as of the sheet's version), in one read. */
export async function readChunks(db: Db, sheetId: string): Promise<{ layout: ChunkLayout; texts: string[] }> {
  const chunks = await db
    .selectFrom('sheet_chunks')
    .select(['chunk', 'n', 'ord', sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
    .where('sheet_id', '=', sheetId)
    .orderBy('ord')
    .execute();
  return {
    layout: new ChunkLayout(
      chunks.map((c) => c.chunk),
      chunks.map((c) => c.n),
      chunks.map((c) => Number(c.ord)),
    ),
    texts: chunks.map((c) => currentText(c.rows, c.pending)),
  };
}

/**
 * readChunks a few chunks per statement (`slice`), the api's other work going on between them: on
 * PGlite one statement for a million rows' chunks held the api's thread for 0.6-0.9 s. The slices
 * are read at different moments: the caller checks the sheet's version did not move meanwhile.
 */
export async function readChunksInSlices(db: Db, sheetId: string, slice: number): Promise<{ layout: ChunkLayout; texts: string[] }> {
  const layout = await readLayout(db, sheetId);
  const texts: string[] = [];
  for (let i = 0; i < layout.ids.length; i += slice) {
    const ids = layout.ids.slice(i, i + slice);
    const chunks = await db
      .selectFrom('sheet_chunks')
      .select(['chunk', sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
      .where('sheet_id', '=', sheetId)
      .where('chunk', 'in', ids)
      .execute();
    const byId = new Map(chunks.map((c) => [c.chunk, currentText(c.rows, c.pending)]));
    for (const id of ids) {
      const text = byId.get(id);
      // Gone since the layout was read (a write between the statements): the caller's version check sorts again.
      texts.push(text ?? '[]');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { layout, texts };
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

async function upsertChunks(db: Db, rows: ChunkRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await db
      .insertInto('sheet_chunks')
      .values(rows.slice(i, i + INSERT_BATCH))
      .onConflict((oc) =>
        oc.columns(['sheet_id', 'chunk']).doUpdateSet({
          ord: (eb) => eb.ref('excluded.ord'),
          n: (eb) => eb.ref('excluded.n'),
          rows: (eb) => eb.ref('excluded.rows'),
          version: (eb) => eb.ref('excluded.version'),
          // As given, or as the insert's trigger counted it from these rows: marked as given (-2 - count,
          // migration 0016), else the update's trigger could not tell it from the old count and would count again.
          held: () => sql<number>`-2 - excluded.held`,
        }),
      )
      .execute();
  }
}

/** The chunks at these positions of `layout`, with `textOf(position)` as their rows (`heldOf(position)` held cells, when known), written by `version`. */
export function chunkRowsAt(
  sheetId: string,
  layout: ChunkLayout,
  positions: Iterable<number>,
  version: number,
  textOf: (p: number) => string | Uint8Array,
  heldOf?: (p: number) => number,
): ChunkRow[] {
  return [...positions].map((p) => ({ sheet_id: sheetId, chunk: layout.ids[p], ord: layout.ords[p], n: layout.sizes[p], rows: textOf(p), version, ...(heldOf ? { held: heldOf(p) } : {}) }));
}

async function deleteChunks(db: Db, sheetId: string, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('sheet_chunks').where('sheet_id', '=', sheetId).where('chunk', 'in', ids).execute();
}

/** A whole grid for a sheet that has none yet (chunks of CHUNK_ROWS rows). */
export async function writeNewGrid(db: Db, sheetId: string, grid: GridData, version: number): Promise<ChunkLayout> {
  const layout = ChunkLayout.fresh(grid.length);
  const starts = layout.starts;
  await upsertChunks(db, chunkRowsAt(sheetId, layout, layout.ids.keys(), version, (p) => JSON.stringify(grid.slice(starts[p], starts[p] + layout.sizes[p]))));
  return layout;
}

/**
 * Replaces the stored grid by `grid` (a whole-grid save), rewriting only the chunks holding a
 * changed row (`touchedRows`) and those at the end that grow, shrink, appear or go. Returns the new layout.
 */
export async function replaceGrid(db: Db, sheetId: string, grid: GridData, layout: ChunkLayout, touchedRows: Iterable<number>, version: number): Promise<ChunkLayout> {
  let next: ChunkLayout;
  const write = new Set<number>();
  const gone: number[] = [];
  if (grid.length >= layout.rowCount) {
    const grown = layout.grownTo(grid.length);
    next = grown.layout;
    for (const p of grown.changed) write.add(p);
  } else {
    // Chunks from the one holding the new last row on are cut or dropped.
    const keep = grid.length === 0 ? 0 : layout.positionOf(grid.length - 1) + 1;
    const sizes = layout.sizes.slice(0, keep);
    if (keep > 0) {
      sizes[keep - 1] = grid.length - layout.starts[keep - 1];
      write.add(keep - 1);
    }
    gone.push(...layout.ids.slice(keep));
    next = new ChunkLayout(layout.ids.slice(0, keep), sizes, layout.ords.slice(0, keep));
  }
  for (const row of touchedRows) if (row < grid.length) write.add(next.positionOf(row));
  const starts = next.starts;
  await upsertChunks(db, chunkRowsAt(sheetId, next, [...write].sort((a, b) => a - b), version, (p) => JSON.stringify(grid.slice(starts[p], starts[p] + next.sizes[p]))));
  await deleteChunks(db, sheetId, gone);
  return next;
}

/** What a cell write did to the stored chunks: the new layout and the new text of each chunk written, by position. */
export interface ChunkWrite {
  layout: ChunkLayout;
  written: Map<number, string>;
}

/**
 * Applies cell changes by loading and rewriting only the chunks they touch (plus the empty
 * rows a write beyond the end creates). Returns the deltas, with old values, in order.
 */
export async function applyCellChanges(
  db: Db,
  sheetId: string,
  layout: ChunkLayout,
  changes: { row: number; col: number; value: CellValue }[],
  version: number,
  loaded?: Map<number, CellValue[][]>,
): Promise<ChunkWrite & { deltas: CellDelta[]; rowCount: number; width: number }> {
  const chunks = loaded ?? (await loadChunks(db, sheetId, layout, rowsToLoad(layout.rowCount, changes)));
  const step = applyInMemory(chunks, layout, changes);
  const written = await writeLoaded(db, sheetId, step.layout, chunks, version);
  return { deltas: step.deltas, rowCount: step.layout.rowCount, width: step.width, layout: step.layout, written };
}

/**
 * Several change sets applied in order as consecutive versions (a live group commit), writing
 * each touched chunk once (by the last of them, `version`): returns each set's deltas (old values
 * as of its own version), row count and width, and the chunks' final texts. With `store` false
 * the chunks are not written but returned (`rows`), for the caller to write (writeCellGroups, writeChunkRows).
 */
export async function applyCellChangeSets(
  db: Db,
  sheetId: string,
  layout: ChunkLayout,
  sets: { row: number; col: number; value: CellValue }[][],
  version: number,
  /** Chunks known to be as stored now, parsed, by chunk id (LoadedChunkCache): not read again. */
  known?: Map<number, CellValue[][]>,
  store = true,
): Promise<ChunkWrite & { steps: { deltas: CellDelta[]; rowCount: number; width: number }[]; chunks: Map<number, CellValue[][]>; rows: ChunkRow[] }> {
  const chunks = await loadChunks(db, sheetId, layout, rowsToLoad(layout.rowCount, sets.flat()), known);
  const steps = [];
  for (const changes of sets) {
    const step = applyInMemory(chunks, layout, changes);
    layout = step.layout;
    steps.push({ deltas: step.deltas, rowCount: layout.rowCount, width: step.width });
  }
  const { written, rows } = loadedRows(sheetId, layout, chunks, version);
  if (store) await upsertChunks(db, rows);
  return { steps, layout, written, chunks, rows };
}

/** Writes the loaded (and changed) chunks; returns their texts by position, in order. */
async function writeLoaded(db: Db, sheetId: string, layout: ChunkLayout, chunks: Map<number, CellValue[][]>, version: number): Promise<Map<number, string>> {
  const { written, rows } = loadedRows(sheetId, layout, chunks, version);
  await upsertChunks(db, rows);
  return written;
}

/** The loaded (and changed) chunks as rows to store, and their texts by position, in order. */
function loadedRows(sheetId: string, layout: ChunkLayout, chunks: Map<number, CellValue[][]>, version: number): { written: Map<number, string>; rows: ChunkRow[] } {
  const written = new Map([...chunks.keys()].sort((a, b) => a - b).map((p) => [p, JSON.stringify(chunks.get(p))] as const));
  // Their held cells counted here, the rows at hand (a cell edit's chunk is not counted again by the database when it changed).
  return { written, rows: chunkRowsAt(sheetId, layout, written.keys(), version, (p) => written.get(p)!, (p) => heldCells(chunks.get(p)!)) };
}

/** Chunk rows returned by applyCellChangeSets (`store` false), written. */
export const writeChunkRows = (db: Db, rows: ChunkRow[]): Promise<void> => upsertChunks(db, rows);

/** Applies cell changes to loaded chunks (growing the rows a write beyond the end creates); returns the deltas, in order. */
function applyInMemory(
  chunks: Map<number, CellValue[][]>,
  layout: ChunkLayout,
  changes: { row: number; col: number; value: CellValue }[],
): { deltas: CellDelta[]; layout: ChunkLayout; width: number } {
  let newRowCount = layout.rowCount;
  for (const c of changes) if (c.row + 1 > newRowCount) newRowCount = c.row + 1;
  // Rows between the old end and a new row become empty rows; their chunks are written too.
  const grown = layout.grownTo(newRowCount);
  for (const p of grown.changed) {
    const rows = chunks.get(p) ?? [];
    while (rows.length < grown.layout.sizes[p]) rows.push([]);
    chunks.set(p, rows);
  }
  const next = grown.layout;
  const starts = next.starts;
  const deltas: CellDelta[] = [];
  let width = 0;
  for (const c of changes) {
    const p = next.positionOf(c.row);
    const row = chunks.get(p)![c.row - starts[p]];
    while (row.length < c.col) row.push('');
    const old = row[c.col] ?? null;
    row[c.col] = c.value;
    if (row.length > width) width = row.length;
    deltas.push({ row: c.row, col: c.col, old, new: c.value });
  }
  return { deltas, layout: next, width };
}

/** Rows whose chunks a change set reads: its own, and the current last row when it writes past the end. */
export function rowsToLoad(rowCount: number, changes: { row: number }[]): number[] {
  const rows: number[] = [];
  let past = false;
  for (const c of changes) {
    if (c.row < rowCount) rows.push(c.row);
    else past = true;
  }
  if (rowCount > 0 && past) rows.push(rowCount - 1);
  return rows;
}

/**
 * The stored chunks holding these rows (each < the layout's row count), parsed, by position;
 * those in `known` (by chunk id, as stored now) are taken from it, not read.
 */
export async function loadChunks(db: Db, sheetId: string, layout: ChunkLayout, rows: number[], known?: Map<number, CellValue[][]>): Promise<Map<number, CellValue[][]>> {
  const positions = new Map<number, number>();
  const map = new Map<number, CellValue[][]>();
  for (const row of rows) {
    const p = layout.positionOf(row);
    const rowsOf = known?.get(layout.ids[p]);
    if (rowsOf) map.set(p, rowsOf);
    else positions.set(layout.ids[p], p);
  }
  if (positions.size === 0) return map;
  const found = await db
    .selectFrom('sheet_chunks')
    .select(['chunk', sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
    .where('sheet_id', '=', sheetId)
    .where('chunk', 'in', [...positions.keys()])
    .execute();
  for (const { chunk, rows: text, pending } of found) map.set(positions.get(chunk)!, JSON.parse(currentText(text, pending)) as CellValue[][]);
  return map;
}

/** What a row operation did to the chunks: the new layout, and positions [from, from + deleteCount) of the old one replaced by `texts`. */
export interface RowsWrite {
  layout: ChunkLayout;
  splice: { from: number; deleteCount: number; texts: string[] };
}

/**
 * Rows inserted at `index` (0 ≤ index ≤ row count): only the chunk they fall in is read and
 * rewritten (split in chunks of about CHUNK_ROWS rows when it grows past MAX_CHUNK_ROWS); the
 * chunks below keep their ids and text.
 */
export async function insertRows(db: Db, sheetId: string, layout: ChunkLayout, index: number, blank: GridData, version: number): Promise<RowsWrite> {
  if (layout.length === 0) {
    const fresh = ChunkLayout.fresh(blank.length);
    const texts = fresh.ids.map((_, p) => JSON.stringify(blank.slice(fresh.starts[p], fresh.starts[p] + fresh.sizes[p])));
    await upsertChunks(db, chunkRowsAt(sheetId, fresh, fresh.ids.keys(), version, (p) => texts[p]));
    return { layout: fresh, splice: { from: 0, deleteCount: 0, texts } };
  }
  const p = index >= layout.rowCount ? layout.length - 1 : layout.positionOf(index);
  const rows = await chunkRowsOf(db, sheetId, layout.ids[p]);
  const at = index - layout.starts[p];
  return replaceChunks(db, sheetId, layout, p, 1, [...rows.slice(0, at), ...blank, ...rows.slice(at)], version);
}

/**
 * Rows [index, index + count) removed: chunks wholly inside the range are deleted unread; the
 * (at most two) chunks it starts and ends in are cut, and joined when they fit in one.
 */
export async function removeRows(db: Db, sheetId: string, layout: ChunkLayout, index: number, count: number, version: number): Promise<RowsWrite> {
  const first = layout.positionOf(index);
  const last = layout.positionOf(index + count - 1);
  const starts = layout.starts;
  const head = index > starts[first] ? (await chunkRowsOf(db, sheetId, layout.ids[first])).slice(0, index - starts[first]) : [];
  const end = starts[last] + layout.sizes[last];
  const tail = index + count < end ? (await chunkRowsOf(db, sheetId, layout.ids[last])).slice(index + count - starts[last]) : [];
  return replaceChunks(db, sheetId, layout, first, last - first + 1, [...head, ...tail], version);
}

async function chunkRowsOf(db: Db, sheetId: string, id: number): Promise<GridData> {
  const found = await db
    .selectFrom('sheet_chunks')
    .select([sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
    .where('sheet_id', '=', sheetId)
    .where('chunk', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(currentText(found.rows, found.pending)) as GridData;
}

/**
 * Positions [from, from + deleteCount) of `layout` replaced by chunks holding `rows`: the first
 * keeps the first old id (and sort key), others get new ids sorted between their neighbours; the
 * old ids left over are deleted. Rows past MAX_CHUNK_ROWS are cut in chunks of about CHUNK_ROWS.
 */
async function replaceChunks(db: Db, sheetId: string, layout: ChunkLayout, from: number, deleteCount: number, rows: GridData, version: number): Promise<RowsWrite> {
  const pieces = rows.length === 0 ? 0 : rows.length <= MAX_CHUNK_ROWS ? 1 : Math.ceil(rows.length / CHUNK_ROWS);
  const oldIds = layout.ids.slice(from, from + deleteCount);
  let ords = [...layout.ords];
  const low = ords[from];
  const high = from + deleteCount < ords.length ? ords[from + deleteCount] : Math.floor(ords[ords.length - 1]) + pieces + 1;
  let keys = Array.from({ length: pieces }, (_, i) => (i === 0 ? low : low + ((high - low) * i) / pieces));
  if (keys.some((k, i) => (i > 0 && k <= keys[i - 1]) || k >= high)) {
    // The sort keys between two chunks ran out (many splits at one place): every chunk is renumbered 0, 1, 2... (no cells move).
    await sql`UPDATE sheet_chunks c SET ord = r.rn FROM (SELECT chunk, (row_number() OVER (ORDER BY ord) - 1)::float8 AS rn
      FROM sheet_chunks WHERE sheet_id = ${sheetId}::uuid) r WHERE c.sheet_id = ${sheetId}::uuid AND c.chunk = r.chunk`.execute(db);
    ords = ords.map((_, i) => i);
    const lo = ords[from];
    const hi = from + deleteCount < ords.length ? ords[from + deleteCount] : ords.length + 1;
    keys = Array.from({ length: pieces }, (_, i) => lo + ((hi - lo) * i) / pieces);
  }
  let nextId = layout.nextId();
  const ids = Array.from({ length: pieces }, (_, i) => (i < oldIds.length ? oldIds[i] : nextId++));
  const sizes = Array.from({ length: pieces }, (_, i) => Math.floor((rows.length * (i + 1)) / pieces) - Math.floor((rows.length * i) / pieces));
  const texts: string[] = [];
  const written: ChunkRow[] = [];
  let at = 0;
  for (let i = 0; i < pieces; i++) {
    const text = JSON.stringify(rows.slice(at, at + sizes[i]));
    at += sizes[i];
    texts.push(text);
    written.push({ sheet_id: sheetId, chunk: ids[i], ord: keys[i], n: sizes[i], rows: text, version });
  }
  await upsertChunks(db, written);
  await deleteChunks(db, sheetId, oldIds.slice(pieces));
  const splice = <T>(list: readonly T[], items: T[]) => [...list.slice(0, from), ...items, ...list.slice(from + deleteCount)];
  return {
    layout: new ChunkLayout(splice(layout.ids, ids), splice(layout.sizes, sizes), splice(ords, keys)),
    splice: { from, deleteCount, texts },
  };
}

/**
 * The cells of a sheet the formula engine would be given (sheets.held_cells, migration 0016), when
 * that count is exact: it is of the chunks' stored text, so not while a column op is pending on
 * any chunk (one written before the newest column op: the compactor has not caught up). Undefined then.
 */
export async function exactHeldCells(db: Db, sheetId: string): Promise<number | undefined> {
  const row = await sql<{ held_cells: string | number; behind: boolean | null }>`SELECT s.held_cells,
      (SELECT max(o.version) FROM sheet_ops o WHERE o.sheet_id = s.id AND o.kind IN ('columns_insert', 'columns_remove'))
        > (SELECT min(c.version) FROM sheet_chunks c WHERE c.sheet_id = s.id) AS behind
    FROM sheets s WHERE s.id = ${sheetId}::uuid`.execute(db);
  const found = row.rows[0];
  return found && found.behind !== true ? Number(found.held_cells) : undefined;
}

/** The chunks of a sheet that have column ops pending (see pendingColumnOps), in row order, with their stored size. */
export async function chunksBehind(db: Db, sheetId: string): Promise<{ chunk: number; bytes: number }[]> {
  return db
    .selectFrom('sheet_chunks')
    .select(['chunk', 'bytes'])
    .where('sheet_id', '=', sheetId)
    .where(sql<boolean>`${pendingOfChunk()} IS NOT NULL`)
    .orderBy('ord')
    .execute();
}

/**
 * These chunks rewritten with their pending column ops applied, as of the newest op applied: the
 * content stays what every read gave, so the version they get is the one that content is the text
 * of, not a new one (snapshots taken since need no new copy). A chunk written meanwhile (another
 * version) is left alone. Under the sheet's row lock, taken first as every writer does (the size
 * trigger of migration 0011 updates the sheet row after each chunk: a chunk locked before the sheet
 * would deadlock with a cell write). Returns how many were rewritten.
 */
export async function catchUpChunks(db: Kysely<Database>, sheetId: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const sheet = await trx.selectFrom('sheets').select('id').where('id', '=', sheetId).forUpdate().executeTakeFirst();
    if (!sheet) return 0;
    const stale = await trx
      .selectFrom('sheet_chunks')
      .select(['chunk', 'version', sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
      .where('sheet_id', '=', sheetId)
      .where('chunk', 'in', ids)
      .execute();
    const values = stale.flatMap((c) => {
      const ops = parsePendingOps(c.pending);
      if (ops.length === 0) return [];
      const text = applyColumnOps(c.rows, ops.map((o) => o.op));
      return [sql`(${c.chunk}::int, ${c.version}::int, ${ops[ops.length - 1].version}::int, ${text}::text)`];
    });
    if (values.length === 0) return 0;
    const { numAffectedRows } = await sql`UPDATE sheet_chunks c SET rows = v.rows::json, version = v.to_version
      FROM (VALUES ${sql.join(values)}) AS v(chunk, from_version, to_version, rows)
      WHERE c.sheet_id = ${sheetId}::uuid AND c.chunk = v.chunk AND c.version = v.from_version`.execute(trx);
    return Number(numAffectedRows ?? 0);
  });
}

/**
 * A copy of a sheet's chunks for another sheet (a duplicate) at `version`: copied inside the
 * database, but those with column ops pending are brought up to date (the copy's op log does not
 * have the source's ops). Those are read first: a chunk caught up in between (column-compactor.ts)
 * is still written from that read, never left out.
 */
export async function copyChunks(db: Db, fromId: string, toId: string, version: number): Promise<void> {
  const behind = await db
    .selectFrom('sheet_chunks')
    .select(['chunk', 'ord', 'n', sql<string>`rows::text`.as('rows'), pendingOfChunk().as('pending')])
    .where('sheet_id', '=', fromId)
    .where(sql<boolean>`${pendingOfChunk()} IS NOT NULL`)
    .execute();
  const ids = behind.map((c) => c.chunk);
  // Their held cells too (migration 0016): a chunk without column ops pending was counted as it is.
  await sql`INSERT INTO sheet_chunks (sheet_id, chunk, ord, n, rows, version, held)
    SELECT ${toId}::uuid, chunk, ord, n, rows, ${version}::int, held FROM sheet_chunks
    WHERE sheet_id = ${fromId}::uuid${ids.length > 0 ? sql` AND chunk NOT IN (${sql.join(ids.map((id) => sql`${id}::int`))})` : sql``}`.execute(db);
  await upsertChunks(
    db,
    behind.map((c) => ({ sheet_id: toId, chunk: c.chunk, ord: Number(c.ord), n: c.n, rows: currentText(c.rows, c.pending), version })),
  );
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
    structure?: StoredMoveOp;
  },
  /**
   * Cells the op writes once it is logged (reads of the chunks then apply it, a column insert
   * included: pendingColumnOps) and before its version is recorded (so its snapshot holds them):
   * an insert undoing a remove fills its new rows or columns here.
   */
  written?: () => Promise<void>,
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
  await written?.();
  // What the op log alone cannot rebuild a version from: its shape, headers and (at whole-grid ops) a snapshot.
  // A cells_clear is not one: its block, logged in `op`, is replayed (version-rebuild.ts), its rewritten chunks not copied.
  await recordVersion(db, op.sheetId, op.version, op.changes === null && op.kind !== 'cells_clear');
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
  // One text whatever the number of ops (arrays, not a row of parameters per op): a statement whose
  // text changes with the group's size is parsed and planned anew each time. The op rows and the
  // shapes of all but the last version go in one statement (a data-modifying WITH): one round
  // trip into PGlite fewer per group.
  const last = ops[ops.length - 1].version;
  const before = ops.slice(0, -1);
  const headers = before.filter((op) => op.headersChanged);
  /** The op rows and shapes of a batch, as CTEs of one statement. */
  const written = (batch: typeof ops) => {
    const shapes = batch.filter((op) => op.version !== last);
    return sql`logged AS (INSERT INTO sheet_ops (sheet_id, version, kind, user_id, changes, op_id, op)
        SELECT ${sheetId}::uuid, t.version, 'cells', t.user_id, t.changes::json, t.op_id, NULL
        FROM unnest(${batch.map((op) => op.version)}::int[], ${batch.map((op) => op.userId)}::uuid[], ${batch.map((op) => JSON.stringify(op.changes))}::text[], ${batch.map((op) => op.opId)}::text[])
          AS t(version, user_id, changes, op_id)),
      shaped AS (INSERT INTO sheet_version_shapes (sheet_id, version, row_count, col_count)
      SELECT ${sheetId}::uuid, t.version, t.row_count, t.col_count
      FROM unnest(${shapes.map((op) => op.version)}::int[], ${shapes.map((op) => op.rowCount)}::int[], ${shapes.map((op) => op.colCount)}::int[]) AS t(version, row_count, col_count))`;
  };
  // A live group's ops usually fit one batch and change no headers before the last: their rows go in
  // recordVersion's statement (one round trip per group fewer). recordVersion reads the headers
  // recorded so far, so those of earlier versions are written before it, in statements of their own.
  const along = ops.length <= OP_INSERT_BATCH && headers.length === 0;
  for (let i = 0; !along && i < ops.length; i += OP_INSERT_BATCH) await sql`WITH ${written(ops.slice(i, i + OP_INSERT_BATCH))} SELECT 1`.execute(db);
  if (headers.length > 0) {
    await db
      .withTables<VersionTables>()
      .insertInto('sheet_version_headers')
      .values(headers.map((op) => ({ sheet_id: sheetId, version: op.version, headers: JSON.stringify(op.headers) })))
      .execute();
  }
  await recordVersion(db, sheetId, last, false, along ? written(ops) : undefined);
}

/** One sheet's live cell group as a shared transaction writes it (writeCellGroups). */
export interface CellGroupWrite {
  sheetId: string;
  /** The chunks it rewrote (applyCellChangeSets with `store` false). */
  chunks: ChunkRow[];
  /** Its versions, in order: the last one is the sheet row's. */
  ops: { version: number; userId: string; opId: string; changes: CellDelta[]; rowCount: number; colCount: number }[];
  /** The sheet's headers when its group changed them (only its last version may: appendCellOps otherwise), else null. */
  headers: string[] | null;
  /** An AI or code result is among them: the sheet's metadata.lastAIUpdate is set. */
  ai: boolean;
}

/**
 * The cell groups of several sheets whose rows the caller locked (a shared transaction, JointCommits
 * `finish`), written in ONE statement: their chunks, sheet rows, op-log rows and versions (what
 * each sheet's group writes in three statements: applyCellChangeSets, the row update, appendCellOps).
 * On PGlite a statement costs about 0.1-0.3 ms of CPU whatever its rows. None of the groups may hold a
 * snapshot version (the caller writes those on their own: a snapshot reads its sheet's stored op log).
 * The text is the same whatever the number of sheets and rows (arrays, not a parameter per row):
 * PGlite parses and plans it once. A sheet's chunk rows, at most one per chunk, are distinct from any
 * other's (an upsert cannot touch a row twice). Returns the ids of the sheets whose row was updated
 * (a sheet gone is not among them). The byte and held-cell trigger of its chunks (migrations 0011
 * and 0016) runs at the end of the statement and so adds to the row this statement updated.
 */
export async function writeCellGroups(db: Db, groups: CellGroupWrite[]): Promise<Set<string>> {
  const last = groups.map((g) => g.ops[g.ops.length - 1]);
  const chunks = groups.flatMap((g) => g.chunks);
  const ops = groups.flatMap((g) => g.ops.map((op) => ({ sheetId: g.sheetId, ...op })));
  const { rows } = await sql<{ id: string }>`WITH joint AS (SELECT * FROM unnest(${groups.map((g) => g.sheetId)}::uuid[], ${last.map((op) => op.version)}::int[],
        ${last.map((op) => op.rowCount)}::int[], ${last.map((op) => op.colCount)}::int[], ${groups.map((g) => (g.headers ? JSON.stringify(g.headers) : null))}::text[],
        ${groups.map((g) => g.ai)}::bool[]) AS t(id, version, row_count, col_count, headers, ai)),
      updated AS (UPDATE sheets s SET version = j.version, row_count = j.row_count, col_count = j.col_count, headers = coalesce(j.headers::jsonb, s.headers),
          extra = CASE WHEN j.ai THEN s.extra || jsonb_build_object('lastAIUpdate', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ELSE s.extra END,
          updated_at = now()
        FROM joint j WHERE s.id = j.id RETURNING s.id),
      stored AS (INSERT INTO sheet_chunks (sheet_id, chunk, ord, n, rows, version, held)
        SELECT t.sheet_id, t.chunk, t.ord, t.n, t.rows::json, t.version, t.held
        FROM unnest(${chunks.map((c) => c.sheet_id)}::uuid[], ${chunks.map((c) => c.chunk)}::int[], ${chunks.map((c) => c.ord)}::float8[], ${chunks.map((c) => c.n)}::int[],
          ${chunks.map((c) => c.rows as string)}::text[], ${chunks.map((c) => c.version)}::int[], ${chunks.map((c) => c.held ?? -1)}::int[]) AS t(sheet_id, chunk, ord, n, rows, version, held)
        -- As upsertChunks: the held count given, marked as given for the update's trigger.
        ON CONFLICT (sheet_id, chunk) DO UPDATE SET ord = excluded.ord, n = excluded.n, rows = excluded.rows, version = excluded.version, held = -2 - excluded.held),
      logged AS (INSERT INTO sheet_ops (sheet_id, version, kind, user_id, changes, op_id, op)
        SELECT t.sheet_id, t.version, 'cells', t.user_id, t.changes::json, t.op_id, NULL
        FROM unnest(${ops.map((op) => op.sheetId)}::uuid[], ${ops.map((op) => op.version)}::int[], ${ops.map((op) => op.userId)}::uuid[],
          ${ops.map((op) => JSON.stringify(op.changes))}::text[], ${ops.map((op) => op.opId)}::text[]) AS t(sheet_id, version, user_id, changes, op_id)),
      ${groupVersionsRecorded(sql.id('joint'), ops)}
    SELECT id FROM updated`.execute(db);
  return new Set(rows.map((r) => r.id));
}
