import type { ItemType } from '@tessera/contracts';
import type { DragItem, MoveTarget } from './drag-drop.js';

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
  duplicateSheet(sheetId: string): void;
  /** Opens the delete confirmation for the item. */
  requestDelete(type: ItemType, id: string, name: string): void;
  /** Opens the sharing dialog for the item. */
  share(type: ItemType, id: string, name: string): void;
  drag: DragActions;
}

/** Drag and drop of rows: groups and the root zone are the targets (null: root level). */
export interface DragActions {
  start(item: DragItem): void;
  end(): void;
  /** Does the target accept what is being dragged? */
  canDrop(target: string | null): boolean;
  drop(target: string | null): void;
  /** Where the item's 'Move to...' menu may take it. */
  targets(item: DragItem): MoveTarget[];
  moveTo(item: DragItem, target: string | null): void;
}

export const isEditing = (actions: TreeActions, type: ItemType, id: string) =>
  actions.editing?.type === type && actions.editing.id === id;
