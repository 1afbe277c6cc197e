import { type CellValue, type ClearBlock, normalizeHeaders } from '@tessera/contracts';
import { sql } from 'kysely';
import { type CellDelta, CHUNK_ROWS, segmentHolding } from '../sheets/cell-grid.js';
import { currentText, pendingColumnOps, readChunks, readLayout } from '../sheets/sheet-store.js';
import { patchChunkText } from './chunk-text.js';
import { backwardChain, type DeltaSpan, forwardChain, type PackedCell, unpack } from './snapshot-delta.js';
import type { AnyDb } from './versions.tables.js';

/** A version's content as stored text: one JSON array of rows per chunk, `sizes[i]` rows in chunk i. */
export interface RebuiltChunks {
  headers: string[];
  rowCount: number;
  colCount: number;
  chunks: string[];
  sizes: number[];
}

/** A version that cannot be rebuilt (only possible for history older than the versions migration). */
export class UnrebuildableVersionError extends Error {}

/** Replays ops on rows: forwards with their new values, backwards (ops newest first) with their old ones. */
export function applyDeltas(grid: CellValue[][], ops: CellDelta[][], direction: 'forward' | 'backward', firstRow = 0): void {
  for (const deltas of ops) {
    const list = direction === 'forward' ? deltas : [...deltas].reverse();
    for (const d of list) {
      const r = d.row - firstRow;
      while (grid.length <= r) grid.push([]);
      const row = grid[r];
      while (row.length < d.col) row.push('');
      row[d.col] = direction === 'forward' ? d.new : d.old;
    }
  }
}

/**
 * A cells_clear in a forward replay: only its block is logged (not its old values), so it replays
 * forwards only (a rebuild never goes backwards across one: rebuildChunks).
 */
export interface ClearStep {
  clear: ClearBlock;
}

/** One op of a replay: its cell changes, or a block cleared. */
export type ReplayStep = CellDelta[] | ClearStep;

const isClear = (step: ReplayStep): step is ClearStep => !Array.isArray(step);

/**
 * A block emptied in rows (the first being row `firstRow`) as clear-block.ts empties it in the
 * stored chunks: a cell of the block set to null where its row reaches it (a shorter row is left
 * short: the cell is empty already), no row added.
 */
export function applyClear(grid: CellValue[][], block: ClearBlock, firstRow = 0): void {
  const low = Math.max(block.rows.start, firstRow) - firstRow;
  const high = Math.min(block.rows.start + block.rows.count - firstRow, grid.length);
  const colEnd = block.columns.start + block.columns.count;
  for (let r = low; r < high; r++) {
    const row = grid[r];
    if (!row) continue;
    const end = Math.min(colEnd, row.length);
    for (let c = block.columns.start; c < end; c++) row[c] = null;
  }
}

/** Replays steps (oldest first): cell changes forwards with their new values, clears as they were applied. */
function applySteps(grid: CellValue[][], steps: ReplayStep[], direction: 'forward' | 'backward', firstRow: number): void {
  for (const step of steps) {
    if (isClear(step)) {
      if (direction !== 'forward') throw new UnrebuildableVersionError('A cleared block cannot be replayed backwards');
      applyClear(grid, step.clear, firstRow);
    } else applyDeltas(grid, [step], direction, firstRow);
  }
}

/** Stored chunks in row order: their text ('' for one not read: see RowSpan) and row counts. */
interface StoredChunks {
  texts: string[];
  sizes: number[];
}

/** Rows [start, end) of a version: only the stored chunks holding them are read (a cell's history needs one chunk, not 2,000). */
export interface RowSpan {
  start: number;
  end: number;
}

/** Positions of the chunks of `sizes` holding rows of `span`. */
function positionsOf(sizes: readonly number[], span: RowSpan): number[] {
  const out: number[] = [];
  let first = 0;
  for (let p = 0; p < sizes.length && first < span.end; p++) {
    if (first + sizes[p] > span.start) out.push(p);
    first += sizes[p];
  }
  return out;
}

