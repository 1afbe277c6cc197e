import { describeError, failedToCreateSheet, type ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { requestDetail } from '../workspace/timeline/service-result.js';
import { createGroup, createSheet } from './navigator-items.service.js';

export type CreateKind = 'group' | 'sheet';

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
      // Spec 01 §8: the navigator's 'Failed to create sheet' with the service's reason after it
      // ('Failed to create sheet: …'); a failed group shows the service's message.
      setError(kind === 'sheet' ? failedToCreateSheet(requestDetail(err)) : describeError(err));
    } finally {
      setBusy(null);
    }
  };

  return { busy, error, create };
}
