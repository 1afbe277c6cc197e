import type { GroupTree, GroupTreeNode, ItemType } from '@tessera/contracts';
import { can } from '../access/can.js';

/** What is being dragged, with where it sits now (its group, or null at root level). */
export interface DragItem {
  type: ItemType;
  id: string;
  parentId: string | null;
}

/** The dataTransfer type of a dragged row (the text/plain fallback carries its name). */
export const DRAG_ITEM_TYPE = 'application/x-tessera-item';

function findNode(nodes: GroupTreeNode[], id: string): GroupTreeNode | undefined {
  for (const node of nodes) {
    const found = node.group.id === id ? node : findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** Is `groupId` the group `ancestorId` itself or inside it, at any depth? */
export function isSelfOrDescendant(tree: GroupTree, ancestorId: string, groupId: string): boolean {
  if (ancestorId === groupId) return true;
  const ancestor = findNode(tree.groups, ancestorId);
  return !!ancestor && !!findNode(ancestor.children, groupId);
}

/**
 * May the user add to the group `target` (null: root level)? Editing there takes editor (issue
 * 18): the group's level, or at root the tree's `root_access`. A level the server did not send
 * (an api before issue 18) leaves it to the server.
 */
export function canAddInto(tree: GroupTree, target: string | null): boolean {
  if (target === null) return can(tree.root_access, 'edit');
  const node = findNode(tree.groups, target);
  return !!node && can(node.group.access, 'edit');
}

/**
 * May `item` be dropped into the group `target` (null: root level)? Not where it already is
 * (nothing would change), a group never into itself or a descendant (spec 01 §4), and only
 * where the user may add (canAddInto) — the server refuses the others too.
 */
export function canMoveInto(tree: GroupTree, item: DragItem, target: string | null): boolean {
  if (target === item.parentId) return false;
  if (item.type === 'group' && target !== null && isSelfOrDescendant(tree, item.id, target)) return false;
  return canAddInto(tree, target);
}

/** A place an item can be moved to from its menu: a group (with its depth, for indenting) or root level (id null). */
export interface MoveTarget {
  id: string | null;
  name: string;
  depth: number;
}

/** The menu's label of root level. */
export const ROOT_LEVEL_LABEL = 'Root level';

/** Where 'Move to...' may take `item`: root level, then every group in tree order, minus the places canMoveInto refuses. */
export function moveTargets(tree: GroupTree, item: DragItem): MoveTarget[] {
  const targets: MoveTarget[] = [{ id: null, name: ROOT_LEVEL_LABEL, depth: 0 }];
  const visit = (node: GroupTreeNode, depth: number) => {
    targets.push({ id: node.group.id, name: node.group.name, depth });
    node.children.forEach((child) => visit(child, depth + 1));
  };
  tree.groups.forEach((node) => visit(node, 0));
  return targets.filter((target) => canMoveInto(tree, item, target.id));
}
