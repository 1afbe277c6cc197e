import { Button } from '@chakra-ui/react';
import type { ShellContext } from '@tessera/contracts';
import { useStore } from 'zustand';
import { editingMode, isEditing, startEditing } from './editing-mode.store.js';

/**
 * Switches AI Editing Mode on for the open sheet (spec 02 §4): AI results then become a staged
 * edit (a proposed version) that the header's badge commits or discards, which ends the mode.
 */
export function EditingModeToggle({ shell }: { shell: ShellContext }) {
  const { sheet } = shell;
  const state = useStore(editingMode);
  const on = isEditing(state, sheet.id);
  return (
    <Button
      size="xs"
      variant={on ? 'solid' : 'outline'}
      colorPalette={on ? 'purple' : undefined}
      aria-pressed={on}
      disabled={!sheet.id || on}
      title={on ? 'Commit or Discard with the badge in the header' : 'AI results become a staged edit to commit or discard'}
      onClick={() => sheet.id && startEditing(shell, sheet.id, sheet.version)}
    >
      AI Editing Mode
    </Button>
  );
}
