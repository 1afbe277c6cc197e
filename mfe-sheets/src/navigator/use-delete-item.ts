import type { GroupTree, GroupTreeNode, ItemType, ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { deleteItem } from './navigator-items.service.js';

/** Navigator text of a failed delete (spec 01 §8). */
export const DELETE_FAILED = 'Failed to delete sheet';

export interface PendingDelete {
  type: ItemType;
  id: string;
  name: string;
}

/** Does the group (at any depth) hold the sheet? Deleting the group deletes it too. */
function groupHoldsSheet(node: GroupTreeNode, sheetId: string): boolean {
  return node.sheets.some((s) => s.id === sheetId) || node.children.some((child) => groupHoldsSheet(child, sheetId));
}

function findGroup(nodes: GroupTreeNode[], id: string): GroupTreeNode | undefined {
  for (const node of nodes) {
    const found = node.group.id === id ? node : findGroup(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Delete from the overflow menu, after the confirmation dialog. Deleting the open sheet
 * (or a group holding it) clears the selection with shell.sheet.open(null) (spec 01 §4).
 */
export function useDeleteItem(shell: ShellContext, tree: GroupTree, reload: () => Promise<void>) {
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const request = (item: PendingDelete) => {
    setError(null);
    setPending(item);
  };

  const confirm = async () => {
    if (!pending || busy) return;
    const { type, id } = pending;
    const openId = shell.sheet.id;
    const group = type === 'group' ? findGroup(tree.groups, id) : undefined;
    const clearsOpenSheet = openId !== null && (type === 'sheet' ? id === openId : !!group && groupHoldsSheet(group, openId));
    setBusy(true);
    try {
      await deleteItem(shell.api, type, id);
      if (clearsOpenSheet) shell.sheet.open(null);
      await reload();
    } catch {
      setError(DELETE_FAILED);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  return { pending, busy, error, request, confirm: () => void confirm(), cancel: () => setPending(null) };
}
