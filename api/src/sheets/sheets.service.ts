import crypto from 'node:crypto';
import {
  type AccessLevel,
  type CellPatchBody,
  type CellPatchResult,
  type CellValue,
  CHART_TEXTS,
  type ChartBox,
  type ChartRange,
  type ChartDefinition,
  type ChartsResult,
  type CreateSheetBody,
  type ColumnFilterBody,
  type FindQuery,
  type FindResult,
  FilterValuesScan,
  RowFilterScan,
  type SheetFilterBody,
  type SheetFilterResult,
  type SheetFilterValuesBody,
  type SheetFilterValuesResult,
  hasFormula,
  opensWindowed,
  WINDOWED_SHEET_MIN_ROWS,
  DEFAULT_SHEET_NAME,
  ERROR_CODES,
  type GridData,
  NEW_SHEET_DEFAULT,
  NEW_SHEET_IN_GROUP_DEFAULT,
  normalizeHeaders,
  moveCharts,
  SHEET_MAX_CELLS_DEFAULT,
  SHEET_MAX_CHARTS,
  type SheetConflictDetails,
  type SheetList,
  type SheetListQuery,
  type SheetRows,
  type SheetRowsQuery,
  type SheetSummary,
  type UpdateSheetBody,
  duplicateSheetName,
  applyOrder,
  SORT_MAX_ROWS,
  SORT_TEXTS,
  type SortDirection,
  sortOrder,
  packOrder,
  inverseOrder,
  blockInside,
  CLEAR_TEXTS,
  type ClearBlock,
  clearedPlacesThrough,
  placesSpan,
  STRUCTURE_UNDO_TEXTS,
} from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { grantCreator } from '../access/creator-grant.js';
import type { Visibility } from '../access/access.service.js';
import { HttpError } from '../http/http-error.js';
import { type ChunkLayout, emptyRows, widthOf } from './cell-grid.js';
import { chunkChanges, type GridChunks, sameChunkSizes } from './chunk-diff.js';
import { changesSince, type Conflict, diffGrids, mergeGrid, patchConflicts } from './merge.js';
import { freeSheetName, lockNames } from './sheet-names.js';
import { type SheetRow, toSheetSummary } from './sheet.mapper.js';
import { GridCache, LayoutCache, LoadedChunkCache } from './grid-cache.js';
import { readRowWindow } from './row-window.js';
import { columnSpanOf } from './window-text.js';
import { FIND_ATTEMPTS, findInSheet, rowsMovedSince } from './sheet-find.js';
import { requireColumnsInSheet, scanSheetRows } from './sheet-filter.js';
import { grownSize, requireSheetSize, requireStructureSize } from './sheet-size.js';
import { NavigationFeed, SheetChangeFeed } from './sheet-changes.js';
import { type StoredClearOp, type StoredClearUndoOp, type StoredMoveOp, type StoredSortOp, type StoredStructureOp, storedSortOrder, withOpIds } from './sheet-ops.tables.js';
import { SORT_IN_PROCESS_MAX_ROWS, SORT_WRITE_CHUNKS, sortInWorker } from './sheet-sort.js';
import { baseAhead, moveCells, moveChartBoxTo, moveChartRangeTo, moveClearBlock, moveSortColumn, moveStructure, stepsAfter, StructureLog } from './sheet-ops.transform.js';
import { clearBlockInChunks } from './clear-block.js';
import { putBackInChunks } from './clear-undo.js';
import { rebuildChunks, UnrebuildableVersionError } from '../versions/version-rebuild.js';
import { restructure, structureError } from './structure-op.js';
import { removedPlaces } from './structure-undo.js';
import { type GridText, writeGridText } from './grid-text-writer.js';
import { snapshotEvery } from '../versions/version-recorder.js';
import { type PreparedQuery, preparedQuery } from '../db/prepared-query.js';
import { JointCommits, JointPartError, type JointSheet } from './joint-commits.js';
import { isPooledDatabase } from '../db/database.js';
import { recordCharts, sameCharts, storedCharts } from '../charts/chart-store.js';
import {
  appendCellOps,
  appendOp,
  applyCellChangeSets,
  type CellGroupWrite,
  writeCellGroups,
  writeChunkRows,
  readChunksInSlices,
  chunkRowsAt,
  copyChunks,
  applyCellChanges,
  joinChunkTexts,
  insertRows,
  loadChunks,
  opsAfter,
  readChunkTexts,
  readGrid,
  readLayout,
  removeRows,
  replaceGrid,
  exactHeldCells,
  rowsToLoad,
  type RowsWrite,
  writeNewGrid,
} from './sheet-store.js';

export const SHEET_NOT_FOUND = 'Sheet not found';
/** A filter whose sheet's rows kept moving (FIND_ATTEMPTS scans) while it scanned. */
export const FILTER_ROWS_MOVED = 'The sheet\'s rows kept moving while it was filtered: try again';
export const GROUP_NOT_FOUND = 'Group not found';

export const notFound = (message: string) => new HttpError(404, ERROR_CODES.notFound, message);

function conflictError(currentVersion: number, conflicts: Conflict[]): HttpError {
  const details: SheetConflictDetails = { current_version: currentVersion, conflicts: conflicts.slice(0, 100) };
  const where = conflicts
    .slice(0, 3)
    .map((c) => `row ${c.row + 1}, column ${c.col + 1}`)
    .join('; ');
  return new HttpError(
    409,
    ERROR_CODES.conflict,
    `The sheet changed since the version you edited (now version ${currentVersion}); the same cell was changed: ${where}`,
    details,
  );
}

/** What a live write answers: the version made, or with `duplicate` the version the same operation id made before. */
export type LiveWriteResult = CellPatchResult & { duplicate?: true };

/** One live cell operation of a group commit (patchCellsBatch). */
export interface LiveCellWrite {
  changes: CellPatchBody['changes'];
  userId: string;
  opId: string;
  /** The version its client had applied (sheet-ops.transform.ts); undefined: applies to the sheet as it is. */
  baseVersion?: number;
  /** An AI or code result: its commit sets the sheet's metadata.lastAIUpdate. */
  ai?: boolean;
}

/** What became of one live cell write: written (with the cells as they landed, moved through rows and columns since its base), or refused. */
export type LiveCellOutcome = (LiveWriteResult & { changes: CellPatchBody['changes'] }) | { refused: HttpError };

export interface NewSheet {
  name: string;
  groupId: string | null;
  position?: number;
  headers?: string[];
  data: GridData;
  /** Instead of `data` (an import): the rows as the JSON text of their chunks, written as it is; `onStored` hears the rows stored so far. */
  text?: GridText & { columns: number; onStored?: (rows: number) => void };
  /** The sheet's width when wider than its data and headers (an empty sheet sized by metadata stores its rows as []). */
  columns?: number;
  description?: string;
  tags?: string[];
  extra?: Record<string, unknown>;
  userId: string | null;
  kind: string;
}

/** What a rehearsed group leaves the next one, as the layout and chunk caches do for real groups. */
interface Carried {
  version: number;
  layout: ChunkLayout;
  storedChunks: Map<number, CellValue[][]>;
}

/** Thrown to roll a rehearsal back (rehearseCellGroups). */
const REHEARSED = Symbol('rehearsed');

/** Sheets: metadata in `sheets`, cells in row chunks, one op-log row per version. */
export class SheetsService {
  /** Committed changes, for the live socket (src/live). */
  readonly changes = new SheetChangeFeed();
  /** Sheets created, renamed, moved, favourited or deleted, for the workspace socket (src/live). */
  readonly navigation = new NavigationFeed();
  /** Recent rows and columns inserted or removed, for moving live ops from their base version (sheet-ops.transform.ts). */
  private readonly structure = new StructureLog(this.changes);
  /** A process 'sheet read' transfer slot (waited for, TransferSlots.wait): a large sort reads the whole sheet under one (the app sets it). */
  readSlot?: () => Promise<() => void>;

  constructor(
    private readonly db: Kysely<Database>,
    /** SHEET_MAX_CELLS: no path grows a sheet beyond this many cells (rows × columns). */
    readonly maxCells = SHEET_MAX_CELLS_DEFAULT,
    private readonly cache = new GridCache(),
  ) {
    // Not on PostgreSQL: its pool commits sheets in parallel; sharing transactions there cut the api's CPU per
    // group by a fifth but not the p99 (bench/live.mjs, 100 sheets at 1,000 ops/s: 1.1-1.3 s against 0.8-1.0).
    this.joint = isPooledDatabase(db)
      ? undefined
      : new JointCommits(
          db,
          (trx, sheets, deferred) => this.prefetchGroups(trx, sheets, deferred),
          (trx) => this.finishGroups(trx),
        );
    this.lockQuery = preparedQuery(db, (h) => db.selectFrom('sheets').selectAll().where('id', '=', h('id')).forUpdate());
    this.knownOpsQuery = preparedQuery(db, (h) =>
      withOpIds(db)
        .selectFrom('sheet_ops')
        .select(['op_id', 'version', 'created_at'])
        .where('sheet_id', '=', h('id'))
        // One text whatever the number of ids (an array, not a parameter per id).
        .where(sql<boolean>`op_id = ANY(${h('ids')}::text[])`),
    );
    // The same two for every sheet of a shared transaction (joint-commits.ts), locked in the order of their ids.
    // With the transaction's now(): the updated_at that the sheets' rows get (finishGroups writes them after their parts answered).
    this.lockManyQuery = preparedQuery(db, (h) =>
      db.selectFrom('sheets').selectAll().select(sql<Date>`now()`.as('joint_now')).where(sql<boolean>`id = ANY(${h('ids')}::uuid[])`).orderBy('id').forUpdate(),
    );
    this.knownManyQuery = preparedQuery(db, (h) =>
      withOpIds(db)
        .selectFrom('sheet_ops')
        .select(['sheet_id', 'op_id', 'version', 'created_at'])
        .where(sql<boolean>`sheet_id = ANY(${h('ids')}::uuid[])`)
        .where(sql<boolean>`op_id = ANY(${h('opIds')}::text[])`),
    );
    const groupUpdate = (headers: boolean, ai: boolean) =>
      preparedQuery(db, (h) =>
        db
          .updateTable('sheets')
          .set({
            version: h('version'),
            row_count: h('rowCount'),
            col_count: h('colCount'),
            ...(headers ? { headers: h('headers') } : {}),
            ...(ai ? { extra: sql`extra || jsonb_build_object('lastAIUpdate', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))` } : {}),
            updated_at: sql`now()`,
          })
          .where('id', '=', h('id'))
          .returning('updated_at'),
      );
    this.groupUpdateQueries = [groupUpdate(false, false), groupUpdate(true, false), groupUpdate(false, true), groupUpdate(true, true)];
  }

