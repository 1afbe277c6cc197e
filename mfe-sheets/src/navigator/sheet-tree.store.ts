import { create } from 'zustand';

export type SheetTreeStatus = 'loading' | 'ready';

export interface SheetTreeState {
  status: SheetTreeStatus;
}

/**
 * What the navigator knows of the sheet tree. There is no sheets service yet, so
 * nothing loads and the tree is empty ('ready'); the Sheets issue adds the groups
 * and sheets here and sets 'loading' while its GET runs.
 */
export const useSheetTree = create<SheetTreeState>(() => ({ status: 'ready' }));
