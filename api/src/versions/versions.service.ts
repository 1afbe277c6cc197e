import crypto from 'node:crypto';
import {
  type ChartDefinition,
  type CellHistory,
  type CellValue,
  type CreateProposalBody,
  type FindQuery,
  type FindResult,
  type HistoryQuery,
  type GridData,
  type SheetHistory,
  type SheetRowsQuery,
  type SheetVersion,
  type SheetVersionEntry,
  type Snapshot,
  type SnapshotDetail,
  type SnapshotList,
  type VersionRows,
  type VersionStatus,
  type VersionTransitionResult,
  ERROR_CODES,
  QUOTA_DEFAULTS,
  QUOTA_TEXTS,
} from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import { type CellDelta, sameCell, widthOf } from '../sheets/cell-grid.js';
import { grownSize, requireSheetSize } from '../sheets/sheet-size.js';
import { SHEET_NOT_FOUND, type SheetsService, notFound } from '../sheets/sheets.service.js';
import { groupRuns, type OpHead, type Run } from './snapshot-runs.js';
import { joinChunkTexts } from '../sheets/sheet-store.js';
import { chunksWithChanges, rebuildChunks, rebuildInBatches, type RebuiltChunks } from './version-rebuild.js';
import { chartsAt } from '../charts/chart-store.js';
import { transition, type VersionAction } from './version-state.js';
import { chunkedRowsText, type KeptChunks, rowsOfChunks, VersionRowsCache } from './version-rows.js';
import { findInVersionChunks } from './version-find.js';
import { columnSpanOf } from '../sheets/window-text.js';
import { type AnyDb, type VersionsDb, withVersionTables } from './versions.tables.js';

export const VERSION_NOT_FOUND = 'Version not found';

/** What a transition makes live: a committed version's or a proposal's chunks. */
type TransitionContent = { headers: string[]; grid: RebuiltChunks };
/** Cell history answers at most this many changes, newest first. */
export const CELL_HISTORY_LIMIT = 500;

/** Proposals have uuids; committed versions are numbers. */
export const isProposalId = (versionId: string) => versionId.includes('-');

interface RunRow {
  version: number;
  user_id: string | null;
  username: string | null;
  created_at: Date;
  whole: boolean;
  standalone: boolean;
  label: string | null;
}

interface OpRow {
  version: number;
  kind: string;
  user_id: string | null;
  username: string | null;
  created_at: Date;
  delta_cells: number | null;
  label: string | null;
  origin: string | null;
}

/**
 * Sheet history, versions and proposals (issue 6) on top of SheetsService's op log. Every
 * version made here (accept, checkout, restore) is written through SheetsService.update, the
 * one whole-grid save path, so the version counter and op log stay one model.
 */
export class VersionsService {
  private readonly db: VersionsDb;
  private readonly rowsCache = new VersionRowsCache();

  constructor(
    db: Kysely<Database>,
    private readonly sheets: SheetsService,
  ) {
    this.db = withVersionTables(db);
  }

  private async liveVersion(db: AnyDb, sheetId: string): Promise<number> {
    const row = await withVersionTables(db).selectFrom('sheets').select('version').where('id', '=', sheetId).executeTakeFirst();
    if (!row) throw notFound(SHEET_NOT_FOUND);
    return row.version;
  }

  private readOnly<T>(fn: (trx: AnyDb) => Promise<T>): Promise<T> {
    return this.db.transaction().setIsolationLevel('repeatable read').execute(fn);
  }