  // The statements every live group commit runs, compiled once (preparedQuery).
  /** Live groups of different sheets ready together: one transaction (cross-sheet group commit; PGlite only). */
  private readonly joint: JointCommits | undefined;
  private readonly lockQuery: PreparedQuery<SheetRow, 'id'>;
  private readonly knownOpsQuery: PreparedQuery<{ op_id: string | null; version: number; created_at: Date }, 'id' | 'ids'>;
  private readonly lockManyQuery: PreparedQuery<SheetRow & { joint_now: Date }, 'ids'>;
  private readonly knownManyQuery: PreparedQuery<{ sheet_id: string; op_id: string | null; version: number; created_at: Date }, 'ids' | 'opIds'>;
  /** What a shared transaction read first for its sheets (prefetchGroups), for their parts. */
  private readonly prefetched = new WeakMap<
    Transaction<Database>,
    {
      rows: Map<string, SheetRow>;
      known: Map<string, { op_id: string | null; version: number; created_at: Date }[]>;
      /** When the parts leave their writes to finishGroups: those left so far, and the transaction's now() (the rows' updated_at). */
      deferred?: { groups: CellGroupWrite[]; now: Date };
    }
  >();
  /** The group's sheets row update, by [headers changed] + 2 × [an AI write]. */
  private readonly groupUpdateQueries: PreparedQuery<{ updated_at: Date }, 'id' | 'version' | 'rowCount' | 'colCount' | 'headers'>[];

  /** Chunk layouts by sheet version (cell-grid.ts ChunkLayout): a cell write finds its chunks without reading them all. */
  private readonly layouts = new LayoutCache();
  /** The chunks the last live group of a sheet wrote, parsed, for its next group (LoadedChunkCache). */
  private readonly loadedChunks = new LoadedChunkCache();

  /** The stored layout of a sheet whose row the caller locked at `version`. */
  private async layoutOf(trx: Transaction<Database>, id: string, version: number): Promise<ChunkLayout> {
    return this.layouts.get(id, version) ?? (await readLayout(trx, id));
  }

  private favoriteExpr(userId: string) {
    return sql<boolean>`EXISTS (SELECT 1 FROM sheet_favorites f WHERE f.sheet_id = sheets.id AND f.user_id = ${userId}::uuid)`;
  }

  async summary(db: Kysely<Database> | Transaction<Database>, id: string, userId: string, access?: AccessLevel): Promise<SheetSummary> {
    const row = await db.selectFrom('sheets').selectAll().select(this.favoriteExpr(userId).as('fav')).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(SHEET_NOT_FOUND);
    return toSheetSummary(row, row.fav, access);
  }