/**
 * A full snapshot's chunks: for each chunk of its layout, the newest copy of that chunk id up to its
 * version, with the column ops between the version its text is of (`written`; before migration 0013
 * the copy's own) and the snapshot's applied.
 */
async function snapshotChunks(db: AnyDb, sheetId: string, version: number, span?: RowSpan): Promise<StoredChunks> {
  let only = sql``;
  let sizes: number[] | undefined;
  if (span) {
    const { rows: layout } = await sql<{ n: number }>`SELECT (l.e->>1)::int AS n FROM sheet_snapshots s
      CROSS JOIN LATERAL json_array_elements(s.layout) WITH ORDINALITY AS l(e, i)
      WHERE s.sheet_id = ${sheetId}::uuid AND s.version = ${version}::int ORDER BY l.i`.execute(db);
    sizes = layout.map((r) => r.n);
    const positions = positionsOf(sizes, span);
    if (positions.length === 0) return { texts: sizes.map(() => ''), sizes };
    only = sql`AND l.i IN (${sql.join(positions.map((p) => sql`${p + 1}::int`))})`;
  }
  const { rows } = await sql<{ rows: string; n: number; i: number; pending: string | null }>`SELECT sc.rows, (l.e->>1)::int AS n, l.i::int AS i,
      ${pendingColumnOps(sql.ref('s.sheet_id'), sql.ref('sc.written'), sql.ref('s.version'))} AS pending FROM sheet_snapshots s
    CROSS JOIN LATERAL json_array_elements(s.layout) WITH ORDINALITY AS l(e, i)
    CROSS JOIN LATERAL (SELECT c.rows::text AS rows, coalesce(c.written, c.version) AS written FROM sheet_snapshot_chunks c
      WHERE c.sheet_id = s.sheet_id AND c.chunk = (l.e->>0)::int AND c.version <= s.version
      ORDER BY c.version DESC LIMIT 1) sc
    WHERE s.sheet_id = ${sheetId}::uuid AND s.version = ${version}::int ${only} ORDER BY l.i`.execute(db);
  if (!sizes) return { texts: rows.map((r) => currentText(r.rows, r.pending)), sizes: rows.map((r) => r.n) };
  const texts = sizes.map(() => '');
  for (const r of rows) texts[r.i - 1] = currentText(r.rows, r.pending);
  return { texts, sizes };
}

async function liveChunks(db: AnyDb, sheetId: string, span?: RowSpan): Promise<StoredChunks> {
  if (span) {
    const layout = await readLayout(db, sheetId);
    const sizes = [...layout.sizes];
    const positions = positionsOf(sizes, span);
    const texts = sizes.map(() => '');
    if (positions.length === 0) return { texts, sizes };
    // As text, not parsed (loadChunks parses): a rebuild by batches reads every chunk this way.
    const at = new Map(positions.map((p) => [layout.ids[p], p]));
    const found = await db
      .selectFrom('sheet_chunks')
      .select(['chunk', sql<string>`rows::text`.as('rows'), pendingColumnOps(sql.ref('sheet_chunks.sheet_id'), sql.ref('sheet_chunks.version')).as('pending')])
      .where('sheet_id', '=', sheetId)
      .where('chunk', 'in', [...at.keys()])
      .execute();
    for (const c of found) texts[at.get(c.chunk)!] = currentText(c.rows, c.pending);
    return { texts, sizes };
  }
  const { layout, texts } = await readChunks(db, sheetId);
  return { texts, sizes: [...layout.sizes] };
}

/**
 * The op log's entries in (after, upTo]: their cell changes, or (forwards only) a cells_clear's
 * block; any other op without cell changes replaced the whole grid and has a snapshot a rebuild starts from.
 */
