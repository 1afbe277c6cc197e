import {
  type CellChange,
  CLEAR_TEXTS,
  type ClearBlock,
  clearBlocksThrough,
  type MoveStep,
  type ChartBox,
  type ChartRange,
  EDIT_DROPPED_TEXT,
  ERROR_CODES,
  moveChartBox,
  moveChartRange,
  SHEET_MAX_COLUMNS,
  SHEET_REPLACED_TEXT,
  SORT_TEXTS,
  STRUCTURE_DROPPED_TEXT,
  SORT_ORDER_SENT_MAX_ROWS,
  transformIndex,
  transformChanges,
  transformStructure,
} from '@tessera/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/http-error.js';
import type { SheetChangeFeed } from './sheet-changes.js';
import { movesNothing, sortedRows, storedSortOrder, type StoredMoveOp, type StoredStructureOp } from './sheet-ops.tables.js';

/**
 * What a live operation's positions go through on the server (DESIGN.md § Live collaboration):
 * the rows and columns inserted or removed after the version its client had applied
 * (`base_version`), read from the op log under the sheet's row lock, so that the list is the
 * one the operation is committed after. The transform itself is the contracts' one
 * (transform-position.ts), the client's too.
 *
 * In the op log, cell changes ('cells'), metadata ('meta'), chart changes ('chart') and a whole-grid save that changed
 * no cell move nothing; structural ops carry their {type, index, count} in `op`. Anything else
 * after the base — a whole grid written (PUT with data: a restore, a checkout, an accepted
 * proposal, a save from a client), or made anew — replaced rows wholesale: positions cannot be
 * moved through it, and the operation is refused (409, SHEET_REPLACED_TEXT); its client gets
 * that sync already and shows the sheet as it is. Structural ops are never pruned (the pruner
 * keeps every whole-grid version), so the list is complete for any base the sheet had.
 */
export interface StructureHistory {
  /** Structural ops after the lowest base asked for, oldest first. */
  steps: { version: number; op: StoredMoveOp }[];
  /** The latest whole-grid replacement after that base, if any. */
  replacedAt: number | null;
}

const NONE: StructureHistory = { steps: [], replacedAt: null };

/** The structure history after `base` of a sheet whose row the caller has locked (`current`: its version). */
export async function structureSince(db: Kysely<Database> | Transaction<Database>, sheetId: string, base: number, current: number): Promise<StructureHistory> {
  // The common case: the client had everything (a quiet sheet, or its own previous op acked) — no query.
  if (base >= current) return NONE;
  // The primary key (sheet_id, version) bounds the scan to the versions after the base.
  const { rows } = await sql<{ version: number; op: string | null; neutral: boolean }>`
    SELECT version, op::text AS op, (kind = 'save' AND coalesce(json_array_length(changes), 1) = 0) AS neutral
    FROM sheet_ops
    WHERE sheet_id = ${sheetId}::uuid AND version > ${base}::int AND kind NOT IN ('cells', 'meta', 'chart')
    ORDER BY version`.execute(db);
  const steps: StructureHistory['steps'] = [];
  let replacedAt: number | null = null;
  for (const r of rows) {
    if (r.op !== null) steps.push({ version: r.version, op: JSON.parse(r.op) as StoredMoveOp });
    else if (!r.neutral) replacedAt = r.version;
  }
  return { steps, replacedAt };
}

type Db = Kysely<Database> | Transaction<Database>;

/** What the log knows of one sheet: every version in (from, upTo], its structure ops and latest whole-grid replacement. */
interface Known {
  from: number;
  upTo: number;
  steps: StructureHistory['steps'];
  replacedAt: number | null;
}

/** Sheets whose recent structure history is kept (least recently used dropped first), and how far back. */
export const STRUCTURE_LOG_SHEETS = 2_000;
export const STRUCTURE_LOG_VERSIONS = 5_000;

/**
 * The recent structure history of the sheets this process writes, kept from its own commits
 * (the change feed, told after each commit, in order), so that a live op on a busy sheet — whose
 * base is a few versions old — costs no query. It answers only when it knows every version
 * from the op's base to the sheet's current one (read under the row lock): a version committed
 * by another api process, or a whole-grid PUT (which may or may not replace rows), leaves a gap,
 * and the op log is read instead (and fills the gap).
 */
export class StructureLog {
  readonly #known = new Map<string, Known>();