  /**
   * The sheet as JSON text: its summary (with the caller's access level) and the grid's stored text
   * spliced in unparsed. With `window` (GET /sheets/:id?window=N), a sheet the client shows a
   * window at a time (opensWindowed) comes with its first `window` rows only, marked windowed.
   * `beforeWhole` is told the size of the stored text before a whole grid is read (it may refuse:
   * the route's slot for a whole sheet read, transfer-slots.ts).
   */
  async getJson(id: string, userId: string, access?: AccessLevel, window?: number, beforeWhole?: (bytes: number) => void): Promise<string> {
    // One snapshot for the version and the cells, so the pair is always consistent.
    return this.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      let summary = await this.summary(trx, id, userId, access);
      // A large sheet that may have formulas opens windowed when the engine could not take them
      // anyway (opensWindowed): its count of held cells decides, and the client's notice shows it.
      if (window !== undefined && summary.metadata.rows >= WINDOWED_SHEET_MIN_ROWS && summary.may_have_formulas !== false) {
        const held = await exactHeldCells(trx, id);
        if (held !== undefined) summary = { ...summary, held_cells: held };
      }
      if (window !== undefined && opensWindowed(summary)) {
        const data = await readRowWindow(trx, id, 0, Math.min(window, summary.metadata.rows));
        return JSON.stringify({ ...summary, windowed: true, data });
      }
      beforeWhole?.(summary.metadata.size ?? Number.POSITIVE_INFINITY);
      let chunks = this.cache.get(id, summary.version);
      if (!chunks) {
        chunks = await readChunkTexts(trx, id);
        this.cache.set(id, summary.version, chunks);
      }
      return `${JSON.stringify(summary).slice(0, -1)},"data":${joinChunkTexts(chunks)}}`;
    });
  }

  /**
   * Rows [start, start + count) of a sheet with its version and size, for a client that shows a
   * large sheet a window at a time: only the chunks overlapping the window are read; with col_start
   * and col_count, only those columns of each row (parsed out of the chunks' text, window-text.ts).
   */
  async rowWindow(id: string, query: SheetRowsQuery, userId = '00000000-0000-0000-0000-000000000000', access?: AccessLevel): Promise<SheetRows> {
    // One snapshot for the version, the size and the rows, so they always go together.
    return this.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      const sheet = await trx.selectFrom('sheets').select(['version', 'row_count', 'col_count']).where('id', '=', id).executeTakeFirst();
      if (!sheet) throw notFound(SHEET_NOT_FOUND);
      const columns = columnSpanOf(query);
      const data = query.start >= sheet.row_count ? [] : await readRowWindow(trx, id, query.start, Math.min(query.count, sheet.row_count - query.start), columns);
      // The summary a windowed grid opens with (its name, headers, charts, the caller's level), at the window's version.
      const summary = query.summary ? { sheet: await this.summary(trx, id, userId, access) } : {};
      return { id, version: sheet.version, row_count: sheet.row_count, column_count: sheet.col_count, start: query.start, data, ...(columns ? { col_start: columns.start } : {}), ...summary };
    });
  }

  /**
   * The next matches of a find and their count (sheet-find.ts), read a window at a time, each window
   * its own statement: not one snapshot, since a scan takes seconds on a million rows and PGlite has
   * one session (a transaction around it would hold every other sheet's commits that long). Cells
   * edited meanwhile may or may not be seen (the client checks the rows it holds); when rows moved
   * meanwhile (a row or column op, a whole-grid change) the scan starts again, FIND_ATTEMPTS at most.
   * With `filters` (the user's row filter, every column within the sheet), only the rows they show.
   */
  async find(id: string, query: FindQuery, closed: () => boolean = () => false, filters?: readonly ColumnFilterBody[]): Promise<FindResult> {
    for (let attempt = 1; ; attempt++) {
      const sheet = await this.db.selectFrom('sheets').select(['version', 'row_count', 'col_count']).where('id', '=', id).executeTakeFirst();
      if (!sheet) throw notFound(SHEET_NOT_FOUND);
      if (filters) requireColumnsInSheet(filters.map((f) => f.column), sheet.col_count);
      const found = await findInSheet(this.db, id, sheet.row_count, query, closed, filters);
      if (attempt >= FIND_ATTEMPTS || closed() || !(await rowsMovedSince(this.db, id, sheet.version))) return { id, version: sheet.version, row_count: sheet.row_count, ...found };
    }
  }

  /**
   * The rows a windowed sheet's filter shows (POST /sheets/:id/filter), judged here over the stored
   * rows (sheet-filter.ts), a window at a time, each its own statement as find's (the same reasons).
   * The answer's version is the one read before the scan: a cell edited after it may or may not have
   * been seen, and the client judges the rows edited after that version again (as a whole grid judges
   * others' edits), so either is right. When rows moved meanwhile the scan starts again, FIND_ATTEMPTS
   * at most, then it is refused (409): the runs would be of rows no longer where they were.
   */
  async filterRows(id: string, body: SheetFilterBody, closed: () => boolean = () => false): Promise<SheetFilterResult> {
    const { sheet, scan } = await this.scanFiltered(id, body.filters.map((f) => f.column), () => new RowFilterScan(body.filters), closed);
    return { id, version: sheet.version, row_count: sheet.row_count, ...scan.result(sheet.row_count) };
  }

  /** A column's values for a windowed sheet's filter dialog (POST /sheets/:id/filter/values), scanned as filterRows. */
  async filterValues(id: string, body: SheetFilterValuesBody, closed: () => boolean = () => false): Promise<SheetFilterValuesResult> {
    const columns = [...body.filters.map((f) => f.column), body.column];
    const { sheet, scan } = await this.scanFiltered(id, columns, () => new FilterValuesScan(body.filters, body.column, body.search, body.all), closed);
    return { id, version: sheet.version, ...scan.result() };
  }

  private async scanFiltered<S extends { feed(rows: CellValue[][], first: number): void }>(id: string, columns: number[], start: () => S, closed: () => boolean): Promise<{ sheet: { version: number; row_count: number }; scan: S }> {
    for (let attempt = 1; ; attempt++) {
      const sheet = await this.db.selectFrom('sheets').select(['version', 'row_count', 'col_count']).where('id', '=', id).executeTakeFirst();
      if (!sheet) throw notFound(SHEET_NOT_FOUND);
      requireColumnsInSheet(columns, sheet.col_count);
      const scan = start();
      // The client gone: whatever is answered goes nowhere.
      if (!(await scanSheetRows(this.db, id, sheet.row_count, (rows, first) => scan.feed(rows, first), closed))) return { sheet, scan };
      if (!(await rowsMovedSince(this.db, id, sheet.version))) return { sheet, scan };
      if (attempt >= FIND_ATTEMPTS) throw HttpError.conflict(FILTER_ROWS_MOVED);
    }
  }

  /** The whole sheet, parsed (a whole page's live sync: live-hub.ts takes a 'sheet read' slot around it). */
  async readGrid(id: string): Promise<{ summary: SheetSummary; data: GridData }> {
    return this.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      const summary = await this.summary(trx, id, '00000000-0000-0000-0000-000000000000');
      return { summary, data: await readGrid(trx, id) };
    });
  }

  /** The sheet's summary without its cells (a windowed page's sync: its size, name and headers). */
  async readSummary(id: string): Promise<SheetSummary> {
    return this.summary(this.db, id, '00000000-0000-0000-0000-000000000000');
  }

  /**
   * One page of the sheets the member can see: the matching ids are read whole and filtered by
   * their access (a page of the database would count sheets they cannot see), then the page's
   * rows are read.
   */
  async list(query: SheetListQuery, userId: string, visibility: Visibility): Promise<SheetList> {
    let base = this.db.selectFrom('sheets').where('trashed_in', 'is', null);
    if (query.search?.trim()) {
      const pattern = `%${query.search.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      base = base.where((eb) =>
        eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern), eb(sql`tags::text`, 'ilike', pattern)]),
      );
    }
    if (query.favorites === 'true') base = base.where(this.favoriteExpr(userId));
    if (query.group_id === 'root') base = base.where('group_id', 'is', null);
    else if (query.group_id) base = base.where('group_id', '=', query.group_id);
    const candidates = await base.select(['id', 'group_id', 'trashed_in']).orderBy(query.sort, query.order).orderBy('id').execute();
    const visible = candidates.filter((c) => visibility.sheet(c) !== 'none');
    const page = visible.slice(query.offset, query.offset + query.limit);
    if (page.length === 0) return { sheets: [], count: visible.length };
    const rows = await this.db
      .selectFrom('sheets')
      .selectAll()
      .select(this.favoriteExpr(userId).as('fav'))
      .where('id', 'in', page.map((p) => p.id))
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const sheets = page.flatMap((p) => {
      const row = byId.get(p.id);
      return row ? [toSheetSummary(row, row.fav, visibility.sheet(row))] : [];
    });
    return { sheets, count: visible.length };
  }

  /** Inserts a sheet with a unique name inside the caller's transaction; returns its id and name. */
  async insert(trx: Transaction<Database>, sheet: NewSheet): Promise<{ id: string; name: string }> {
    await lockNames(trx);
    if (sheet.groupId) await this.requireGroup(trx, sheet.groupId);
    const name = await freeSheetName(trx, sheet.name);
    const id = crypto.randomUUID();
    const rows = sheet.text ? sheet.text.rows : sheet.data.length;
    const columns = Math.max(sheet.text ? sheet.text.columns : widthOf(sheet.data), sheet.headers?.length ?? 0, sheet.columns ?? 0);
    requireSheetSize(rows, columns, this.maxCells);
    const position = sheet.position ?? (await this.nextPosition(trx, sheet.groupId));
    await trx
      .insertInto('sheets')
      .values({
        id,
        name,
        group_id: sheet.groupId,
        position,
        version: 1,
        row_count: rows,
        col_count: columns,
        headers: JSON.stringify(normalizeHeaders(sheet.headers ?? [], columns)),
        description: sheet.description ?? '',
        tags: JSON.stringify(sheet.tags ?? []),
        extra: JSON.stringify(sheet.extra ?? {}),
        created_by: sheet.userId,
      })
      .execute();
    if (sheet.text) await writeGridText(trx, id, sheet.text, 1, sheet.text.onStored);
    else await writeNewGrid(trx, id, sheet.data, 1);
    await appendOp(trx, { sheetId: id, version: 1, kind: sheet.kind, userId: sheet.userId, changes: null });
    await grantCreator(trx, { type: 'sheet', id }, sheet.userId);
    return { id, name };
  }

  async create(body: CreateSheetBody, userId: string): Promise<SheetSummary & { data: GridData }> {
    const groupId = body.group_id ?? null;
    const defaults = groupId ? NEW_SHEET_IN_GROUP_DEFAULT : NEW_SHEET_DEFAULT;
    // Charts are made through their own routes (validated, versioned), never as loose metadata.
    const { rows = defaults.rows, columns = defaults.columns, charts: _charts, size: _size, ...extra } = body.metadata ?? {};
    // Checked before the empty grid is allocated (insert checks again what it stores).
    if (body.data) requireSheetSize(body.data.length, Math.max(widthOf(body.data), body.headers?.length ?? 0), this.maxCells);
    else requireSheetSize(rows, Math.max(columns, body.headers?.length ?? 0), this.maxCells);
    // Sized by metadata: empty rows of no cells; the width is the sheet's col_count.
    const data = body.data ?? emptyRows(rows);
    const created = await this.db.transaction().execute(async (trx) => {
      const { id } = await this.insert(trx, {
        name: body.name ?? body.title ?? DEFAULT_SHEET_NAME,
        groupId,
        position: body.position,
        headers: body.headers,
        data,
        columns: body.data ? undefined : columns,
        description: body.description,
        tags: body.tags,
        extra: body.settings ? { ...extra, settings: body.settings } : extra,
        userId,
        kind: 'create',
      });
      return { ...(await this.summary(trx, id, userId)), data };
    });
    this.announce('sheet_created', created, userId);
    return created;
  }

  /** Tells the workspace that a sheet appeared or changed in the navigation (import announces its own). */
  announce(type: 'sheet_created' | 'sheet_updated', sheet: { id: string; name: string; group_id: string | null }, userId: string): void {
    this.navigation.emit({ type, id: sheet.id, userId, name: sheet.name, parentId: sheet.group_id });
  }

  private async lockSheet(trx: Transaction<Database>, id: string): Promise<SheetRow> {
    const [row] = (await this.lockQuery(trx, { id })).rows;
    if (!row) throw notFound(SHEET_NOT_FOUND);
    return row;
  }

  async requireGroup(db: Kysely<Database> | Transaction<Database>, groupId: string): Promise<void> {
    const group = await db.selectFrom('groups').select('id').where('id', '=', groupId).executeTakeFirst();
    if (!group) throw notFound(GROUP_NOT_FOUND);
  }

  private async nextPosition(trx: Transaction<Database>, groupId: string | null): Promise<number> {
    const { p } = await trx
      .selectFrom('sheets')
      .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('p'))
      .where(sql<boolean>`group_id IS NOT DISTINCT FROM ${groupId}::uuid`)
      .executeTakeFirstOrThrow();
    return p;
  }

  /** PUT: metadata fields, and with `data` a new grid, merged cell by cell when based on an older version. */
  async update(
    id: string,
    body: UpdateSheetBody,
    userId: string,
    /**
     * charts: a restore's or checkout's charts (those of the version it brings back); grid: its
     * grid as stored text (instead of `body.data`), compared with the live one chunk by chunk.
     */
    opts: { acceptedVersionId?: string; charts?: ChartDefinition[]; grid?: GridChunks } = {},
  ): Promise<SheetSummary> {
    try {
      const { summary, navigationChanged, layout } = await this.updateInTransaction(id, body, userId, opts.charts, opts.grid);
      // A save without cells leaves the grid as it was at the previous version.
      if (body.data === undefined && opts.grid === undefined) this.cache.patch(id, summary.version, new Map());
      else this.cache.delete(id);
      if (layout) this.layouts.set(id, summary.version, layout);
      // An accepted proposal is announced before the sync its new version brings.
      if (opts.acceptedVersionId) this.changes.emit({ sheetId: id, kind: 'accepted', versionId: opts.acceptedVersionId, version: summary.version });
      this.changes.emit({ sheetId: id, version: summary.version, kind: 'sheet', userId });
      if (navigationChanged) this.announce('sheet_updated', summary, userId);
      return summary;
    } catch (err) {
      this.cache.delete(id);
      throw err;
    }
  }

  private async updateInTransaction(
    id: string,
    body: UpdateSheetBody,
    userId: string,
    charts?: ChartDefinition[],
    grid?: GridChunks,
  ): Promise<{ summary: SheetSummary; navigationChanged: boolean; layout?: ChunkLayout }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockSheet(trx, id);
      const baseVersion = body.base_version ?? body.version ?? row.version;
      if (baseVersion > row.version) throw conflictError(row.version, []);
      const version = row.version + 1;
      const set: Record<string, unknown> = { version, updated_at: sql`now()` };
      const newName = body.name ?? body.title;
      if (newName !== undefined && newName !== row.name) {
        await lockNames(trx);
        set.name = await freeSheetName(trx, newName, id);
      }
      if (body.description !== undefined) set.description = body.description;
      if (body.tags !== undefined) set.tags = JSON.stringify(body.tags);
      if (body.metadata !== undefined) {
        // charts: changed only through the chart routes (a client's save sends back what it read).
        const { headers: _h, description, tags, rows: _r, columns: _c, groupId: _g, position: _p, category: _k, charts: _charts, size: _s, ...extra } = body.metadata;
        if (typeof description === 'string' && body.description === undefined) set.description = description;
        if (Array.isArray(tags) && body.tags === undefined) set.tags = JSON.stringify(tags.map(String));
        set.extra = JSON.stringify({ ...row.extra, ...extra });
      }
      const chartsChanged = charts !== undefined && !sameCharts(charts, storedCharts(row.extra));
      if (chartsChanged) set.extra = JSON.stringify({ ...(set.extra ? JSON.parse(set.extra as string) : row.extra), charts });
      if (body.group_id !== undefined && body.group_id !== row.group_id) {
        if (body.group_id) await this.requireGroup(trx, body.group_id);
        set.group_id = body.group_id;
        set.position = body.position ?? (await this.nextPosition(trx, body.group_id));
      } else if (body.position !== undefined) set.position = body.position;

      let columns = row.col_count;
      let changes = null as ReturnType<typeof diffGrids> | null;
      let layout: ChunkLayout | undefined;
      let data = body.data;
      if (grid !== undefined && data === undefined) {
        const now = await this.layoutOf(trx, id, row.version);
        if (baseVersion === row.version && grid.colCount === row.col_count && sameChunkSizes(now.sizes, grid)) {
          // Laid out as the live grid: only the chunks that differ are parsed, and their changed cells written.
          const { changes: cells, loaded } = chunkChanges(await readChunkTexts(trx, id), grid);
          const written = await applyCellChanges(trx, id, now, cells.map((c) => ({ row: c.row, col: c.col, value: c.new })), version, loaded);
          changes = written.deltas;
          layout = written.layout;
          // Without formulas before and none written: none now. Else the whole grid is known here too, as text (a scan of
          // ~0.3 s at 10M cells): a formula cell's JSON starts `"=` (an escaped quote before '=' in a string may set it needlessly, never clear it wrongly).
          set.may_have_formulas = (row.may_have_formulas || hasFormula([changes.map((c) => c.new)])) && grid.chunks.some((text) => text.includes('"='));
        } else data = JSON.parse(joinChunkTexts(grid.chunks)) as GridData; // the sheet moved on since, or is laid out otherwise: merged whole
      }
      if (data !== undefined) {
        const now = { rows: row.row_count, columns: row.col_count };
        requireSheetSize(data.length, widthOf(data), this.maxCells, now);
        const current = await readGrid(trx, id);
        let next = data;
        if (baseVersion < row.version) {
          const merged = mergeGrid(current, data, changesSince(await opsAfter(trx, id, baseVersion)));
          if (merged.conflicts.length > 0) throw conflictError(row.version, merged.conflicts);
          next = merged.grid;
          requireSheetSize(next.length, widthOf(next), this.maxCells, now);
        }
        changes = diffGrids(current, next);
        layout = await replaceGrid(trx, id, next, await this.layoutOf(trx, id, row.version), changes.map((c) => c.row), version);
        columns = widthOf(next);
        // The whole grid is known here: the only write that can clear the fact (migration 0015's trigger sets it).
        set.may_have_formulas = hasFormula(next);
        set.row_count = next.length;
        set.col_count = columns;
      }
      const headersIn = body.headers ?? (Array.isArray(body.metadata?.headers) ? body.metadata.headers.map(String) : undefined);
      if (headersIn !== undefined || columns !== row.col_count) {
        set.headers = JSON.stringify(normalizeHeaders(headersIn ?? row.headers, columns));
      }
      await trx.updateTable('sheets').set(set).where('id', '=', id).execute();
      await appendOp(trx, { sheetId: id, version, kind: data || grid ? 'save' : 'meta', userId, changes: changes ?? [] });
      if (chartsChanged) await recordCharts(trx, id, version, charts);
      // What a navigator shows of a sheet: its name, place, description and tags.
      const navigationChanged = ['name', 'group_id', 'position', 'description', 'tags'].some((field) => field in set);
      return { summary: await this.summary(trx, id, userId), navigationChanged, layout };
    });
  }

  /**
   * PATCH cells: reads and rewrites only the chunks of the changed cells. `origin` is passed on to
   * change listeners. With `opId` (the live socket's operation id), an operation already in the
   * op log is not applied again: its version comes back with `duplicate`.
   */
  async patchCells(id: string, body: CellPatchBody, userId: string, origin?: string, opId?: string): Promise<LiveWriteResult> {
    const { result, written, layout } = await this.patchInTransaction(id, body, userId, opId);
    if (result.duplicate) return result;
    this.cache.patch(id, result.version, written);
    if (layout) this.layouts.set(id, result.version, layout);
    this.changes.emit({ sheetId: id, version: result.version, kind: 'cells', changes: body.changes, userId, updatedAt: result.updated_at, origin });
    return result;
  }

  /** The version an operation id already made on this sheet, if any (under the sheet's row lock: race-free across processes). */
  private async appliedOp(trx: Kysely<Database>, id: string, opId: string | undefined): Promise<LiveWriteResult | undefined> {
    if (opId === undefined) return undefined;
    const op = await withOpIds(trx)
      .selectFrom('sheet_ops')
      .select(['version', 'created_at'])
      .where('sheet_id', '=', id)
      .where('op_id', '=', opId)
      .executeTakeFirst();
    return op && { id, version: op.version, updated_at: op.created_at.toISOString(), duplicate: true };
  }

  /**
   * Several live cell operations of one sheet (those that queued while the previous ones were
   * being written: group commit) in ONE transaction under one row lock. Each is still its own
   * version, in order, with its own op-log row, version shape and (every K versions) snapshot,
   * and its op id is checked as in patchCells; but the group is written in a few statements (the
   * touched chunks once, the op-log rows as one insert), not a few per operation, and a group
   * ends at a snapshot version. Live operations are last-writer-wins on the current version
   * (no 409 for a cell changed since), but each is first moved through the rows and columns
   * inserted or removed after its base version (sheet-ops.transform.ts, read once for the group
   * under the lock): a cell whose row or column is gone is dropped, and an operation with no
   * cell left, or based before a whole-grid replacement, is refused (its outcome says why;
   * the others go on). An error rolls the whole group back (the caller then
   * commits them one by one, so one bad operation cannot lose the others). Nothing is emitted
   * before the commit.
   */
  async patchCellsBatch(id: string, items: LiveCellWrite[], origin?: string): Promise<LiveCellOutcome[]> {
    // On PGlite in one transaction with the groups of other sheets ready at the same time (joint-commits.ts).
    const write = (trx: Transaction<Database>) => this.writeCellGroup(trx, id, items);
    const done = this.joint ? await this.joint.run(id, [...new Set(items.map((i) => i.opId))], write) : await this.db.transaction().execute(write);
    this.layouts.set(id, done.version, done.layout);
    this.loadedChunks.set(id, done.version, done.storedChunks);
    const outcomes: LiveCellOutcome[] = done.results.map((r, i) => ('refused' in r ? r : { ...r, changes: done.landed[i] }));
    const fresh = outcomes.filter((r): r is LiveWriteResult & { changes: CellPatchBody['changes'] } => !('refused' in r) && !r.duplicate);
    for (const [k, r] of fresh.entries()) this.cache.patch(id, r.version, k === fresh.length - 1 ? done.written : new Map());
    for (const [i, result] of outcomes.entries()) {
      if ('refused' in result || result.duplicate) continue;
      this.changes.emit({ sheetId: id, version: result.version, kind: 'cells', changes: result.changes, userId: items[i].userId, updatedAt: result.updated_at, origin });
    }
    return outcomes;
  }

  /**
   * A live group commit rehearsed (the api's start, LIVE_WARMUP_MS): `groups` written one after the
   * other, as patchCellsBatch writes them, to a scratch sheet of a scratch user made in the same
   * transaction, which is then rolled back — nobody ever sees either, no cache or feed hears of
   * them. The same statements on the same database as the first real groups: those find the code
   * compiled (JS and PGlite's WebAssembly) and the statements prepared. Returns the versions written.
   */
  async rehearseCellGroups(groups: { row: number; col: number; value: CellValue }[][][]): Promise<number> {
    let versions = 0;
    await this.db
      .transaction()
      .execute(async (trx) => {
        const userId = crypto.randomUUID();
        const id = crypto.randomUUID();
        await trx.insertInto('users').values({ id: userId, username: `live-rehearsal-${userId}`, role: 'user', password_hash: '' }).execute();
        await trx
          .insertInto('sheets')
          .values({ id, name: `live rehearsal ${id}`, group_id: null, version: 1, row_count: 0, col_count: 0, headers: '[]', tags: '[]', extra: '{}', created_by: userId })
          .execute();
        // Each group finds the layout and chunks the one before left, as a real group finds them in the caches.
        let carried: Carried | undefined;
        for (const group of groups) {
          const done = await this.writeCellGroup(trx, id, group.map((changes) => ({ userId, opId: crypto.randomUUID(), changes })), carried);
          carried = { version: done.version, layout: done.layout, storedChunks: done.storedChunks };
          versions = done.version - 1;
        }
        throw REHEARSED;
      })
      .catch((err: unknown) => {
        if (err !== REHEARSED) throw err;
      });
    return versions;
  }

  /**
   * The first statements of a shared transaction (JointCommits): every sheet's row locked, and the
   * ids already in their op logs, in one statement each instead of one per sheet (on PGlite each
   * statement costs about 0.1-0.2 ms of CPU whatever its rows). A sheet not found is not in the map:
   * its part then locks it itself and is refused alone.
   */
  private async prefetchGroups(trx: Transaction<Database>, sheets: JointSheet[], deferred: boolean): Promise<void> {
    const ids = sheets.map((s) => s.sheetId);
    const locked = (await this.lockManyQuery(trx, { ids })).rows;
    const rows = new Map<string, SheetRow>(locked.map(({ joint_now: _, ...r }) => [r.id, r]));
    const known = new Map<string, { op_id: string | null; version: number; created_at: Date }[]>();
    const opIds = sheets.flatMap((s) => s.opIds);
    if (opIds.length > 0) {
      for (const f of (await this.knownManyQuery(trx, { ids, opIds })).rows) {
        const list = known.get(f.sheet_id);
        if (list) list.push(f);
        else known.set(f.sheet_id, [f]);
      }
    }
    this.prefetched.set(trx, { rows, known, ...(deferred && locked.length > 0 ? { deferred: { groups: [], now: locked[0].joint_now } } : {}) });
  }

  /**
   * The last statement of a shared transaction (JointCommits): the groups its parts left to it
   * (writeCellGroup), written together (sheet-store writeCellGroups). A sheet whose row it did not
   * update (gone: cannot happen under the locks prefetchGroups took, kept as a guard) is refused alone.
   */
  private async finishGroups(trx: Transaction<Database>): Promise<void> {
    const groups = this.prefetched.get(trx)?.deferred?.groups ?? [];
    if (groups.length === 0) return;
    const updated = await writeCellGroups(trx, groups);
    const gone = groups.find((g) => !updated.has(g.sheetId));
    if (gone) throw new JointPartError(gone.sheetId, notFound(SHEET_NOT_FOUND));
  }

  /** The transaction of patchCellsBatch (and of its rehearsal): writes, tells no cache and no feed; `carried`: the caches' part, for a rehearsal. */
  private async writeCellGroup(trx: Transaction<Database>, id: string, items: LiveCellWrite[], carried?: Carried) {
    const pre = this.prefetched.get(trx);
    let row = pre?.rows.get(id) ?? (await this.lockSheet(trx, id));
    // Every item was made on a version up to this one: the group's own versions are cells and move nothing.
    const lockedAt = row.version;
    const bases = items.flatMap((i) => (i.baseVersion === undefined ? [] : [i.baseVersion]));
    const history = await this.structure.since(trx, id, bases.length > 0 ? Math.min(...bases) : lockedAt, lockedAt);
    // Beyond the cap the whole group is refused (and rolled back): the caller then commits the
    // operations one by one, and only the one that grows the sheet too far gets the error.
    // Checked on where the cells land (after the transform below).
    const before = { rows: row.row_count, columns: row.col_count };
    let grown = before;
    // The ids already in the op log, in one query (a re-send after a reconnect).
    const ids = [...new Set(items.map((i) => i.opId))];
    const known = new Map<string, LiveWriteResult>();
    const results: (LiveWriteResult | { refused: HttpError })[] = [];
    /** The cells each written item wrote, where they landed. */
    const landed: CellPatchBody['changes'][] = items.map((i) => i.changes);
    if (ids.length > 0) {
      // Prefetched for the whole shared transaction: those of this sheet and of this group's ids.
      const found = pre ? (pre.known.get(id) ?? []).filter((f) => f.op_id !== null && ids.includes(f.op_id)) : (await this.knownOpsQuery(trx, { id, ids })).rows;
      for (const f of found) if (f.op_id) known.set(f.op_id, { id, version: f.version, updated_at: f.created_at.toISOString(), duplicate: true });
    }
    let fresh: { index: number; item: LiveCellWrite }[] = [];
    let written = new Map<number, string>();
    const carry = carried?.version === row.version ? carried : undefined;
    let layout = carry?.layout ?? (await this.layoutOf(trx, id, row.version));
    /** Chunks as stored now, parsed, by chunk id: those the previous group of this process wrote (still current: the version is the one it made), then those this group wrote. */
    const storedChunks = carry?.storedChunks ?? this.loadedChunks.take(id, row.version) ?? new Map<number, CellValue[][]>();
    /** `atEnd`: the group's last write, which a shared transaction may leave to its end (finishGroups); those before end at a snapshot version. */
    const flush = async (atEnd = false) => {
      if (fresh.length === 0) return;
      const joint = atEnd ? pre?.deferred : undefined;
      const applied = await applyCellChangeSets(trx, id, layout, fresh.map((f) => f.item.changes), row.version + fresh.length, storedChunks, !joint);
      const { steps, written: chunks } = applied;
      layout = applied.layout;
      for (const [p, rows] of applied.chunks) storedChunks.set(layout.ids[p], rows);
      let columns = row.col_count;
      let headers = row.headers;
      const entries = steps.map((step, k) => {
        const next = Math.max(columns, step.width);
        const headersChanged = next !== columns;
        if (headersChanged) headers = normalizeHeaders(headers, next);
        columns = next;
        const { item } = fresh[k];
        return { version: row.version + 1 + k, userId: item.userId, opId: item.opId, changes: step.deltas, rowCount: step.rowCount, colCount: columns, headers, headersChanged };
      });
      const final = entries[entries.length - 1];
      const headersChanged = final.colCount !== row.col_count;
      const ai = fresh.some((f) => f.item.ai);
      let updatedAt: Date;
      if (joint && !entries.slice(0, -1).some((e) => e.headersChanged)) {
        // Written with the other sheets' groups at the end of the shared transaction; the row's updated_at is its now().
        joint.groups.push({ sheetId: id, chunks: applied.rows, ops: entries, headers: headersChanged ? final.headers : null, ai });
        updatedAt = joint.now;
      } else {
        if (joint) await writeChunkRows(trx, applied.rows);
        const update = this.groupUpdateQueries[(headersChanged ? 1 : 0) + (ai ? 2 : 0)];
        const [updated] = (
          await update(trx, { id, version: final.version, rowCount: final.rowCount, colCount: final.colCount, headers: headersChanged ? JSON.stringify(final.headers) : undefined })
        ).rows;
        if (!updated) throw notFound(SHEET_NOT_FOUND);
        await appendCellOps(trx, id, entries);
        updatedAt = updated.updated_at;
      }
      const at = updatedAt.toISOString();
      for (const [k, e] of entries.entries()) results[fresh[k].index] = { id, version: e.version, updated_at: at };
      row = { ...row, version: final.version, row_count: final.rowCount, col_count: final.colCount, headers: final.headers, updated_at: updatedAt };
      written = new Map([...written, ...chunks]);
      fresh = [];
    };
    /** The same id twice in one group: the second is a duplicate of the first (index of the first). */
    const firstOf = new Map<string, number>();
    for (const [index, item] of items.entries()) {
      const applied = known.get(item.opId);
      if (applied) results[index] = applied;
      if (applied || firstOf.has(item.opId)) continue;
      firstOf.set(item.opId, index);
      const moved = moveCells(item.changes, item.baseVersion, lockedAt, history);
      if (moved instanceof HttpError) {
        results[index] = { refused: moved };
        continue;
      }
      grown = grownSize(grown.rows, grown.columns, moved);
      requireSheetSize(grown.rows, grown.columns, this.maxCells, before);
      landed[index] = moved;
      fresh.push({ index, item: { ...item, changes: moved } });
      // A snapshot version ends the write (a snapshot reads the stored grid of its own version).
      if ((row.version + fresh.length) % snapshotEvery() === 0) await flush();
    }
    await flush(true);
    for (const [index, item] of items.entries()) {
      if (results[index] !== undefined) continue;
      const first = results[firstOf.get(item.opId)!];
      results[index] = 'refused' in first ? first : { ...first, duplicate: true };
    }
    return { results, written, landed, layout, version: row.version, storedChunks };
  }

  /** Writes one cell change set as the next version of a sheet whose row is locked. */
  private async patchLocked(trx: Transaction<Database>, id: string, row: SheetRow, changes: CellPatchBody['changes'], userId: string, opId?: string, loaded?: Map<number, CellValue[][]>) {
    const layout = await this.layoutOf(trx, id, row.version);
    const version = row.version + 1;
    const chunks = loaded ?? (await loadChunks(trx, id, layout, rowsToLoad(layout.rowCount, changes)));
    const { deltas, rowCount, width, written, layout: next } = await applyCellChanges(trx, id, layout, changes, version, chunks);
    const columns = Math.max(row.col_count, width);
    const updated = await trx
      .updateTable('sheets')
      .set({
        version,
        row_count: rowCount,
        col_count: columns,
        ...(columns !== row.col_count ? { headers: JSON.stringify(normalizeHeaders(row.headers, columns)) } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning('updated_at')
      .executeTakeFirstOrThrow();
    await appendOp(trx, { sheetId: id, version, kind: 'cells', userId, changes: deltas, opId });
    const result: LiveWriteResult = { id, version, updated_at: updated.updated_at.toISOString() };
    return { result, written, layout: next };
  }

  private async patchInTransaction(id: string, body: CellPatchBody, userId: string, opId?: string) {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockSheet(trx, id);
      const applied = await this.appliedOp(trx, id, opId);
      if (applied) return { result: applied, written: new Map<number, string>(), layout: undefined };
      if (body.base_version > row.version) throw conflictError(row.version, []);
      const grown = grownSize(row.row_count, row.col_count, body.changes);
      requireSheetSize(grown.rows, grown.columns, this.maxCells, { rows: row.row_count, columns: row.col_count });
      const layout = await this.layoutOf(trx, id, row.version);
      const chunks = await loadChunks(trx, id, layout, rowsToLoad(layout.rowCount, body.changes));
      if (body.base_version < row.version) {
        const since = changesSince(await opsAfter(trx, id, body.base_version));
        const currentAt = (r: number, c: number) => {
          if (r >= layout.rowCount) return null;
          const p = layout.positionOf(r);
          return chunks.get(p)?.[r - layout.starts[p]]?.[c] ?? null;
        };
        const conflicts = patchConflicts(since, body.changes, currentAt);
        if (conflicts.length > 0) throw conflictError(row.version, conflicts);
      }
      return this.patchLocked(trx, id, row, body.changes, userId, opId, chunks);
    });
  }

  /**
   * Rows or columns inserted or removed (the live socket's structural operations), as one new
   * version. Stored like the other whole-grid changes (create, import): the op log records no
   * cells (every cell after the index moves) and the version gets a full snapshot; the op itself
   * is kept for replays. Rows inserted or removed rewrite only the chunk(s) they fall in (chunks
   * hold any number of rows: cell-grid.ts ChunkLayout), so the snapshot copies only those too.
   * A range outside the sheet is a 400 with the reason. `opId`: as in patchCells. With
   * `baseVersion` (the live client's), the op is first moved through the rows and columns
   * inserted or removed since (sheet-ops.transform.ts): a 409 when nothing of it is left or the
   * grid was replaced since. The result says the op as applied.
   * An insert with `undo` (Ctrl+Z of a remove on a windowed sheet: contracts live.schema.ts) is
   * placed so, then its new rows or columns are filled with the cells the remove took, as they were
   * at version `undo` - 1, moved to where they are now (removedToPutBack), in rounds of chunks
   * (clear-undo.ts putBackInChunks), all in the op's transaction: a refusal leaves nothing. Its
   * op-log entry (kind as any insert, `undo` in `op`: replays carry it) has a full snapshot taken
   * after the fill, so versions rebuild across it as across any insert, as a clear undone does.
   */
  async applyStructure(
    id: string,
    requested: StoredStructureOp,
    userId: string,
    origin?: string,
    opId?: string,
    baseVersion?: number,
  ): Promise<LiveWriteResult & { operation: StoredStructureOp }> {
    return this.commitMove<StoredStructureOp>(id, userId, origin, opId, (applied) => ({ ...applied, operation: requested }), async (trx, row) => {
      const moved = moveStructure(requested, baseVersion, row.version, await this.structure.since(trx, id, baseVersion ?? row.version, row.version));
      if (moved instanceof HttpError) throw moved;
      const op = moved;
      const refused = structureError(op, row.row_count, row.col_count);
      if (refused) throw HttpError.badRequest(refused);
      requireStructureSize(op, row.row_count, row.col_count, this.maxCells);
      // An insert undoing a remove: what it puts back is found (or refused) before anything is written.
      const undone = op.undo !== undefined ? await this.removedToPutBack(trx, id, op, row.version) : undefined;
      const version = row.version + 1;
      const layout = await this.layoutOf(trx, id, row.version);
      // Only the restructured rows' chunks are rewritten: a row op touches the chunk(s) it falls
      // in (rows below keep their chunks); a column op none: the op log holds it and every read
      // applies it until the column compactor has rewritten the chunks (sheet-store.ts pendingColumnOps).
      const next = restructure([], row.headers, row.col_count, op);
      let rows: RowsWrite | undefined;
      if (op.type === 'rows_insert') {
        const blank = Array.from({ length: op.count }, () => Array<CellValue>(row.col_count).fill(''));
        rows = await insertRows(trx, id, layout, op.index, blank, version);
      } else if (op.type === 'rows_remove') {
        rows = await removeRows(trx, id, layout, op.index, op.count, version);
      }
      next.rowCount = rows ? rows.layout.rowCount : row.row_count;
      // Charts are anchored to their cells: they move, grow or shrink with the op (the client does the same).
      const charts = moveCharts(storedCharts(row.extra), op);
      const updated = await trx
        .updateTable('sheets')
        .set({
          version,
          row_count: next.rowCount,
          col_count: next.colCount,
          headers: JSON.stringify(next.headers),
          ...(charts.changed ? { extra: JSON.stringify({ ...row.extra, charts: charts.charts }) } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .returning('updated_at')
        .executeTakeFirstOrThrow();
      const logged: StoredStructureOp = { type: op.type, index: op.index, count: op.count, ...(undone ? { undo: op.undo } : {}) };
      // The new rows (columns) filled once the insert is logged (a column insert is applied by reads
      // of the chunks: sheet-store.ts pendingColumnOps) and before its full snapshot is taken.
      const fill =
        undone &&
        (async () => {
          const readBefore = (span: { start: number; end: number }) => rebuildChunks(trx, id, undone.version, row.version, span);
          try {
            await putBackInChunks(trx, id, rows?.layout ?? layout, undone.block, undone.places, readBefore, version);
          } catch (err) {
            if (err instanceof UnrebuildableVersionError) throw new HttpError(409, ERROR_CODES.conflict, STRUCTURE_UNDO_TEXTS.unavailable);
            throw err;
          }
        });
      await appendOp(trx, { sheetId: id, version, kind: op.type, userId, changes: null, opId, structure: logged }, fill);
      if (charts.changed) await recordCharts(trx, id, version, charts.charts);
      // Rows filled after insertRows wrote them blank: the cached grid is read again, not spliced with blanks.
      return { id, version, updated_at: updated.updated_at.toISOString(), operation: logged, layout: rows?.layout ?? layout, rows: undone ? undefined : rows };
    });
  }

  /**
   * What an insert undoing a remove (`op.undo`, contracts live.schema.ts) puts back: the op logged
   * at `undo` must be a remove of the insert's axis and count (else 400 STRUCTURE_UNDO_TEXTS.notRemove),
   * the grid not replaced since (409 replaced: a version restored, an import, a save over it, or a
   * sort the log holds no order of), and the version before it recorded (409 unavailable: the pruner
   * keeps it, version-pruner.ts; older history may be gone). The removed cells are those of that
   * version, each taken to where it goes now (structure-undo.ts removedPlaces); `op.index` is the
   * insert's as applied.
   */
  private async removedToPutBack(trx: Transaction<Database>, id: string, op: StoredStructureOp, current: number) {
    const undo = op.undo!;
    const removed = undo <= current ? await this.loggedMove(trx, id, undo) : null;
    const axis = op.type === 'rows_insert' ? 'rows_remove' : op.type === 'columns_insert' ? 'columns_remove' : null;
    if (axis === null || removed?.type !== axis || removed.count !== op.count) throw HttpError.badRequest(STRUCTURE_UNDO_TEXTS.notRemove(undo));
    const steps = await this.movesSinceUndone(trx, id, undo, current, STRUCTURE_UNDO_TEXTS.replaced);
    const before = await this.shapeBeforeUndone(trx, id, undo, STRUCTURE_UNDO_TEXTS.unavailable);
    return { version: undo - 1, ...removedPlaces(removed, before, op.index, steps) };
  }

  /**
   * The moves since the op logged at `undo` that an undo by the server (a cells_clear_undo, an
   * insert with `undo`) carries its cells through, oldest first; 409 `replaced` when the whole grid
   * was replaced since, or a sort the log holds no order of (where the rows went is not known).
   */
  private async movesSinceUndone(trx: Transaction<Database>, id: string, undo: number, current: number, replaced: string) {
    const since = await this.structure.since(trx, id, undo, current);
    const refused = () => new HttpError(409, ERROR_CODES.conflict, replaced);
    if (since.replacedAt !== null) throw refused();
    try {
      return stepsAfter(since, undo);
    } catch {
      throw refused();
    }
  }

  /** The recorded shape of the version just before the op logged at `undo` (409 `unavailable` without it: a rebuild would guess it; the pruner keeps it). */
  private async shapeBeforeUndone(trx: Transaction<Database>, id: string, undo: number, unavailable: string) {
    const { rows: shapes } = await sql<{ row_count: number; col_count: number }>`SELECT row_count, col_count FROM sheet_version_shapes
      WHERE sheet_id = ${id}::uuid AND version = ${undo - 1}::int`.execute(trx);
    if (shapes.length === 0) throw new HttpError(409, ERROR_CODES.conflict, unavailable);
    return { rows: shapes[0].row_count, columns: shapes[0].col_count };
  }

  /**
   * The frame every live move (rows or columns inserted or removed, a sort, a clear) is written in:
   * one transaction under the sheet's row lock; a re-sent op (its id already applied) answered by
   * `duplicate` and nothing else done; else `write` makes the next version. Once committed: the
   * new chunk layout kept, the cached grid spliced (rows written as `rows` says) or dropped, and the
   * change told (kind 'structure'); on any failure the cached grid is dropped.
   */
  private async commitMove<Op extends StoredMoveOp>(
    id: string,
    userId: string,
    origin: string | undefined,
    opId: string | undefined,
    duplicate: (applied: LiveWriteResult, trx: Transaction<Database>) => (LiveWriteResult & { operation: Op }) | Promise<LiveWriteResult & { operation: Op }>,
    write: (trx: Transaction<Database>, row: SheetRow) => Promise<LiveWriteResult & { operation: Op; layout: ChunkLayout; rows?: RowsWrite }>,
  ): Promise<LiveWriteResult & { operation: Op }> {
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        const row = await this.lockSheet(trx, id);
        const applied = await this.appliedOp(trx, id, opId);
        return applied ? { ...(await duplicate(applied, trx)), layout: undefined, rows: undefined } : write(trx, row);
      });
      const { layout, rows, ...written } = result;
      if (written.duplicate || !layout) return written;
      this.layouts.set(id, written.version, layout);
      if (rows) this.cache.splice(id, written.version, rows.splice.from, rows.splice.deleteCount, rows.splice.texts);
      else this.cache.delete(id);
      this.changes.emit({ sheetId: id, version: written.version, kind: 'structure', operation: written.operation, userId, updatedAt: written.updated_at, origin });
      return written;
    } catch (err) {
      this.cache.delete(id);
      throw err;
    }
  }

  /**
   * The sheet's rows sorted by a column (a live rows_sort): the column moved through the columns
   * inserted or removed after `baseVersion`, the order computed on the rows stored now (rows-sort.ts:
   * stable, empty cells last), the chunks holding a row that moved rewritten, and the op logged with
   * its order, packed (kind 'rows_sort', a whole-grid op: its version gets a full snapshot, so versions
   * before and after it rebuild from snapshots; catch-up replays it and live ops based before it move
   * through its order). Every sheet may be sorted (SORT_MAX_ROWS = SHEET_MAX_ROWS). A sheet of more
   * than SORT_IN_PROCESS_MAX_ROWS rows is read and sorted before the transaction, in a worker thread
   * (sheet-sort.ts) under a 'sheet read' slot: its chunks are read, not parsed, here; the result is
   * written if the sheet is still at the version read (this process commits a sheet's live ops one
   * after the other, so it is unless another process or a REST write came between), else sorted
   * again under the lock. A duplicate (re-sent op id) answers its version with the op it logged (it is not broadcast again).
   */
  async applySort(
    id: string,
    requested: { column: number; direction: SortDirection; undo?: number },
    userId: string,
    origin?: string,
    opId?: string,
    baseVersion?: number,
  ): Promise<LiveWriteResult & { operation: StoredSortOp }> {
    let release: (() => void) | undefined;
    try {
      /** The sort to make on the sheet at `at`: by a column (moved to it), or an undo's order (the logged sort's inverted); or why not. */
      const planOf = async (db: Kysely<Database> | Transaction<Database>, at: { version: number; row_count: number; col_count: number }) => {
        if (requested.undo === undefined) {
          const column = moveSortColumn(requested.column, baseVersion, at.version, await this.structure.since(db, id, baseVersion ?? at.version, at.version));
          if (column instanceof HttpError) return column;
          if (column >= at.col_count) return HttpError.badRequest(SORT_TEXTS.noColumn(column, at.col_count));
          return { column, direction: requested.direction };
        }
        return this.undoPlan(db, id, requested.undo, at);
      };
      type Plan = Exclude<Awaited<ReturnType<typeof planOf>>, HttpError>;
      const large = async (db: Kysely<Database> | Transaction<Database>, version: number, plan: Plan) => {
        const { layout, texts } = await readChunksInSlices(db, id, SORT_WRITE_CHUNKS);
        return { version, plan, layout, ...(await sortInWorker(texts, [...layout.sizes], 'given' in plan ? { order: plan.given } : plan)) };
      };
      type Large = Awaited<ReturnType<typeof large>>;
      let prepared: Large | undefined;
      const before = await this.db.selectFrom('sheets').select(['version', 'row_count', 'col_count']).where('id', '=', id).executeTakeFirst();
      // Not for a re-sent one (its ack lost with a connection): it is answered from the op log below, nothing sorted.
      if (before && before.row_count > SORT_IN_PROCESS_MAX_ROWS && before.row_count <= SORT_MAX_ROWS && !(await this.appliedOp(this.db, id, opId))) {
        release = await this.readSlot?.();
        const plan = await planOf(this.db, before);
        if (!(plan instanceof HttpError)) prepared = await large(this.db, before.version, plan);
      }
      // Re-sent after a reconnect that lost its ack: acked again with the order it was given (its author shows the sort from the ack).
      const again = async (applied: LiveWriteResult, trx: Transaction<Database>) => {
        const op = await this.loggedMove(trx, id, applied.version);
        return { ...applied, operation: op?.type === 'rows_sort' ? op : { type: 'rows_sort' as const, column: requested.column, direction: requested.direction, order: [] } };
      };
      return await this.commitMove<StoredSortOp>(id, userId, origin, opId, again, async (trx, row) => {
        if (row.row_count > SORT_MAX_ROWS) throw new HttpError(413, ERROR_CODES.payloadTooLarge, SORT_TEXTS.tooManyRows(row.row_count));
        const plan = await planOf(trx, row);
        if (plan instanceof HttpError) throw plan;
        const version = row.version + 1;
        let order: ArrayLike<number>;
        let next: ChunkLayout;
        if (row.row_count > SORT_IN_PROCESS_MAX_ROWS) {
          // Made on this version with this plan (an undo's plan is fixed by its logged sort once the checks pass).
          const same = prepared && prepared.version === row.version && ('given' in plan ? 'given' in prepared.plan : 'column' in prepared.plan && prepared.plan.column === plan.column);
          const sorted = same ? prepared! : await large(trx, row.version, plan);
          const at = new Map(sorted.changed.map((p, k) => [p, k]));
          const rows = chunkRowsAt(id, sorted.layout, sorted.changed, version, (p) => sorted.written[at.get(p)!], (p) => sorted.held[at.get(p)!]);
          for (let i = 0; i < rows.length; i += SORT_WRITE_CHUNKS) {
            await writeChunkRows(trx, rows.slice(i, i + SORT_WRITE_CHUNKS));
            // The api's other work (sockets, other sheets' reads) goes on between the statements.
            await new Promise((resolve) => setImmediate(resolve));
          }
          order = sorted.order;
          next = sorted.layout;
        } else {
          const layout = await this.layoutOf(trx, id, row.version);
          const grid = await readGrid(trx, id);
          const sorted = 'given' in plan ? plan.given : sortOrder(grid, plan.column, plan.direction);
          const moved = sorted.flatMap((old, now) => (old === now ? [] : [now]));
          next = moved.length === 0 ? layout : await replaceGrid(trx, id, applyOrder(grid, sorted), layout, moved, version);
          order = sorted;
        }
        const updated = await trx.updateTable('sheets').set({ version, updated_at: sql`now()` }).where('id', '=', id).returning('updated_at').executeTakeFirstOrThrow();
        const operation: StoredSortOp = {
          type: 'rows_sort',
          column: plan.column,
          direction: plan.direction,
          ...('given' in plan ? { undo: plan.undo } : {}),
          rows: order.length,
          packed: packOrder(order),
        };
        await appendOp(trx, { sheetId: id, version, kind: 'rows_sort', userId, changes: null, opId, structure: operation });
        return { id, version, updated_at: updated.updated_at.toISOString(), operation, layout: next };
      });
    } finally {
      release?.();
    }
  }

  /** The move (rows or columns, or a sort) logged at `version`, or null. */
  private async loggedMove(db: Kysely<Database> | Transaction<Database>, id: string, version: number): Promise<StoredMoveOp | null> {
    const { rows } = await sql<{ op: string | null }>`SELECT op::text AS op FROM sheet_ops WHERE sheet_id = ${id}::uuid AND version = ${version}::int`.execute(db);
    return rows[0]?.op ? (JSON.parse(rows[0].op) as StoredMoveOp) : null;
  }

  /**
   * An undo of the sort logged at `undo` on the sheet at `at`: the rows put back where they were
   * before it (its order inverted: the row now at r goes to the row it came from), column and
   * direction those of the sort. Refused when that version is not a sort, or when rows were inserted,
   * removed or sorted after it or the grid was replaced (positions no longer those the order names:
   * no rule maps an order through them that puts back what the user saw, so none is guessed). Cell
   * edits and column changes since move with their rows.
   */
  private async undoPlan(db: Kysely<Database> | Transaction<Database>, id: string, undo: number, at: { version: number; row_count: number }) {
    const op = undo <= at.version ? await this.loggedMove(db, id, undo) : null;
    if (op?.type !== 'rows_sort') return HttpError.badRequest(SORT_TEXTS.undoNotSort(undo));
    const since = await this.structure.since(db, id, undo, at.version);
    const order = storedSortOrder(op);
    const moved = since.replacedAt !== null || since.steps.some((s) => s.op.type === 'rows_insert' || s.op.type === 'rows_remove' || s.op.type === 'rows_sort');
    if (moved || !order || order.length !== at.row_count) return new HttpError(409, ERROR_CODES.conflict, SORT_TEXTS.undoMoved);
    return { column: op.column, direction: op.direction, undo, given: Array.from(inverseOrder(order)) };
  }

  /**
   * A block of cells emptied (a live cells_clear): the block moved through the rows and columns
   * inserted or removed and rows sorted after `baseVersion` (sheet-ops.transform.ts moveClearBlock),
   * refused (400) when it passes the sheet, then only the chunks holding its rows read and written
   * (clear-block.ts), as one version with one op-log entry: kind 'cells_clear', the block in `op`
   * (replays and catch-up send it as it is: a few bytes whatever its size). Its old values are not
   * logged (a million of them would be the op log's largest entry): versions replay the block (no
   * snapshot copies the chunks it rewrote: version-rebuild.ts), rebuilding forwards across it.
   * A duplicate (re-sent op id) answers its first version with the block as sent.
   */
  async applyClear(
    id: string,
    requested: ClearBlock,
    userId: string,
    origin?: string,
    opId?: string,
    baseVersion?: number,
  ): Promise<LiveWriteResult & { operation: StoredClearOp }> {
    const asSent = (applied: LiveWriteResult) => ({ ...applied, operation: { type: 'cells_clear' as const, rows: requested.rows, columns: requested.columns } });
    return this.commitMove<StoredClearOp>(id, userId, origin, opId, asSent, async (trx, row) => {
      const block = moveClearBlock(requested, baseVersion, row.version, await this.structure.since(trx, id, baseVersion ?? row.version, row.version));
      if (block instanceof HttpError) throw block;
      if (!blockInside(block, row.row_count, row.col_count)) throw HttpError.badRequest(CLEAR_TEXTS.pastSheet(row.row_count, row.col_count));
      const version = row.version + 1;
      const layout = await this.layoutOf(trx, id, row.version);
      await clearBlockInChunks(trx, id, layout, block, version);
      const updated = await trx.updateTable('sheets').set({ version, updated_at: sql`now()` }).where('id', '=', id).returning('updated_at').executeTakeFirstOrThrow();
      const operation: StoredClearOp = { type: 'cells_clear', rows: block.rows, columns: block.columns };
      await appendOp(trx, { sheetId: id, version, kind: 'cells_clear', userId, changes: null, opId, structure: operation });
      return { id, version, updated_at: updated.updated_at.toISOString(), operation, layout };
    });
  }

  /**
   * A clear undone (a live cells_clear_undo, contracts live.schema.ts): the clear logged at `undo`
   * looked up (else 400 CLEAR_TEXTS.undoNotClear), its rows and columns moved through what was
   * inserted, removed or sorted since (contracts clearedPlacesThrough; 409 undoReplaced when the
   * whole grid was replaced since, undoGone when no row or column of it is left), and each of its
   * cells that held a value at version `undo` - 1 (rebuilt from the history: the pruner keeps the
   * version before every clear; 409 undoUnavailable when it cannot be rebuilt, never a guess) put
   * back where it is now if that cell is empty (clear-undo.ts, in rounds). One version, one op-log
   * entry (kind 'cells_clear_undo': the clear's version and the block holding the cells put back,
   * not the values) with a full snapshot, as a sort takes: the cells it wrote are in no op's
   * changes, so versions rebuild from that snapshot across it. Nothing put back (every cell typed
   * into since) is still a version, its block the clear's as moved. The client's base version moves
   * nothing (the cells are moved from the clear's own version); one ahead of the sheet is refused
   * as for every live op. A duplicate answers its logged op.
   */
  async applyClearUndo(id: string, undo: number, userId: string, origin?: string, opId?: string, baseVersion?: number): Promise<LiveWriteResult & { operation: StoredClearUndoOp }> {
    const again = async (applied: LiveWriteResult, trx: Transaction<Database>) => {
      const op = await this.loggedMove(trx, id, applied.version);
      return { ...applied, operation: op?.type === 'cells_clear_undo' ? op : { type: 'cells_clear_undo' as const, undo, rows: { start: 0, count: 1 }, columns: { start: 0, count: 1 } } };
    };
    return this.commitMove<StoredClearUndoOp>(id, userId, origin, opId, again, async (trx, row) => {
      const ahead = baseAhead(baseVersion, row.version);
      if (ahead) throw ahead;
      const clear = undo <= row.version ? await this.loggedMove(trx, id, undo) : null;
      if (clear?.type !== 'cells_clear') throw HttpError.badRequest(CLEAR_TEXTS.undoNotClear(undo));
      const steps = await this.movesSinceUndone(trx, id, undo, row.version, CLEAR_TEXTS.undoReplaced);
      const places = clearedPlacesThrough(clear, steps);
      const [rowsNow, columnsNow] = [placesSpan(places.rows), placesSpan(places.columns)];
      if (!rowsNow || !columnsNow) throw new HttpError(409, ERROR_CODES.conflict, CLEAR_TEXTS.undoGone);
      await this.shapeBeforeUndone(trx, id, undo, CLEAR_TEXTS.undoUnavailable);
      const unavailable = () => new HttpError(409, ERROR_CODES.conflict, CLEAR_TEXTS.undoUnavailable);
      const version = row.version + 1;
      const layout = await this.layoutOf(trx, id, row.version);
      let put;
      try {
        put = await putBackInChunks(trx, id, layout, clear, places, (span) => rebuildChunks(trx, id, undo - 1, row.version, span), version);
      } catch (err) {
        if (err instanceof UnrebuildableVersionError) throw unavailable();
        throw err;
      }
      const updated = await trx.updateTable('sheets').set({ version, updated_at: sql`now()` }).where('id', '=', id).returning('updated_at').executeTakeFirstOrThrow();
      const operation: StoredClearUndoOp = { type: 'cells_clear_undo', undo, rows: put.rows ?? rowsNow, columns: put.columns ?? columnsNow };
      await appendOp(trx, { sheetId: id, version, kind: 'cells_clear_undo', userId, changes: null, opId, structure: operation });
      return { id, version, updated_at: updated.updated_at.toISOString(), operation, layout };
    });
  }

  /** A copy of the sheet and its cells named with ' (Copy)' (made unique), in `groupId` (the caller checked it). */
  async duplicate(id: string, userId: string, groupId: string | null): Promise<SheetSummary> {
    const copy = await this.db.transaction().execute(async (trx) => {
      const source = await trx.selectFrom('sheets').selectAll().where('id', '=', id).executeTakeFirst();
      if (!source) throw notFound(SHEET_NOT_FOUND);
      // A sheet left beyond a cap lowered since is not copied.
      requireSheetSize(source.row_count, source.col_count, this.maxCells);
      await lockNames(trx);
      const taken = new Set(
        (
          await trx
            .selectFrom('sheets')
            .select('name')
            .where(sql<boolean>`starts_with(name, ${source.name})`)
            .where('trashed_in', 'is', null)
            .execute()
        ).map((r) => r.name),
      );
      const copyId = crypto.randomUUID();
      await trx
        .insertInto('sheets')
        .values({
          id: copyId,
          name: duplicateSheetName(source.name, taken),
          group_id: groupId,
          position: await this.nextPosition(trx, groupId),
          version: 1,
          row_count: source.row_count,
          col_count: source.col_count,
          headers: JSON.stringify(source.headers),
          description: source.description,
          tags: JSON.stringify(source.tags),
          extra: JSON.stringify(source.extra),
          created_by: userId,
        })
        .execute();
      // The cells are copied inside the database, chunk for chunk (those with column ops pending brought up to date).
      await copyChunks(trx, id, copyId, 1);
      await appendOp(trx, { sheetId: copyId, version: 1, kind: 'duplicate', userId, changes: null });
      const charts = storedCharts(source.extra);
      if (charts.length > 0) await recordCharts(trx, copyId, 1, charts);
      await grantCreator(trx, { type: 'sheet', id: copyId }, userId);
      return this.summary(trx, copyId, userId, 'owner');
    });
    this.announce('sheet_created', copy, userId);
    return copy;
  }

  /**
   * A change of the sheet's charts (issue 20) as one new version: `change` gets the charts as
   * stored and returns them changed (or throws an HttpError, and nothing is written). The result
   * is checked against the contract (at most SHEET_MAX_CHARTS), kept in the sheet's metadata and
   * recorded for the version; open clients get that chart (`chartId`: the one chart it changes) in a
   * `chart` frame, not the whole sheet. `anchor` moves a range its author drew on `baseVersion` to
   * the sheet as it is (null when its cells are gone since).
   */
  async writeCharts(
    id: string,
    userId: string,
    chartId: string,
    change: (charts: ChartDefinition[], anchor: (range: ChartRange) => ChartRange | null, anchorBox: (box: ChartBox) => ChartBox) => ChartDefinition[],
    baseVersion?: number,
  ): Promise<ChartsResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.lockSheet(trx, id);
      const history = baseVersion === undefined ? null : await this.structure.since(trx, id, Math.min(baseVersion, row.version), row.version);
      // A range drawn on `baseVersion` charts the same cells now: moved through the row/column ops since (under the lock).
      const anchor = (range: ChartRange): ChartRange | null => {
        if (!history) return range;
        const moved = moveChartRangeTo(range, baseVersion, row.version, history);
        if (moved instanceof HttpError) throw moved;
        return moved;
      };
      // The box, anchored to a cell, moves with that cell the same way.
      const anchorBox = (box: ChartBox): ChartBox => (history ? moveChartBoxTo(box, baseVersion, history) : box);
      const charts = change(storedCharts(row.extra), anchor, anchorBox);
      if (charts.length > SHEET_MAX_CHARTS) throw HttpError.badRequest(CHART_TEXTS.tooMany);
      const version = row.version + 1;
      const updated = await trx
        .updateTable('sheets')
        .set({ version, extra: JSON.stringify({ ...row.extra, charts }), updated_at: sql`now()` })
        .where('id', '=', id)
        .returning('updated_at')
        .executeTakeFirstOrThrow();
      await appendOp(trx, { sheetId: id, version, kind: 'chart', userId, changes: [] });
      await recordCharts(trx, id, version, charts);
      return { version, charts, updatedAt: updated.updated_at.toISOString() };
    });
    // The grid is the previous version's.
    this.cache.patch(id, result.version, new Map());
    const chart = result.charts.find((c) => c.id === chartId) ?? null;
    this.changes.emit({ sheetId: id, version: result.version, kind: 'chart', chartId, chart, userId, updatedAt: result.updatedAt });
    return { version: result.version, charts: result.charts };
  }

  async toggleFavorite(id: string, userId: string): Promise<boolean> {
    const { sheet, favorite } = await this.db.transaction().execute(async (trx) => {
      const sheet = await trx.selectFrom('sheets').select(['id', 'name', 'group_id']).where('id', '=', id).executeTakeFirst();
      if (!sheet) throw notFound(SHEET_NOT_FOUND);
      const removed = await trx.deleteFrom('sheet_favorites').where('sheet_id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      if (removed.numDeletedRows > 0n) return { sheet, favorite: false };
      await trx.insertInto('sheet_favorites').values({ sheet_id: id, user_id: userId }).execute();
      return { sheet, favorite: true };
    });
    // Favourites are per user: the event's user_id tells the other navigators they may skip it.
    this.announce('sheet_updated', sheet, userId);
    return favorite;
  }
}