  /** A committed version's status, or 404 when it does not exist or was discarded. */
  private async committedStatus(db: AnyDb, sheetId: string, version: number): Promise<{ status: VersionStatus; live: number }> {
    const live = await this.liveVersion(db, sheetId);
    if (version > live) throw notFound(VERSION_NOT_FOUND);
    const mark = await withVersionTables(db)
      .selectFrom('sheet_version_marks')
      .select('discarded_at')
      .where('sheet_id', '=', sheetId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (mark?.discarded_at) throw notFound(VERSION_NOT_FOUND);
    return { status: version === live ? 'live' : 'archived', live };
  }

  /** A committed version's log entry (404 as committedStatus, or when it has none), and the live version. */
  private async committedOp(db: AnyDb, sheetId: string, version: number): Promise<{ op: OpRow; live: number }> {
    const { live } = await this.committedStatus(db, sheetId, version);
    const [op] = await this.opRows(db, sheetId, sql`o.version = ${version}::int`, 1, 0);
    if (!op) throw notFound(VERSION_NOT_FOUND);
    return { op, live };
  }

  private async opRows(db: AnyDb, sheetId: string, where: ReturnType<typeof sql>, limit: number, offset: number): Promise<OpRow[]> {
    const { rows } = await sql<OpRow>`SELECT o.version, o.kind, o.user_id, u.username, o.created_at,
        CASE WHEN o.changes IS NULL THEN NULL ELSE json_array_length(o.changes) END AS delta_cells, m.label, m.origin
      FROM sheet_ops o LEFT JOIN users u ON u.id = o.user_id
      LEFT JOIN sheet_version_marks m ON m.sheet_id = o.sheet_id AND m.version = o.version
      WHERE o.sheet_id = ${sheetId}::uuid AND m.discarded_at IS NULL AND ${where}
      ORDER BY o.version DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
    return rows;
  }

  private committedEntry(op: OpRow, live: number): SheetVersionEntry {
    return {
      version_id: String(op.version),
      version: op.version,
      status: op.version === live ? 'live' : 'archived',
      author: op.username,
      author_id: op.user_id,
      created_at: new Date(op.created_at).toISOString(),
      delta_cells: op.delta_cells,
      kind: op.origin ?? op.kind,
      label: op.label,
      base_version: null,
    };
  }

  private proposalEntry(p: { id: string; base_version: number; author: string | null; username: string | null; created_at: Date }): SheetVersionEntry {
    return {
      version_id: p.id,
      version: null,
      status: 'proposed',
      author: p.username,
      author_id: p.author,
      created_at: new Date(p.created_at).toISOString(),
      delta_cells: null,
      kind: 'proposal',
      label: null,
      base_version: p.base_version,
    };
  }

  private proposals(db: AnyDb, sheetId: string) {
    return withVersionTables(db)
      .selectFrom('sheet_proposals as p')
      .leftJoin('users as u', 'u.id', 'p.author')
      .select(['p.id', 'p.base_version', 'p.author', 'u.username', 'p.created_at'])
      .where('p.sheet_id', '=', sheetId)
      .where('p.state', '=', 'proposed')
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id');
  }

  /** Proposals first (newest first), then the committed versions, newest first; discarded ones left out. */
  async history(sheetId: string, query: HistoryQuery): Promise<SheetHistory> {
    return this.readOnly(async (db) => {
      const live = await this.liveVersion(db, sheetId);
      const proposals = await this.proposals(db, sheetId).execute();
      const { rows: counted } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sheet_ops o
        LEFT JOIN sheet_version_marks m ON m.sheet_id = o.sheet_id AND m.version = o.version
        WHERE o.sheet_id = ${sheetId}::uuid AND m.discarded_at IS NULL`.execute(db);
      const versions = proposals.slice(query.offset, query.offset + query.limit).map((p) => this.proposalEntry(p));
      const remaining = query.limit - versions.length;
      if (remaining > 0) {
        const ops = await this.opRows(db, sheetId, sql`true`, remaining, Math.max(0, query.offset - proposals.length));
        versions.push(...ops.map((op) => this.committedEntry(op, live)));
      }
      return { versions, count: proposals.length + (counted[0]?.n ?? 0), live_version: live };
    });
  }

  /**
   * A version's headers and rows, with the cells it changed (committed) or its base (proposed), as
   * JSON text: the rows are spliced in from the rebuilt chunks' text, unparsed where untouched.
   */
  async versionJson(sheetId: string, versionId: string): Promise<string> {
    return this.readOnly(async (db) => {
      if (isProposalId(versionId)) {
        await this.liveVersion(db, sheetId);
        const p = await this.proposals(db, sheetId).where('p.id', '=', versionId).select(['p.headers', sql<string>`p.rows::text`.as('rows_text')]).executeTakeFirst();
        if (!p) throw notFound(VERSION_NOT_FOUND);
        const charts = await chartsAt(db, sheetId, p.base_version);
        const head: Omit<SheetVersion, 'rows'> = { ...this.proposalEntry(p), headers: p.headers, changes: null, charts };
        return `${JSON.stringify(head).slice(0, -1)},"rows":${p.rows_text}}`;
      }
      const version = Number(versionId);
      const { op, live } = await this.committedOp(db, sheetId, version);
      const { rows: changes } = await sql<{ changes: string | null }>`SELECT changes::text AS changes FROM sheet_ops
        WHERE sheet_id = ${sheetId}::uuid AND version = ${version}::int`.execute(db);
      const content = await rebuildChunks(db, sheetId, version, live);
      const text = changes[0]?.changes ?? null;
      const head: Omit<SheetVersion, 'rows'> = {
        ...this.committedEntry(op, live),
        headers: content.headers,
        changes: text === null ? null : (JSON.parse(text) as CellDelta[]),
        charts: await chartsAt(db, sheetId, version),
      };
      return `${JSON.stringify(head).slice(0, -1)},"rows":${joinChunkTexts(content.chunks)}}`;
    });
  }

  /**
   * Rows [start, start + count) of a version (issue 23: the preview of a sheet shown a window at a
   * time), with its size; `summary`: with the version without its rows, as GET .../versions/{id}
   * answers it. A committed version is rebuilt once and its chunks kept (VersionRowsCache); that
   * it still exists is checked at each read. A committed version not kept yet answers the window
   * from a rebuild of the chunks holding it, and is rebuilt whole for the cache behind it (the
   * preview's first window waited for the whole rebuild: 0.4–0.9 s for 1,000,000 rows).
   * `slots.hold` is called (and may refuse) before a proposal is read whole for this request;
   * `slots.take` before a committed version is rebuilt whole behind it (refused: not rebuilt now, the
   * next window tries again), its release called once the rebuild is kept or given up.
   */
  async versionRows(sheetId: string, versionId: string, query: SheetRowsQuery, slots?: VersionRowsSlots): Promise<VersionRows> {
    return this.readOnly(async (db) => {
      const { start, count } = query;
      // With col_start and col_count: those columns of each row only, as GET /sheets/:id/rows.
      const columns = columnSpanOf(query);
      if (isProposalId(versionId)) {
        await this.liveVersion(db, sheetId);
        // Still proposed (its rows never change while it is): checked at each read, its rows read without them.
        const p = await this.proposals(db, sheetId).where('p.id', '=', versionId).select(['p.headers']).executeTakeFirst();
        if (!p) throw notFound(VERSION_NOT_FOUND);
        // A proposal is stored whole: read once and cut into chunks (unparsed), then kept like a committed
        // version (each window of a 1,000,000-row proposal parsed all of it before: 2.5 s and ~1 GB a window).
        const content = await this.rowsCache.get(sheetId, versionId, async () => {
          slots?.hold();
          return proposalChunks(db, versionId, p.headers);
        });
        const data = start >= content.rowCount ? [] : rowsOfChunks(content, start, Math.min(count, content.rowCount - start), columns);
        const summary = query.summary ? { version: { ...this.proposalEntry(p), headers: p.headers, changes: null, charts: await chartsAt(db, sheetId, p.base_version) } } : {};
        return { version_id: versionId, row_count: content.rowCount, column_count: content.colCount, start, data, ...(columns ? { col_start: columns.start } : {}), ...summary };
      }
      const version = Number(versionId);
      const { op, live } = await this.committedOp(db, sheetId, version);
      let content: (Pick<RebuiltChunks, 'headers' | 'rowCount' | 'colCount' | 'sizes'> & { chunks: (string | Uint8Array)[] }) | undefined = this.rowsCache.held(sheetId, version);
      // Not kept (even while it is rebuilt whole: measured, waiting for that rebuild was no faster on PGlite,
      // 0.57 s against 0.51 s for a window right after the first of a 300,000-row version, and PostgreSQL reads in parallel).
      if (!content) {
        const spanned = await rebuildChunks(db, sheetId, version, live, { start, end: start + count });
        content = spanned;
        // Every chunk rebuilt (a version of a few chunks, or history without a recorded shape): kept as it is.
        if (!spanned.chunks.includes('')) void this.rowsCache.get(sheetId, version, async () => spanned);
        else this.fillBehind(sheetId, version, slots?.take);
      }
      const data = start >= content.rowCount ? [] : rowsOfChunks(content, start, Math.min(count, content.rowCount - start), columns);
      let summary = {};
      if (query.summary) {
        const { rows: changes } = await sql<{ changes: string | null }>`SELECT changes::text AS changes FROM sheet_ops
          WHERE sheet_id = ${sheetId}::uuid AND version = ${version}::int`.execute(db);
        const text = changes[0]?.changes ?? null;
        summary = {
          version: {
            ...this.committedEntry(op, live),
            headers: content.headers,
            changes: text === null ? null : (JSON.parse(text) as CellDelta[]),
            charts: await chartsAt(db, sheetId, version),
          },
        };
      }
      return { version_id: versionId, row_count: content.rowCount, column_count: content.colCount, start, data, ...(columns ? { col_start: columns.start } : {}), ...summary };
    });
  }

  /**
   * The next matches of a find in a version or proposal (its windowed preview's find bar), and their
   * count: GET .../versions/{versionId}/find, as GET /sheets/{id}/find answers for the live sheet. The
   * version's rows are those its windows are read from: kept (VersionRowsCache), or rebuilt whole and
   * kept first (rebuildInBatches, as behind a window; a rebuild under way is waited for), its
   * existence checked first as a window's read checks it. `version` in the answer: the committed
   * version's number, or the version a proposal was made on. The caller holds a 'sheet read' slot.
   */
  async find(sheetId: string, versionId: string, query: FindQuery, closed: () => boolean = () => false): Promise<FindResult> {
    let content: Pick<KeptChunks, 'chunks' | 'sizes' | 'rowCount'>;
    let version: number;
    if (isProposalId(versionId)) {
      const p = await this.readOnly(async (db) => {
        await this.liveVersion(db, sheetId);
        return this.proposals(db, sheetId).where('p.id', '=', versionId).select(['p.headers']).executeTakeFirst();
      });
      if (!p) throw notFound(VERSION_NOT_FOUND);
      version = p.base_version;
      content = await this.rowsCache.get(sheetId, versionId, () => this.readOnly((db) => proposalChunks(db, versionId, p.headers)));
    } else {
      version = Number(versionId);
      await this.readOnly((db) => this.committedOp(db, sheetId, version));
      content = this.rowsCache.held(sheetId, version) ?? (await this.rowsCache.get(sheetId, version, () => this.rebuildWhole(sheetId, version)));
    }
    return { id: sheetId, version, row_count: content.rowCount, ...(await findInVersionChunks(content, query, closed)) };
  }

  /**
   * The whole rebuild of a version behind a window answered from its span: in transactions of its
   * own (a batch of chunks each: rebuildInBatches), after this request's (PGlite has one session),
   * under a 'sheet read' slot until kept.
   */
  private fillBehind(sheetId: string, version: number, take?: () => () => void): void {
    if (this.rowsCache.pending(sheetId, version)) return;
    let release = () => {};
    if (take) {
      try {
        release = take();
      } catch {
        return;
      }
    }
    void this.rowsCache.fill(sheetId, version, () => this.rebuildWhole(sheetId, version)).finally(release);
  }

  /** A committed version rebuilt whole, a batch of chunks per transaction (rebuildInBatches), stepping aside between batches. */
  private rebuildWhole(sheetId: string, version: number): Promise<RebuiltChunks> {
    let last = 0;
    return rebuildInBatches(async (span) => {
      // Before each batch, a pause as long as the last batch took (at least REBUILD_BATCH_PAUSE_MS): PGlite's
      // queries resolve without a turn of the event loop, so a request that came meanwhile is only read, and
      // its queries (sign-in, access, the window) run, while the rebuild steps aside; it takes half the time at most.
      await new Promise((resolve) => setTimeout(resolve, Math.max(REBUILD_BATCH_PAUSE_MS, last)));
      const t0 = performance.now();
      const batch = await this.readOnly(async (db) => rebuildChunks(db, sheetId, version, await this.liveVersion(db, sheetId), span));
      last = performance.now() - t0;
      return batch;
    });
  }

  /** Resolves when the versions rebuilt so far for windows are kept (or given up): before closing the database, and for tests. */
  async rowsSettled(): Promise<void> {
    await this.rowsCache.settled();
  }

  /** Timeline entries, newest first: runs of one user's edits without a 30-second pause. */
  async snapshots(sheetId: string, limit: number): Promise<SnapshotList> {
    return this.readOnly(async (db) => {
      const { runs, byVersion } = await this.runs(db, sheetId);
      const newest = runs.slice(-limit).reverse();
      if (newest.length === 0) return { snapshots: [] };
      const changesOf = await this.changesFrom(db, sheetId, newest[newest.length - 1].first.version);
      return {
        snapshots: newest.map((run) => {
          const net = netChanges(run.first.version, run.last.version, changesOf);
          return this.snapshotOf(sheetId, run, byVersion, net === null ? null : net.length);
        }),
      };
    });
  }

  /** The Timeline entry holding `version`, with its changed cells (old and new values). */
  async snapshot(sheetId: string, version: number): Promise<SnapshotDetail> {
    return this.readOnly(async (db) => {
      const { runs, byVersion } = await this.runs(db, sheetId);
      const run = runs.find((r) => r.first.version <= version && version <= r.last.version);
      if (!run || !byVersion.has(version)) throw notFound(VERSION_NOT_FOUND);
      const changesOf = await this.changesFrom(db, sheetId, run.first.version, run.last.version);
      const cells = netChanges(run.first.version, run.last.version, changesOf);
      return { ...this.snapshotOf(sheetId, run, byVersion, cells === null ? null : cells.length), cells };
    });
  }

  private async runs(db: AnyDb, sheetId: string) {
    await this.liveVersion(db, sheetId);
    const { rows } = await sql<RunRow>`
      SELECT o.version, o.user_id, u.username, o.created_at, o.changes IS NULL AS whole,
        (m.label IS NOT NULL OR m.origin IS NOT NULL) AS standalone, m.label
      FROM sheet_ops o LEFT JOIN users u ON u.id = o.user_id
      LEFT JOIN sheet_version_marks m ON m.sheet_id = o.sheet_id AND m.version = o.version
      WHERE o.sheet_id = ${sheetId}::uuid AND m.discarded_at IS NULL ORDER BY o.version`.execute(db);
    const byVersion = new Map(rows.map((r) => [r.version, r]));
    const heads: OpHead[] = rows.map((r) => ({
      version: r.version,
      userId: r.user_id,
      createdAt: new Date(r.created_at),
      wholeGrid: r.whole,
      standalone: r.standalone,
    }));
    return { runs: groupRuns(heads), byVersion };
  }

  private async changesFrom(db: AnyDb, sheetId: string, first: number, last = 2 ** 31 - 1): Promise<Map<number, string | null>> {
    const { rows } = await sql<{ version: number; changes: string | null }>`SELECT version, changes::text AS changes FROM sheet_ops
      WHERE sheet_id = ${sheetId}::uuid AND version >= ${first}::int AND version <= ${last}::int ORDER BY version`.execute(db);
    return new Map(rows.map((o) => [o.version, o.changes]));
  }

  private snapshotOf(sheetId: string, run: Run, byVersion: Map<number, RunRow>, deltaCells: number | null): Snapshot {
    const last = byVersion.get(run.last.version)!;
    return {
      sheet_id: sheetId,
      version: run.last.version,
      first_version: run.first.version,
      created_at: new Date(last.created_at).toISOString(),
      author: last.username,
      delta_cells: deltaCells,
      label: last.label,
    };
  }

  /**
   * The content a transition writes: a proposal's grid, or a committed version rebuilt, as chunks'
   * text (written chunk by chunk where it differs from the live grid: SheetsService.update's `grid`).
   */
  private async contentOf(
    sheetId: string,
    versionId: string,
    action: VersionAction,
  ): Promise<{ content: TransitionContent; baseVersion: number; charts?: ChartDefinition[] }> {
    return this.readOnly(async (db) => {
      if (isProposalId(versionId)) {
        await this.liveVersion(db, sheetId);
        const p = await this.proposals(db, sheetId).where('p.id', '=', versionId).select(['p.headers', sql<string>`p.rows::text`.as('rows_text')]).executeTakeFirst();
        if (!p) throw notFound(VERSION_NOT_FOUND);
        transition(action, 'proposed');
        // Cut into chunks unparsed: laid out as the live grid, only the chunks that differ are parsed (SheetsService.update's `grid`).
        return { content: { headers: p.headers, grid: chunkedRowsText(p.headers, p.rows_text) }, baseVersion: p.base_version };
      }
      const version = Number(versionId);
      const { status, live } = await this.committedStatus(db, sheetId, version);
      transition(action, status);
      // A committed version comes back with its charts; a proposal (its grid only) keeps the sheet's.
      const grid = await rebuildChunks(db, sheetId, version, live);
      return { content: { headers: grid.headers, grid }, baseVersion: live, charts: await chartsAt(db, sheetId, version) };
    });
  }

  /** checkout / restore: the version's content becomes a new live version; nothing in between is lost. */
  async checkout(sheetId: string, versionId: string, userId: string, action: 'checkout' | 'restore'): Promise<VersionTransitionResult> {
    const { content, baseVersion, charts } = await this.contentOf(sheetId, versionId, action);
    return this.writeLive(sheetId, versionId, content, baseVersion, userId, action, charts);
  }

  /** accept: the proposal's content becomes a new live version (merged cell by cell if the sheet moved on since its base). */
  async accept(sheetId: string, proposalId: string, userId: string): Promise<VersionTransitionResult> {
    if (!isProposalId(proposalId)) {
      const { status } = await this.readOnly((db) => this.committedStatus(db, sheetId, Number(proposalId)));
      transition('accept', status);
    }
    const { content, baseVersion } = await this.contentOf(sheetId, proposalId, 'accept');
    // Claimed first, so two concurrent accepts cannot both apply it.
    const claimed = await this.db
      .updateTable('sheet_proposals')
      .set({ state: 'accepting' })
      .where('id', '=', proposalId)
      .where('state', '=', 'proposed')
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) throw notFound(VERSION_NOT_FOUND);
    try {
      const result = await this.writeLive(sheetId, proposalId, content, baseVersion, userId, 'accept');
      await this.db.updateTable('sheet_proposals').set({ state: 'accepted', result_version: result.version }).where('id', '=', proposalId).execute();
      return result;
    } catch (err) {
      await this.db.updateTable('sheet_proposals').set({ state: 'proposed' }).where('id', '=', proposalId).execute();
      throw err;
    }
  }

  private async writeLive(
    sheetId: string,
    fromVersionId: string,
    content: TransitionContent,
    baseVersion: number,
    userId: string,
    origin: VersionAction,
    charts?: ChartDefinition[],
  ): Promise<VersionTransitionResult> {
    // A proposal is an AI result (merge_timeline, AI Editing Mode): its accept is the sheet's last AI update (spec 02 §3).
    const metadata = origin === 'accept' ? { metadata: { lastAIUpdate: new Date().toISOString() } } : {};
    const summary = await this.sheets.update(
      sheetId,
      { headers: content.headers, base_version: baseVersion, ...metadata },
      userId,
      // Open clients are told the proposal was accepted (then get the new version's sync).
      origin === 'accept' ? { acceptedVersionId: fromVersionId, grid: content.grid } : { charts, grid: content.grid },
    );
    await this.db
      .insertInto('sheet_version_marks')
      .values({ sheet_id: sheetId, version: summary.version, label: null, labeled_by: null, origin, origin_version_id: fromVersionId })
      .onConflict((oc) => oc.columns(['sheet_id', 'version']).doUpdateSet({ origin, origin_version_id: fromVersionId }))
      .execute();
    return { sheet_id: sheetId, version: summary.version, from_version_id: fromVersionId };
  }

  /** discard: a proposal is removed; an archived version leaves the history (its op stays: later versions are built on it). */
  async discard(sheetId: string, versionId: string): Promise<void> {
    if (isProposalId(versionId)) {
      await this.readOnly((db) => this.liveVersion(db, sheetId));
      transition('discard', 'proposed');
      const removed = await this.db
        .deleteFrom('sheet_proposals')
        .where('id', '=', versionId)
        .where('sheet_id', '=', sheetId)
        .where('state', '=', 'proposed')
        .executeTakeFirst();
      if (removed.numDeletedRows === 0n) throw notFound(VERSION_NOT_FOUND);
      return;
    }
    const version = Number(versionId);
    await this.db.transaction().execute(async (trx) => {
      // The sheet row lock orders this against a concurrent save making another version live.
      const live = await withVersionTables(trx).selectFrom('sheets').select('version').where('id', '=', sheetId).forUpdate().executeTakeFirst();
      if (!live) throw notFound(SHEET_NOT_FOUND);
      const { status } = await this.committedStatus(trx, sheetId, version);
      transition('discard', status);
      await withVersionTables(trx)
        .insertInto('sheet_version_marks')
        .values({ sheet_id: sheetId, version, label: null, labeled_by: null, discarded_at: new Date() })
        .onConflict((oc) => oc.columns(['sheet_id', 'version']).doUpdateSet({ discarded_at: new Date(), label: null }))
        .execute();
    });
  }

  /** A proposed version from full data or from cell changes on a base version (default: the live one). */
  async propose(sheetId: string, body: CreateProposalBody, userId: string): Promise<SheetVersionEntry> {
    // Open proposals are stored whole: one user may keep only so many on a sheet (issue 17 §1).
    const max = QUOTA_DEFAULTS.proposalsPerUserPerSheet;
    const { open } = await this.db
      .selectFrom('sheet_proposals')
      .select(sql<string>`count(*)`.as('open'))
      .where('sheet_id', '=', sheetId)
      .where('author', '=', userId)
      .where('state', '=', 'proposed')
      .executeTakeFirstOrThrow();
    if (Number(open) >= max) throw new HttpError(429, ERROR_CODES.tooManyRequests, QUOTA_TEXTS.proposals(max));
    // A proposal beyond the cell cap could never be accepted: refused before it is stored.
    if (body.data !== undefined) requireSheetSize(body.data.length, widthOf(body.data), this.sheets.maxCells);
    const { base, content } = await this.readOnly(async (db) => {
      const live = await this.liveVersion(db, sheetId);
      const base = body.base_version ?? live;
      if (base > live) throw new HttpError(409, ERROR_CODES.conflict, `Base version ${base} does not exist yet (the sheet is at version ${live})`);
      if (body.data !== undefined && body.base_version === undefined) {
        const { rows } = await sql<{ headers: string[] }>`SELECT headers FROM sheets WHERE id = ${sheetId}::uuid`.execute(db);
        return { base, content: { headers: body.headers ?? rows[0].headers, rows: body.data as GridData } };
      }
      await this.committedStatus(db, sheetId, base);
      const rebuilt = await rebuildChunks(db, sheetId, base, live);
      const headers = body.headers ?? rebuilt.headers;
      if (body.data !== undefined) return { base, content: { headers, rows: body.data } };
      const changes = (body.changes ?? []).map((c) => ({ row: c.row, col: c.col, old: null, new: c.value }));
      const grown = grownSize(rebuilt.rowCount, rebuilt.colCount, changes);
      requireSheetSize(grown.rows, grown.columns, this.sheets.maxCells);
      // The version's chunk texts with the changed ones patched: it is never parsed whole (a 1,000,000 × 10 one took seconds and ~1 GB).
      return { base, content: { headers, text: joinChunkTexts(chunksWithChanges(rebuilt, changes)) } };
    });
    const id = crypto.randomUUID();
    const rows = content.text ?? JSON.stringify(content.rows);
    await this.db
      .insertInto('sheet_proposals')
      .values({ id, sheet_id: sheetId, base_version: base, author: userId, headers: JSON.stringify(content.headers), rows, state: 'proposed' })
      .execute();
    const p = await this.proposals(this.db, sheetId).where('p.id', '=', id).executeTakeFirstOrThrow();
    const entry = this.proposalEntry(p);
    // Open clients refresh their lists of versions (new_proposal).
    this.sheets.changes.emit({ sheetId, kind: 'proposal', versionId: id, author: entry.author });
    return entry;
  }

  /** Names a committed version (named versions are never pruned). */
  async setLabel(sheetId: string, versionId: string, label: string | null, userId: string): Promise<SheetVersionEntry> {
    if (isProposalId(versionId)) throw HttpError.badRequest('Only a committed version can be named');
    const version = Number(versionId);
    await this.db.transaction().execute(async (trx) => {
      await this.committedStatus(trx, sheetId, version);
      await withVersionTables(trx)
        .insertInto('sheet_version_marks')
        .values({ sheet_id: sheetId, version, label, labeled_by: label === null ? null : userId })
        .onConflict((oc) => oc.columns(['sheet_id', 'version']).doUpdateSet({ label, labeled_by: label === null ? null : userId }))
        .execute();
    });
    const history = await this.readOnly(async (db) => {
      const live = await this.liveVersion(db, sheetId);
      const [op] = await this.opRows(db, sheetId, sql`o.version = ${version}::int`, 1, 0);
      return this.committedEntry(op, live);
    });
    return history;
  }

  /** Who changed one cell, when, from what to what (grist-core#2372), newest first. */
  async cellHistory(sheetId: string, row: number, col: number): Promise<CellHistory> {
    return this.readOnly(async (db) => {
      const live = await this.liveVersion(db, sheetId);
      const { rows } = await sql<{ version: number; kind: string; username: string | null; created_at: Date; origin: string | null; d: string | null; whole: boolean }>`
        SELECT o.version, o.kind, u.username, o.created_at, m.origin, d.value::text AS d, o.changes IS NULL AS whole
        FROM sheet_ops o LEFT JOIN users u ON u.id = o.user_id
        LEFT JOIN sheet_version_marks m ON m.sheet_id = o.sheet_id AND m.version = o.version
        LEFT JOIN LATERAL (SELECT e.value FROM json_array_elements(o.changes) e
          WHERE (e.value->>'row')::int = ${row}::int AND (e.value->>'col')::int = ${col}::int) d ON true
        WHERE o.sheet_id = ${sheetId}::uuid AND (o.changes IS NULL OR d.value IS NOT NULL)
        ORDER BY o.version DESC LIMIT ${CELL_HISTORY_LIMIT}`.execute(db);
      const changes: CellHistory['changes'] = [];
      for (const r of rows) {
        let old: CellValue;
        let value: CellValue;
        if (r.whole) {
          // A whole new grid: the cell's value then, against the version before (none before version 1).
          value = await cellAt(db, sheetId, r.version, live, row, col);
          old = r.version > 1 ? await cellAt(db, sheetId, r.version - 1, live, row, col) : null;
          if (sameCell(old, value)) continue;
        } else {
          const d = JSON.parse(r.d!) as CellDelta;
          old = d.old;
          value = d.new;
        }
        changes.push({ version: r.version, author: r.username, created_at: new Date(r.created_at).toISOString(), kind: r.origin ?? r.kind, old, new: value });
      }
      return { row, col, changes };
    });
  }
}

