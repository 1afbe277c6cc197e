import { isRequestError } from '../workspace/retry.js';
import { MESSAGES, describeError, type ItemType, type ShellContext } from '@tessera/contracts';
import { useState } from 'react';
import { renameItem } from './navigator-items.service.js';

/**
 * Which item is being renamed inline, and the PUT that saves it. A renamed sheet is
 * announced with 'sheet-updated' (which reloads the tree); a renamed group reloads it
 * directly. A refused name shows the server's message (e.g. 'Sheet name cannot exceed 100 characters');
 * any other failure (the server or the network) says 'Failed to rename sheet' (spec 01 §8).
 */
export function useInlineRename(shell: ShellContext, reload: () => Promise<void>) {
  const [editing, setEditing] = useState<{ type: ItemType; id: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const startRename = (type: ItemType, id: string) => {
    setError(null);
    setEditing({ type, id });
  };

  const rename = async (type: ItemType, id: string, name: string) => {
    setEditing(null);
    try {
      const item = await renameItem(shell.api, type, id, name);
      if (type === 'sheet') shell.bus.emit('sheet-updated', { sheetId: item.id, name: item.name });
      else await reload();
    } catch (err) {
      const refusedName = isRequestError(err) && err.response?.status === 400;
      setError(refusedName ? describeError(err) : type === 'sheet' ? MESSAGES.failedToRenameSheet : MESSAGES.failedToRenameGroup);
    }
  };

  return {
    editing,
    error,
    startRename,
    rename: (type: ItemType, id: string, name: string) => void rename(type, id, name),
    cancelRename: () => setEditing(null),
  };
}
