import { createStore, type StoreApi } from 'zustand';
import { loadReported, nextCellSelection, type CellSelection, type SheetReport, type ShellSheet } from '@tessera/contracts';

/** What the shell knows of the current sheet beyond its id: the Workspace's last report and the selection. */
export interface CurrentSheetState {
  report: SheetReport | null;
  /** The selected cell and the sheet it was selected on. */
  selection: (CellSelection & { sheetId: string }) | null;
}

export type CurrentSheetStore = StoreApi<CurrentSheetState>;

export const createCurrentSheetStore = (): CurrentSheetStore => createStore<CurrentSheetState>(() => ({ report: null, selection: null }));

const NO_SIZE = { rows: 0, cols: 0 };

/**
 * ShellContext.sheet for the route's sheet `id`, read from the store. A report or a selection
 * made for another sheet (a remote still holding the previous context) does not count, so
 * switching sheets starts with nothing reported and no selection without any reset step.
 */
export function currentSheet(
  store: CurrentSheetStore,
  state: CurrentSheetState,
  id: string | null,
  open: (id: string | null) => void,
): ShellSheet {
  const report = id !== null && state.report?.id === id ? state.report : null;
  const selected = id !== null && state.selection?.sheetId === id ? state.selection : null;
  return {
    id,
    open,
    name: report?.name ?? null,
    headers: report?.headers ?? [],
    size: report?.size ?? NO_SIZE,
    selection: selected ? { row: selected.row, col: selected.col } : null,
    version: report?.version ?? null,
    getData: () => (report ? report.getData() : null),
    // Forwarded too: the chat and the Code tab read a windowed sheet's cells with it (issue 23).
    loadData: (rows) => loadReported(report, rows),
    report(next) {
      if (next === null) {
        // Only the sheet's own Workspace clears its report.
        if (store.getState().report?.id === id) store.setState({ report: null });
        return;
      }
      if (next.id !== id) return;
      store.setState({ report: next });
    },
    select(row, col) {
      if (id === null) return;
      const now = store.getState().selection;
      const outcome = nextCellSelection(now?.sheetId === id ? now : null, row, col);
      if (outcome.kind === 'invalid') console.warn(outcome.warning);
      else if (outcome.kind === 'select') store.setState({ selection: { ...outcome.selection, sheetId: id } });
    },
  };
}