/** Slots of TRANSFER_BOUNDS 'sheet read' for GET .../versions/{id}/rows (versionRows). */
/** A proposal's rows read whole (they never change while it is proposed) and cut into chunks unparsed, as its windows and its find read them. */
async function proposalChunks(db: AnyDb, proposalId: string, headers: string[]): Promise<RebuiltChunks> {
  const { rows_text } = await withVersionTables(db).selectFrom('sheet_proposals').select(sql<string>`rows::text`.as('rows_text')).where('id', '=', proposalId).executeTakeFirstOrThrow();
  return chunkedRowsText(headers, rows_text);
}

export interface VersionRowsSlots {
  /** Held by the request until its reply closes; throws when refused. */
  hold: () => void;
  /** Taken now; returns its release; throws when refused. */
  take: () => () => void;
}

/** The shortest pause before each batch of a version rebuilt whole behind a window (20 batches for 1,000,000 rows). */
const REBUILD_BATCH_PAUSE_MS = 10;

/**
 * One cell of a version: only the chunk holding it is read and rebuilt (a cell's history asks two
 * versions per whole-grid op in it; each read every chunk of a 1,000,000-row sheet before, ~0.35 s).
 */
async function cellAt(db: AnyDb, sheetId: string, version: number, live: number, row: number, col: number): Promise<CellValue> {
  const { chunks, sizes } = await rebuildChunks(db, sheetId, version, live, { start: row, end: row + 1 });
  let first = 0;
  for (const [i, text] of chunks.entries()) {
    if (row < first + sizes[i]) return (JSON.parse(text) as CellValue[][])[row - first]?.[col] ?? null;
    first += sizes[i];
  }
  return null;
}

/** The cells whose value differs between the version before `first` and `last` (first old, last new); null when an op in between replaced the whole grid. */
export function netChanges(first: number, last: number, changesOf: Map<number, string | null>): CellDelta[] | null {
  const net = new Map<string, CellDelta>();
  for (let v = first; v <= last; v++) {
    const text = changesOf.get(v);
    if (text === undefined) continue;
    if (text === null) return null;
    for (const d of JSON.parse(text) as CellDelta[]) {
      const key = `${d.row}:${d.col}`;
      const seen = net.get(key);
      if (seen) seen.new = d.new;
      else net.set(key, { row: d.row, col: d.col, old: d.old, new: d.new });
    }
  }
  return [...net.values()].filter((c) => !sameCell(c.old, c.new));
}
