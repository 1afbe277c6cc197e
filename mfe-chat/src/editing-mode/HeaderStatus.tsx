import { Badge, Button, HStack, Text } from '@chakra-ui/react';
import type { RemoteProps } from '@tessera/contracts';
import { steadyShell } from '@tessera/ui-kit';
import { useStore } from 'zustand';
import { SolverBadge } from '../solver/SolverBadge.js';
import { solverStore } from '../solver/solver.store.js';
import { commitEditing, discardEditing, editingMode, isEditing } from './editing-mode.store.js';

/**
 * ./HeaderStatus (DESIGN.md: mounted in the shell's header): the AI Editing Mode badge with
 * Commit and Discard (spec 02 §2) while the mode is on for the open sheet, and next to it the
 * solver status badge once a solve has a status; nothing otherwise.
 */
function HeaderStatus({ shell }: RemoteProps) {
  const state = useStore(editingMode);
  const solverStatus = useStore(solverStore, (s) => s.status);
  const editing = isEditing(state, shell.sheet.id);
  if (!editing && !solverStatus) return null;
  return (
    <HStack gap="2">
      {editing && (
        <HStack gap="1" role="group" aria-label="AI Editing Mode">
          <Badge colorPalette="purple" variant="solid">
            AI Editing Mode
          </Badge>
          {state.staged && (
            <Badge colorPalette="purple" variant="outline">
              Staged edit
            </Badge>
          )}
          <Button size="2xs" colorPalette="green" disabled={state.busy} onClick={() => void commitEditing(shell)}>
            Commit
          </Button>
          <Button size="2xs" variant="outline" disabled={state.busy} onClick={() => void discardEditing(shell)}>
            Discard
          </Button>
          {state.error && (
            <Text fontSize="xs" color="fg.error" role="alert">
              {state.error}
            </Text>
          )}
        </HStack>
      )}
      {solverStatus && <SolverBadge status={solverStatus} />}
    </HStack>
  );
}

/** It shows the mode of the open sheet: a new context for an edit or a selection does not render it. */
export default steadyShell(HeaderStatus, (shell) => [shell.sheet.id]);