  constructor(
    feed: SheetChangeFeed,
    private readonly query: (db: Db, sheetId: string, base: number, current: number) => Promise<StructureHistory> = structureSince,
  ) {
    feed.subscribe((change) => {
      if (change.kind === 'cells' || change.kind === 'chart') this.#advance(change.sheetId, change.version, null);
      else if (change.kind === 'structure') this.#advance(change.sheetId, change.version, change.operation);
      else if (change.kind === 'sheet') this.#keep(change.sheetId, { from: change.version, upTo: change.version, steps: [], replacedAt: null });
      else if (change.kind === 'deleted') this.#known.delete(change.sheetId);
    });
  }

  /** The structure history after `base` of a sheet locked at `current`. */
  async since(db: Db, sheetId: string, base: number, current: number): Promise<StructureHistory> {
    if (base >= current) return NONE;
    const known = this.#known.get(sheetId);
    if (known && known.upTo === current && base >= known.from) {
      this.#keep(sheetId, known);
      return { steps: known.steps.filter((s) => s.version > base), replacedAt: known.replacedAt !== null && known.replacedAt > base ? known.replacedAt : null };
    }
    const read = await this.query(db, sheetId, base, current);
    this.#keep(sheetId, { from: base, upTo: current, steps: read.steps, replacedAt: read.replacedAt });
    return read;
  }

  /** This process committed `version` (after the lock that made it): the next version of what is known, or a fresh start. */
  #advance(sheetId: string, version: number, op: StoredMoveOp | null): void {
    const known = this.#known.get(sheetId);
    if (known && known.upTo >= version) return;
    const next: Known = known && known.upTo === version - 1 ? known : { from: version - 1, upTo: version - 1, steps: [], replacedAt: null };
    next.upTo = version;
    // A sort past SORT_ORDER_SENT_MAX_ROWS rows is not kept (its order is megabytes): the known history starts after it, and an op based before it reads the log.
    if (op?.type === 'rows_sort' && sortedRows(op) > SORT_ORDER_SENT_MAX_ROWS) {
      next.from = version;
      next.steps = [];
      next.replacedAt = null;
    } else if (op) next.steps.push({ version, op });
    if (next.upTo - next.from > STRUCTURE_LOG_VERSIONS) {
      next.from = next.upTo - STRUCTURE_LOG_VERSIONS;
      next.steps = next.steps.filter((s) => s.version > next.from);
    }
    this.#keep(sheetId, next);
  }

  #keep(sheetId: string, known: Known): void {
    this.#known.delete(sheetId);
    this.#known.set(sheetId, known);
    if (this.#known.size > STRUCTURE_LOG_SHEETS) this.#known.delete(this.#known.keys().next().value!);
  }
}

/** A base version the sheet has not reached (a forged or confused client), or null. */
export function baseAhead(base: number | undefined, current: number): HttpError | null {
  return base !== undefined && base > current ? new HttpError(400, ERROR_CODES.validation, `base_version ${base} is ahead of the sheet (version ${current})`) : null;
}

/** Why an operation based on `base` cannot be moved to `current`, or null. */
function baseError(base: number, current: number, history: StructureHistory): HttpError | null {
  const ahead = baseAhead(base, current);
  if (ahead) return ahead;
  if (history.replacedAt !== null && history.replacedAt > base) return new HttpError(409, ERROR_CODES.conflict, SHEET_REPLACED_TEXT);
  return null;
}

/**
 * The ops after `base` that move positions, as the contracts' transform takes them: a cleared block
 * (or a clear undone) moves none; a sort with its order unpacked (one the log holds no order of cannot be moved through).
 */
export function stepsAfter(history: StructureHistory, base: number): MoveStep[] {
  return history.steps
    .filter((s) => s.version > base)
    .flatMap(({ op }): MoveStep[] => {
      if (movesNothing(op)) return [];
      if (op.type !== 'rows_sort') return [op];
      const order = storedSortOrder(op);
      if (!order) throw new HttpError(409, ERROR_CODES.conflict, SHEET_REPLACED_TEXT);
      return [{ type: 'rows_sort', order }];
    });
}
/** Charts are anchored to cells of a range of rows: a sort reorders the rows inside it and moves no chart; a cleared block (or one put back) moves nothing. */
const rangeStepsAfter = (history: StructureHistory, base: number) =>
  history.steps.filter((s) => s.version > base).map((s) => s.op).filter((op): op is StoredStructureOp => op.type !== 'rows_sort' && !movesNothing(op));

