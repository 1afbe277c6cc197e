import { describeError, type ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { createGroup, createSheet } from './navigator-items.service.js';

export type CreateKind = 'group' | 'sheet';

/** Navigator text of a failed create (spec 01 §8: 'Failed to create sheet'). */
export const CREATE_SHEET_FAILED = 'Failed to create sheet';

/**
 * Add Folder / Add Sheet, the empty state's Create Group / Create Sheet and a group menu's
 * Add Group / Add Sheet. A new sheet is
 * announced with 'sheet-created' (which reloads the tree); a new group reloads it directly.
 */
export function useCreateItems(shell: ShellContext, reload: () => Promise<void>) {
  const [busy, setBusy] = useState<CreateKind | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Creates at root level, or inside the group `parentId` (from a group's menu). */
  const create = async (kind: CreateKind, parentId?: string) => {
    if (busy) return;
    setBusy(kind);
    setError(null);
    try {
      if (kind === 'sheet') {
        const sheet = await createSheet(shell.api, parentId);
        shell.bus.emit('sheet-created', { sheetId: sheet.id, name: sheet.name });
      } else {
        await createGroup(shell.api, parentId);
        await reload();
      }
    } catch (err) {
      // The spec has a text for sheets only; a failed group shows the service's message.
      setError(kind === 'sheet' ? CREATE_SHEET_FAILED : describeError(err));
    } finally {
      setBusy(null);
    }
  };

  return { busy, error, create };
}
