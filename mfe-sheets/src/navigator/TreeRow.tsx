import { Flex, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { InlineRenameInput } from './InlineRenameInput.js';
import type { ItemType } from '@tessera/contracts';
import { isEditing, type TreeActions } from './tree-actions.js';

export interface TreeRowProps {
  type: ItemType;
  id: string;
  name: string;
  actions: TreeActions;
  /** Click: a group expands or collapses, a sheet opens. */
  onActivate(): void;
  /** Set for groups, which expand. */
  expanded?: boolean;
  /** The row's overflow menu. */
  menu: ReactNode;
  children: ReactNode;
}

/** One row of the tree: the inline rename input while renaming, else a button (double-click renames) and its menu. */
export function TreeRow({ type, id, name, actions, onActivate, expanded, menu, children }: TreeRowProps) {
  if (isEditing(actions, type, id)) {
    return (
      <InlineRenameInput
        initialName={name}
        label={`Rename ${name}`}
        onSave={(next) => actions.rename(type, id, next)}
        onCancel={actions.cancelRename}
      />
    );
  }
  return (
    <Flex align="center" gap="1">
      <chakra.button
        type="button"
        flex="1"
        minW="0"
        textAlign="start"
        px="2"
        py="1"
        rounded="md"
        _hover={{ bg: 'bg.muted' }}
        aria-expanded={expanded}
        onClick={onActivate}
        onDoubleClick={() => actions.startRename(type, id)}
      >
        {children}
      </chakra.button>
      {menu}
    </Flex>
  );
}
