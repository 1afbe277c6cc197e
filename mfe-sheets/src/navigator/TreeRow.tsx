import { Flex, chakra } from '@chakra-ui/react';
import type { ItemType } from '@tessera/contracts';
import type { DragEvent, ReactNode } from 'react';
import { DRAG_ITEM_TYPE } from './drag-drop.js';
import { InlineRenameInput } from './InlineRenameInput.js';
import { isEditing, type TreeActions } from './tree-actions.js';
import { useDropTarget } from './use-drop-target.js';

export interface TreeRowProps {
  type: ItemType;
  id: string;
  name: string;
  /** The group the item sits in, null at root level (what a drag moves it out of). */
  parentId: string | null;
  actions: TreeActions;
  /** Click: a group expands or collapses, a sheet opens. */
  onActivate(): void;
  /** Set for groups, which expand. */
  expanded?: boolean;
  /** May the user rename and move it (editor and up)? Else no double-click rename and no drag. */
  editable: boolean;
  /** The row's overflow menu. */
  menu: ReactNode;
  children: ReactNode;
}

/**
 * One row of the tree: the inline rename input while renaming, else a button (double-click
 * renames) and its menu. Every row can be dragged; a group row takes drops (the item moves
 * into the group). `data-testid` `row-{type}-{id}` names the row for end-to-end drags.
 */
export function TreeRow({ type, id, name, parentId, actions, onActivate, expanded, editable, menu, children }: TreeRowProps) {
  const target = useDropTarget(actions.drag, id);
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
  const onDragStart = (event: DragEvent) => {
    // Rows nest inside group rows' list items: only the row grabbed is dragged.
    event.stopPropagation();
    if (event.dataTransfer) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData(DRAG_ITEM_TYPE, JSON.stringify({ type, id }));
      event.dataTransfer.setData('text/plain', name);
    }
    actions.drag.start({ type, id, parentId });
  };
  return (
    <Flex
      align="center"
      gap="1"
      rounded="md"
      draggable={editable}
      data-testid={`row-${type}-${id}`}
      data-drop-target={target.over || undefined}
      outline={target.over ? '2px solid' : undefined}
      outlineColor="colorPalette.solid"
      colorPalette="blue"
      onDragStart={editable ? onDragStart : undefined}
      onDragEnd={actions.drag.end}
      {...(type === 'group' ? target.handlers : {})}
    >
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
        onDoubleClick={editable ? () => actions.startRename(type, id) : undefined}
      >
        {children}
      </chakra.button>
      {menu}
    </Flex>
  );
}
