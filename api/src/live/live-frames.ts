import type { AppliedOperation, ChartDefinition, LiveServerFrame } from '@tessera/contracts';
import type { SheetChange } from '../sheets/sheet-changes.js';
import { appliedMoveFields } from '../sheets/sheet-ops.tables.js';
import type { LoggedOp } from './sheet-ops.repository.js';

/**
 * The operation frames of missed versions, oldest first, for a reconnecting client; null when one
 * of them cannot be replayed as an operation (a whole-grid save, a rename or other metadata, a
 * restore): the client then gets a `sync`. Cell ops, structural ops (rows / columns inserted
 * or removed, kept in the op log with their index and count) and chart changes are replayed, with the id the
 * sending client gave them, so that a client whose ack was lost recognises its own operation.
 */
export function replayFrames(sheetId: string, missed: LoggedOp[]): LiveServerFrame[] | null {
  const frames: LiveServerFrame[] = [];
  for (const op of missed) {
    const base = { id: op.opId ?? `replay-${op.version}`, user_id: op.userId ?? '', timestamp: op.createdAt.toISOString() };
    let operation: AppliedOperation;
    if (op.kind === 'cells' && op.changes !== null) {
      operation = { ...base, type: 'cells_update', changes: op.changes.map((d) => ({ row: d.row, col: d.col, value: d.new })) };
    } else if (op.structure !== null) {
      operation = { ...base, ...appliedMoveFields(op.structure) };
    } else if (op.kind === 'chart' && op.chart) {
      frames.push(chartFrame(sheetId, op.version, op.chart.id, op.chart.chart, base.user_id, base.timestamp));
      continue;
    } else {
      return null;
    }
    frames.push({ type: 'operation', data: { sheet_id: sheetId, version: op.version, operation } });
  }
  return frames;
}

/**
 * The frame a committed change that did not come through the live socket (`liveOrigin`) gives
 * the open sockets of the sheet: an operation for cells and structural changes, a chart frame for a
 * chart change, new_proposal and
 * live_update_accepted for versions. Undefined for the changes the hub treats itself (a whole
 * sheet: sync; deleted: close) and for its own operations (broadcast already).
 */
export function changeFrame(change: SheetChange, liveOrigin: string): LiveServerFrame | undefined {
  switch (change.kind) {
    case 'cells':
    case 'structure': {
      if (change.origin === liveOrigin) return undefined;
      const base = { id: `rest-${change.version}`, user_id: change.userId, timestamp: change.updatedAt };
      const operation: AppliedOperation =
        change.kind === 'cells' ? { ...base, type: 'cells_update', changes: change.changes } : { ...base, ...appliedMoveFields(change.operation) };
      return { type: 'operation', data: { sheet_id: change.sheetId, version: change.version, operation } };
    }
    case 'chart':
      return chartFrame(change.sheetId, change.version, change.chartId, change.chart, change.userId, change.updatedAt);
    case 'proposal':
      return { type: 'new_proposal', data: { sheet_id: change.sheetId, version_id: change.versionId, author: change.author } };
    case 'accepted':
      return { type: 'live_update_accepted', data: { sheet_id: change.sheetId, version_id: change.versionId, version: change.version } };
    default:
      return undefined;
  }
}

/** A chart change (issue 20) as its version's frame: the chart as stored, or null when deleted. */
export function chartFrame(sheetId: string, version: number, chartId: string, chart: ChartDefinition | null, userId: string, timestamp: string): LiveServerFrame {
  return { type: 'chart', data: { sheet_id: sheetId, version, chart_id: chartId, chart, user_id: userId, timestamp } };
}

/** The version a replayed frame brings (-1: none). */
export const frameVersion = (frame: LiveServerFrame): number => (frame.type === 'operation' || frame.type === 'chart' ? frame.data.version : -1);