async function opsBetween(db: AnyDb, sheetId: string, after: number, upTo: number, order: 'asc' | 'desc'): Promise<ReplayStep[]> {
  if (after >= upTo) return [];
  const { rows } = await sql<{ version: number; kind: string; changes: string | null; op: string | null }>`SELECT version, kind, changes::text AS changes, op::text AS op FROM sheet_ops
    WHERE sheet_id = ${sheetId}::uuid AND version > ${after}::int AND version <= ${upTo}::int
    ORDER BY version ${sql.raw(order)}`.execute(db);
  return rows.map((op) => {
    if (op.changes !== null) return JSON.parse(op.changes) as CellDelta[];
    if (op.kind === 'cells_clear' && op.op !== null && order === 'asc') {
      const block = JSON.parse(op.op) as ClearBlock;
      return { clear: { rows: block.rows, columns: block.columns } };
    }
    throw new UnrebuildableVersionError(`Version ${op.version} replaced the whole grid and has no snapshot`);
  });
}

async function deltaSpans(db: AnyDb, sheetId: string, after: number, upTo: number): Promise<DeltaSpan[]> {
  const { rows } = await sql<DeltaSpan>`SELECT from_version AS "from", version AS "to", cells FROM sheet_snapshot_deltas
    WHERE sheet_id = ${sheetId}::uuid AND version > ${after}::int AND version <= ${upTo}::int ORDER BY version`.execute(db);
  return rows;
}

/** The delta snapshots' cells, in the order of `spans`. */
async function deltaCells(db: AnyDb, sheetId: string, spans: DeltaSpan[]): Promise<CellDelta[][]> {
  if (spans.length === 0) return [];
  const { rows } = await sql<{ version: number; changes: string }>`SELECT version, changes::text AS changes FROM sheet_snapshot_deltas
    WHERE sheet_id = ${sheetId}::uuid AND version IN (${sql.join(spans.map((s) => sql`${s.to}::int`))})`.execute(db);
  const byVersion = new Map(rows.map((r) => [r.version, r.changes]));
  return spans.map((s) => unpack(JSON.parse(byVersion.get(s.to)!) as PackedCell[]));
}

/**
 * The headers and chunks of `version` (1 ≤ version ≤ live): from the nearest full snapshot below
 * (forwards: the delta snapshots from it, then the ops' new values) or the one above / the live
 * grid (backwards: the ops' and delta snapshots' old values) — whichever replays fewer cells. Only
 * the chunks the replayed cells touch (and the last one, for the row count) are parsed; the others
 * stay the stored text. Call it in a repeatable-read transaction so the live grid and the op log agree.
 * With `span` (a version whose shape is recorded), only the chunks holding those rows are read and
 * rebuilt; the others come back as '' (their sizes are right).
 */
