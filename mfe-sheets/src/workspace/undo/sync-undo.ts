import type { CellValue, GridData } from '@tessera/contracts';

/**
 * A sync — the server's whole sheet replacing the one shown (someone's PUT: a version restore, an
 * api write, an import over it, an accepted proposal; the user's own File › Save; a repair of a grid
 * that drifted) — carries no author, and the user's own Save comes back as one too. What tells them
 * apart is what it does to the cells: the user's undo steps (at absolute rows and columns) stay right
 * only when every cell is where and what it was, as after an own Save or a repair that found nothing
 * to mend. Otherwise a step's cell may hold other data now, and its undo would write an old value
 * into it: the history is dropped, as Google Sheets and Excel Online drop what they cannot map.
 *
 * `shown`: the rows shown before the sync (the grid's, with its spare columns); `server`: the sync's;
 * `ownCell`: the cells own edits still pending hold (shown again on top after the sync, so not
 * compared), null when an own row or column insert or remove is pending (positions differ then).
 */
export function syncKeepsUndo(shown: GridData, server: GridData, ownCell: ((row: number, col: number) => boolean) | null): boolean {
  if (ownCell === null) return false;
  const rows = Math.max(shown.length, server.length);
  for (let r = 0; r < rows; r++) {
    const before = shown[r] ?? [];
    const after = server[r] ?? [];
    const cols = Math.max(before.length, after.length);
    for (let c = 0; c < cols; c++) {
      if (!sameCell(before[c], after[c]) && !ownCell(r, c)) return false;
    }
  }
  return true;
}

/** Empty is empty however held (null, never set, ''), as the stored grid trims it. */
const sameCell = (a: CellValue | undefined, b: CellValue | undefined): boolean => a === b || (isEmpty(a) && isEmpty(b));
const isEmpty = (v: CellValue | undefined): boolean => v === null || v === undefined || v === '';