/**
 * A live cell write based on `base` (undefined: an older client, taken as current), moved to
 * the sheet at `current`: the cells left (a paste keeps those whose row and column still
 * exist), or the refusal when none is left or the base cannot be moved from.
 */
export function moveCells<C extends CellChange>(changes: C[], base: number | undefined, current: number, history: StructureHistory): C[] | HttpError {
  if (base === undefined) return changes;
  const refused = baseError(base, current, history);
  if (refused) return refused;
  const moved = transformChanges(changes, stepsAfter(history, base));
  if (moved.changes.length === 0) return new HttpError(409, ERROR_CODES.conflict, EDIT_DROPPED_TEXT);
  return moved.changes;
}

/** A live structural op based on `base` moved to the sheet at `current`, or the refusal (nothing left of its range, or no way to move it). */
export function moveStructure(op: StoredStructureOp, base: number | undefined, current: number, history: StructureHistory): StoredStructureOp | HttpError {
  if (base === undefined) return op;
  const refused = baseError(base, current, history);
  if (refused) return refused;
  let moved: StoredStructureOp | null = op;
  for (const step of stepsAfter(history, base)) {
    moved = transformStructure(moved, step, 'after');
    if (moved === null) return new HttpError(409, ERROR_CODES.conflict, step.type === 'rows_sort' ? SORT_TEXTS.rowsSorted : STRUCTURE_DROPPED_TEXT);
  }
  return moved;
}

/**
 * A live clear's block based on `base` moved to the sheet at `current` (cells-clear.ts: it
 * shrinks with rows or columns removed, grows over rows inserted inside it, stays whole through a
 * sort of all its rows), or the refusal: nothing of it left, its rows scattered by a sort, or no way to move it.
 */
export function moveClearBlock(block: ClearBlock, base: number | undefined, current: number, history: StructureHistory): ClearBlock | HttpError {
  if (base === undefined) return block;
  const refused = baseError(base, current, history);
  if (refused) return refused;
  const moved = clearBlocksThrough([block], stepsAfter(history, base), 'after');
  if (moved === null) return new HttpError(409, ERROR_CODES.conflict, CLEAR_TEXTS.rowsSorted);
  // Moved as the server moves it ('after'), a block never comes apart: one or none.
  if (moved.length === 0) return new HttpError(409, ERROR_CODES.conflict, CLEAR_TEXTS.removed);
  return moved[0];
}

/**
 * The column of a live sort based on `base` moved to the sheet at `current` through the columns
 * inserted or removed since (rows inserted, removed or sorted leave it: the order is computed on
 * the rows as they are now), or the refusal (its column removed, or no way to move it).
 */
export function moveSortColumn(column: number, base: number | undefined, current: number, history: StructureHistory): number | HttpError {
  if (base === undefined) return column;
  const refused = baseError(base, current, history);
  if (refused) return refused;
  let moved: number | null = column;
  for (const step of rangeStepsAfter(history, base)) {
    if (step.type !== 'columns_insert' && step.type !== 'columns_remove') continue;
    moved = transformIndex(moved, step);
    if (moved === null || moved >= SHEET_MAX_COLUMNS) return new HttpError(409, ERROR_CODES.conflict, SORT_TEXTS.columnRemoved);
  }
  return moved;
}

/**
 * A chart's range as its author saw it at `base` (issue 20), moved to the sheet at `current`
 * through the row and column ops since, as a live op's cells are: null when all its cells were
 * removed, or the refusal when the base cannot be moved from.
 */
export function moveChartRangeTo(range: ChartRange, base: number | undefined, current: number, history: StructureHistory): ChartRange | null | HttpError {
  if (base === undefined) return range;
  const refused = baseError(base, current, history);
  if (refused) return refused;
  let moved: ChartRange | null = range;
  for (const step of rangeStepsAfter(history, base)) {
    moved = moveChartRange(moved, step);
    if (moved === null) return null;
  }
  return moved;
}

/**
 * A chart's box as its author placed it at `base` (anchored to a cell), moved to the sheet at
 * `current` through the row and column ops since, with its cell (the base was checked with the range).
 */
export function moveChartBoxTo(box: ChartBox, base: number | undefined, history: StructureHistory): ChartBox {
  if (base === undefined) return box;
  let moved = box;
  for (const step of rangeStepsAfter(history, base)) moved = moveChartBox(moved, step);
  return moved;
}
