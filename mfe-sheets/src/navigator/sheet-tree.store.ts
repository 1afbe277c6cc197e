import type { GroupTree } from '@tessera/contracts';
import { create } from 'zustand';

export type SheetTreeStatus = 'loading' | 'ready' | 'error';

export interface SheetTreeState {
  status: SheetTreeStatus;
  /** The last tree loaded; kept while a reload runs so the navigator does not flicker. */
  tree: GroupTree;
}

export const EMPTY_TREE: GroupTree = { groups: [], sheets: [] };

/** What the navigator knows of the sheet tree (GET /api/v1/groups/tree). */
export const useSheetTree = create<SheetTreeState>(() => ({ status: 'loading', tree: EMPTY_TREE }));
