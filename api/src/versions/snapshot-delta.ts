import type { CellValue } from '@tessera/contracts';
import type { CellDelta } from '../sheets/cell-grid.js';

/** One cell of a delta snapshot as stored: [row, col, old, new] (arrays: about half the text of objects). */
export type PackedCell = [number, number, CellValue, CellValue];

/** A delta snapshot's place in the history: it turns version `from` into version `to`, changing `cells` cells. */
export interface DeltaSpan {
  from: number;
  to: number;
  cells: number;
}

/**
 * Consecutive ops (oldest first) folded into one change per cell: its first old and its last new
 * value. Every cell is kept, even one whose value came back: replaying the fold must give exactly
 * what replaying the ops gives (a null written past a row's end is not the same stored row as none).
 */
export function foldPacked(ops: (CellDelta[] | PackedCell[])[]): PackedCell[] {
  const byCell = new Map<string, PackedCell>();
  for (const list of ops) {
    for (const d of list) {
      const [row, col, old, value] = Array.isArray(d) ? d : [d.row, d.col, d.old, d.new];
      const key = `${row}:${col}`;
      const seen = byCell.get(key);
      if (seen) seen[3] = value;
      else byCell.set(key, [row, col, old, value]);
    }
  }
  return [...byCell.values()];
}

export const unpack = (cells: PackedCell[]): CellDelta[] => cells.map(([row, col, old, value]) => ({ row, col, old, new: value }));

/**
 * The delta snapshots that take version `base` forwards towards `version`, oldest first, and the
 * version from which the op log has to go on. A delta snapshot starting later than where the chain
 * is (after a cells_clear, which no delta snapshot spans: version-recorder.ts captureDelta; or one
 * dropped by pruning) is still used: the op log fills the gap before it (`gaps` versions in all),
 * which replays no more than the op log all the way would.
 */
export function forwardChain(deltas: DeltaSpan[], base: number, version: number): { used: DeltaSpan[]; opsFrom: number; gaps: number } {
  const used: DeltaSpan[] = [];
  let at = base;
  let gaps = 0;
  for (const d of [...deltas].sort((a, b) => a.from - b.from)) {
    if (d.to > version) break;
    if (d.from >= at) {
      gaps += d.from - at;
      used.push(d);
      at = d.to;
    }
  }
  return { used, opsFrom: at, gaps };
}

/**
 * The delta snapshots that take version `top` backwards towards `version`, newest first and
 * contiguous, with the op log replayed backwards above the newest (`(opsAbove, top]`) and below
 * the oldest (`(version, opsBelow]`). None: the op log all the way, `(version, top]`.
 */
export function backwardChain(
  deltas: DeltaSpan[],
  version: number,
  top: number,
): { used: DeltaSpan[]; opsAbove: number; opsBelow: number } {
  const used: DeltaSpan[] = [];
  for (const d of [...deltas].filter((d) => d.from >= version && d.to <= top).sort((a, b) => b.to - a.to)) {
    if (used.length > 0 && d.to !== used[used.length - 1].from) break;
    used.push(d);
  }
  if (used.length === 0) return { used, opsAbove: top, opsBelow: top };
  return { used, opsAbove: used[0].to, opsBelow: used[used.length - 1].from };
}
