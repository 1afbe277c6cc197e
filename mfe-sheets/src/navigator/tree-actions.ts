import type { ItemType } from '@tessera/contracts';

/** What the tree rows can ask of the navigator; one object so nested groups pass it on whole. */
export interface TreeActions {
  /** The item being renamed inline, if any. */
  editing: { type: ItemType; id: string } | null;
  /** Time the green dots are measured from. */
  now: number;
  openSheet(id: string): void;
  startRename(type: ItemType, id: string): void;
  rename(type: ItemType, id: string, name: string): void;
  cancelRename(): void;
  /** Adds a new group or sheet inside the group. */
  addInGroup(kind: 'group' | 'sheet', groupId: string): void;
  toggleFavorite(sheetId: string): void;
  /** Opens the delete confirmation for the item. */
  requestDelete(type: ItemType, id: string, name: string): void;
}

export const isEditing = (actions: TreeActions, type: ItemType, id: string) =>
  actions.editing?.type === type && actions.editing.id === id;