export async function rebuildChunks(db: AnyDb, sheetId: string, version: number, liveVersion: number, span?: RowSpan): Promise<RebuiltChunks> {
  const { rows: shapes } = await sql<{ row_count: number; col_count: number }>`SELECT row_count, col_count FROM sheet_version_shapes
    WHERE sheet_id = ${sheetId}::uuid AND version = ${version}::int`.execute(db);
  const shape = shapes[0];
  // History older than the versions migration has no shape: it is what a replay of whole chunks gives.
  if (!shape) span = undefined;
  const { rows: near } = await sql<{ below: number | null; above: number | null; above_whole: boolean | null }>`SELECT
      (SELECT max(version) FROM sheet_snapshots WHERE sheet_id = ${sheetId}::uuid AND version <= ${version}::int) AS below,
      (SELECT min(version) FROM sheet_snapshots WHERE sheet_id = ${sheetId}::uuid AND version >= ${version}::int) AS above,
      (SELECT o.changes IS NULL FROM sheet_ops o WHERE o.sheet_id = ${sheetId}::uuid AND o.version > ${version}::int
        AND o.version = (SELECT min(version) FROM sheet_snapshots WHERE sheet_id = ${sheetId}::uuid AND version >= ${version}::int)) AS above_whole`.execute(db);
  const below = near[0]?.below ?? null;
  const above = Math.min(near[0]?.above ?? liveVersion, liveVersion);
  // A whole-grid op (a structural one: rows or columns inserted or removed, a sort) records no old
  // cells, so it cannot be undone backwards; it always has a snapshot, so only the one at `above` can
  // be in the way. A cells_clear (no snapshot since 2.14: its block is replayed) cannot be undone
  // either: one between the version and `above` sends the rebuild forwards.
  const { rows: cleared } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sheet_ops WHERE sheet_id = ${sheetId}::uuid
    AND kind = 'cells_clear' AND version > ${version}::int AND version <= ${above}::int`.execute(db);
  const aboveWhole = near[0]?.above_whole === true || (cleared[0]?.n ?? 0) > 0;
  const spans = await deltaSpans(db, sheetId, below ?? version, above);
  // Cells per version, to weigh the op log's stretches against the delta snapshots' counted cells.
  const spanned = spans.reduce((n, s) => n + s.to - s.from, 0);
  const perVersion = spanned > 0 ? spans.reduce((n, s) => n + s.cells, 0) / spanned : 1;
  const cost = (used: DeltaSpan[], opVersions: number) => used.reduce((n, s) => n + s.cells, 0) + opVersions * perVersion;
  const fwd = below === null ? null : forwardChain(spans, below, version);
  const bwd = backwardChain(spans, version, above);
  let stored: StoredChunks;
  let ops: ReplayStep[];
  let direction: 'forward' | 'backward';
  if (fwd && below !== null && (aboveWhole || cost(fwd.used, version - fwd.opsFrom + fwd.gaps) <= cost(bwd.used, above - bwd.opsAbove + bwd.opsBelow - version))) {
    stored = await snapshotChunks(db, sheetId, below, span);
    // The delta snapshots in order, the op log before each one that starts later than the last ended (after a clear) and after the last.
    const cells = await deltaCells(db, sheetId, fwd.used);
    ops = [];
    let at = below;
    for (const [i, d] of fwd.used.entries()) {
      ops.push(...(await opsBetween(db, sheetId, at, d.from, 'asc')), cells[i]);
      at = d.to;
    }
    ops.push(...(await opsBetween(db, sheetId, at, version, 'asc')));
    direction = 'forward';
  } else {
    // The live grid is a snapshot of the live version that is always there.
    stored = above === liveVersion ? await liveChunks(db, sheetId, span) : await snapshotChunks(db, sheetId, above, span);
    ops = [
      ...(await opsBetween(db, sheetId, bwd.opsAbove, above, 'desc')),
      ...(await deltaCells(db, sheetId, bwd.used)),
      ...(await opsBetween(db, sheetId, version, bwd.opsBelow, 'desc')),
    ];
    direction = 'backward';
  }
  const { rows: heads } = await sql<{ headers: string[] }>`SELECT headers FROM sheet_version_headers WHERE sheet_id = ${sheetId}::uuid
    ORDER BY (version <= ${version}::int) DESC, CASE WHEN version <= ${version}::int THEN -version ELSE version END LIMIT 1`.execute(db);

  // The rows as segments: the stored chunks, then (for rows past them, written by later ops) segments of CHUNK_ROWS rows.
  const { texts } = stored;
  const sizes = [...stored.sizes];
  const starts: number[] = [];
  let storedRows = 0;
  for (const n of sizes) {
    starts.push(storedRows);
    storedRows += n;
  }
  const segmentOf = (row: number): number => {
    if (row >= storedRows) return texts.length + Math.floor((row - storedRows) / CHUNK_ROWS);
    return segmentHolding(starts, row);
  };
  const startOf = (segment: number) => (segment < texts.length ? starts[segment] : storedRows + (segment - texts.length) * CHUNK_ROWS);
  const sizeOf = (segment: number) => (segment < texts.length ? sizes[segment] : CHUNK_ROWS);

  // Steps by segment, in replay order (a clear in each segment its block's rows reach).
  const byChunk = new Map<number, ReplayStep[]>();
  const add = (segment: number, step: ReplayStep) => {
    const lists = byChunk.get(segment);
    if (lists) lists.push(step);
    else byChunk.set(segment, [step]);
  };
  for (const step of ops) {
    if (isClear(step)) {
      const { start, count } = step.clear.rows;
      if (count > 0) for (let segment = segmentOf(start), last = segmentOf(start + count - 1); segment <= last; segment++) add(segment, step);
      continue;
    }
    const split = new Map<number, CellDelta[]>();
    for (const d of step) {
      const segment = segmentOf(d.row);
      const list = split.get(segment) ?? [];
      list.push(d);
      split.set(segment, list);
    }
    for (const [chunk, list] of split) add(chunk, list);
  }
  const parsed = new Map<number, CellValue[][]>();
  const rowsOf = (chunk: number) => {
    let rows = parsed.get(chunk);
    if (!rows) {
      rows = chunk < texts.length ? (JSON.parse(texts[chunk]) as CellValue[][]) : [];
      parsed.set(chunk, rows);
    }
    return rows;
  };
  let rowCount: number;
  let colCount: number;
  if (shape) ({ row_count: rowCount, col_count: colCount } = shape);
  else {
    // History older than the versions migration: the shape is what a replay of whole chunks gives.
    for (const [chunk, list] of byChunk) applySteps(rowsOf(chunk), list, direction, startOf(chunk));
    const lastTouched = Math.max(-1, ...[...parsed].filter(([, r]) => r.length > 0).map(([c, r]) => startOf(c) + r.length));
    const lastText = texts.length > 0 ? startOf(texts.length - 1) + rowsOf(texts.length - 1).length : 0;
    rowCount = Math.max(lastTouched, lastText);
    colCount = 0;
    for (const rows of parsed.values()) for (const row of rows) colCount = Math.max(colCount, row.length);
  }
  const count = rowCount === 0 ? 0 : segmentOf(rowCount - 1) + 1;
  // Every segment is whole but the last stored one and the one the version ends in: those are parsed, cut or filled.
  const ends = new Set([texts.length - 1, count - 1]);
  const chunks: string[] = [];
  const outSizes: number[] = [];
  let rewritten = 0;
  for (let chunk = 0; chunk < count; chunk++) {
    const list = byChunk.get(chunk);
    const first = startOf(chunk);
    const length = Math.min(sizeOf(chunk), rowCount - first);
    outSizes.push(length);
    if (span && (first >= span.end || first + length <= span.start)) {
      chunks.push('');
      continue;
    }
    if (shape && !ends.has(chunk) && chunk < texts.length) {
      // A clear is applied to the parsed rows (below): a text patch writes cells, it does not empty a block.
      const patched = !list ? texts[chunk] : list.some(isClear) ? undefined : patchChunkText(texts[chunk], list as CellDelta[][], direction, first, colCount);
      if (patched !== undefined) {
        chunks.push(patched);
        continue;
      }
    }
    if (!parsed.has(chunk) && !list && !ends.has(chunk) && chunk >= texts.length) {
      chunks.push(JSON.stringify(Array.from({ length }, () => [])));
      continue;
    }
    const fresh = !parsed.has(chunk);
    const rows = rowsOf(chunk);
    if (fresh && list) applySteps(rows, list, direction, first);
    rows.length = Math.min(rows.length, length);
    while (rows.length < length) rows.push([]);
    for (const row of rows) {
      if (row.length > colCount) row.length = colCount;
      while (row.length < colCount) row.push('');
    }
    chunks.push(JSON.stringify(rows));
    // A clear replayed parses every chunk its block reaches: the event loop is let go now and then.
    if (++rewritten % REBUILD_YIELD_CHUNKS === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return { headers: normalizeHeaders(heads[0]?.headers ?? [], colCount), rowCount, colCount, chunks, sizes: outSizes };
}

/**
 * Chunks parsed and written again by a rebuild between two turns of the event loop. A whole column
 * cleared is replayed in every chunk (parsed, emptied, written: ~1 ms each): a rebuild batch of 100
 * such chunks held the loop 0.2-0.3 s under load 6-7 (bench/clear-versions.mjs), stored text 0.03-0.05 s.
 */
const REBUILD_YIELD_CHUNKS = 20;

/** Chunks per transaction of rebuildInBatches: 50,000 rows, ~30–80 ms of a 1,000,000-row version's rebuild. */
export const REBUILD_BATCH_CHUNKS = 100;

/**
 * A version rebuilt whole, as rebuildChunks gives it, `batchChunks` chunks at a time (`rebuildSpan`:
 * rebuildChunks of a span, each in its own transaction): between batches other requests get the
 * database (PGlite has one session: a whole rebuild of a 1,000,000-row version held it 0.4–0.9 s, and
 * the preview's next window waited as long). A version's rows never change, but the layout they are
 * rebuilt from may (the live grid saved meanwhile): then it is given up (throws), not stitched wrong.
 */
export async function rebuildInBatches(rebuildSpan: (span: RowSpan) => Promise<RebuiltChunks>, batchChunks = REBUILD_BATCH_CHUNKS): Promise<RebuiltChunks> {
  const first = await rebuildSpan({ start: 0, end: batchChunks * CHUNK_ROWS });
  const chunks = [...first.chunks];
  const starts: number[] = [];
  let rows = 0;
  for (const n of first.sizes) {
    starts.push(rows);
    rows += n;
  }
  // A chunk of no rows is never in a span: its text is that of no rows.
  for (const [i, n] of first.sizes.entries()) if (n === 0) chunks[i] = '[]';
  for (let p = chunks.indexOf(''); p !== -1; p = chunks.indexOf('', p)) {
    const q = Math.min(p + batchChunks, chunks.length);
    const next = await rebuildSpan({ start: starts[p], end: starts[q - 1] + first.sizes[q - 1] });
    if (next.sizes.length !== first.sizes.length || next.sizes.some((n, i) => n !== first.sizes[i])) {
      throw new Error('The layout of the version changed while it was rebuilt');
    }
    for (let i = p; i < q; i++) chunks[i] = next.chunks[i];
    if (chunks[p] === '') throw new Error(`Chunk ${p} was not rebuilt`);
  }
  return { ...first, chunks };
}

/**
 * A version's chunk texts with cells written (a proposal made of changes on it): only the chunks
 * the changes touch are parsed; changes past its last row go into rows appended after it (empty
 * but for them), as applyDeltas on the whole grid would write them.
 */
export function chunksWithChanges(content: Pick<RebuiltChunks, 'chunks' | 'sizes' | 'rowCount'>, changes: readonly CellDelta[]): string[] {
  const starts: number[] = [];
  let first = 0;
  for (const n of content.sizes) {
    starts.push(first);
    first += n;
  }
  const byChunk = new Map<number, CellDelta[]>();
  const past: CellDelta[] = [];
  for (const c of changes) {
    if (c.row >= content.rowCount) past.push(c);
    else {
      const p = segmentHolding(starts, c.row);
      const list = byChunk.get(p) ?? [];
      list.push(c);
      byChunk.set(p, list);
    }
  }
  const chunks = [...content.chunks];
  for (const [p, list] of byChunk) {
    const rows = JSON.parse(chunks[p]) as CellValue[][];
    applyDeltas(rows, [list], 'forward', starts[p]);
    chunks[p] = JSON.stringify(rows);
  }
  if (past.length > 0) {
    const rows: CellValue[][] = [];
    applyDeltas(rows, [past], 'forward', content.rowCount);
    chunks.push(JSON.stringify(rows));
  }
  return chunks;
}
