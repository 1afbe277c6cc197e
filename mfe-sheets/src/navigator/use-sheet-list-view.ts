import { failedToListSheets, type GroupTree, type SheetSummary, type ShellContext } from '@tessera/contracts';
import { useEffect, useRef, useState } from 'react';
import { requestDetail } from '../workspace/timeline/service-result.js';
import { listSheets, type SheetListView } from './sheet-list.service.js';

export interface SheetListViewState {
  status: 'loading' | 'ready' | 'error';
  /** The last list received; kept while the next one loads so the view does not flicker. */
  sheets: SheetSummary[];
  /** When the list failed: 'Failed to list sheets: {reason}' (spec 01 §8). */
  error?: string;
}

const LOADING: SheetListViewState = { status: 'loading', sheets: [] };

/**
 * The flat list of a filter (Favorites, Recent) or a search, instead of the tree; null for
 * the tree itself. A search waits `searchDebounceMs` after the last keystroke. The list is
 * asked again whenever the tree reloads (a rename, a favorite, a delete changes it too).
 * Only the newest request may write the state: an earlier, slower reply is dropped.
 */
export function useSheetListView(
  api: ShellContext['api'],
  view: SheetListView | null,
  tree: GroupTree,
  searchDebounceMs: number,
): SheetListViewState | null {
  // Tagged with the kind of view it belongs to: another kind never shows these sheets, while
  // a search typed on keeps its last results until the new ones arrive.
  const [state, setState] = useState<SheetListViewState & { kind: SheetListView['kind'] | null }>({ ...LOADING, kind: null });
  const latest = useRef(0);
  // The view by value: a new object with the same query must not start a new request.
  const key = view && JSON.stringify(view);

  useEffect(() => {
    const seq = ++latest.current;
    if (!key) {
      setState({ ...LOADING, kind: null });
      return;
    }
    const current = JSON.parse(key) as SheetListView;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        listSheets(api, current, controller.signal).then(
          ({ sheets }) => seq === latest.current && setState({ status: 'ready', sheets, kind: current.kind }),
          (err: unknown) =>
            seq === latest.current &&
            setState((s) => ({ status: 'error', sheets: s.kind === current.kind ? s.sheets : [], error: failedToListSheets(requestDetail(err)), kind: current.kind })),
        );
      },
      current.kind === 'search' ? searchDebounceMs : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, key, tree, searchDebounceMs]);

  if (!view) return null;
  if (state.kind !== view.kind) return LOADING;
  return { status: state.status, sheets: state.sheets, ...(state.error ? { error: state.error } : {}) };
}
