import { SNAPSHOT_RUN_GAP_MS } from '@tessera/contracts';

export interface OpHead {
  version: number;
  userId: string | null;
  createdAt: Date;
  /** The op replaced the whole grid (a create, an import): always an entry of its own. */
  wholeGrid: boolean;
  /** Labeled, or made by accept / checkout / restore: ends its entry, so it can be restored by itself. */
  standalone: boolean;
}

export interface Run {
  first: OpHead;
  last: OpHead;
}

/**
 * Timeline entries (DESIGN § Versions): consecutive versions by one user, each within
 * SNAPSHOT_RUN_GAP_MS of the previous one, form one run. Ops oldest first; runs oldest first.
 */
export function groupRuns(ops: OpHead[]): Run[] {
  const runs: Run[] = [];
  let current: Run | null = null;
  for (const op of ops) {
    const joins =
      current !== null &&
      !op.wholeGrid &&
      !current.last.wholeGrid &&
      !current.last.standalone &&
      !op.standalone &&
      current.last.userId === op.userId &&
      op.createdAt.getTime() - current.last.createdAt.getTime() <= SNAPSHOT_RUN_GAP_MS;
    if (joins && current) current.last = op;
    else {
      current = { first: op, last: op };
      runs.push(current);
    }
  }
  return runs;
}
