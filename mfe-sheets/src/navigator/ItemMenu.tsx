import { IconButton, Menu, Portal } from '@chakra-ui/react';
import { MoveToMenu, type MoveToMenuProps } from './MoveToMenu.js';

export interface ItemMenuProps {
  name: string;
  onRename(): void;
  onDelete(): void;
  /** Given for groups only: their menu adds a group or sheet inside. */
  onAddGroup?(): void;
  onAddSheet?(): void;
  /** Given for sheets only, with whether the sheet is a favorite now. */
  favorite?: { isFavorite: boolean; onToggle(): void };
  /** Given for sheets only (issue 3: Duplicate is offered in the sheet's overflow menu). */
  onDuplicate?(): void;
  /** 'Move to...': into a group or to root level. */
  moveTo: MoveToMenuProps;
}

const handlers = (props: ItemMenuProps): Record<string, (() => void) | undefined> => ({
  rename: props.onRename,
  'add-group': props.onAddGroup,
  'add-sheet': props.onAddSheet,
  favorite: props.favorite?.onToggle,
  duplicate: props.onDuplicate,
  delete: props.onDelete,
});

/**
 * The overflow menu of a row (spec 01 §2): Rename, then Add Group and Add Sheet for a group or
 * Add to / Remove from Favorites and Duplicate for a sheet, then Move to... and Delete.
 */
export function ItemMenu(props: ItemMenuProps) {
  const { name, onAddGroup, onAddSheet, favorite, onDuplicate, moveTo } = props;
  return (
    <Menu.Root onSelect={({ value }) => handlers(props)[value]?.()}>
      <Menu.Trigger asChild>
        <IconButton size="2xs" variant="ghost" aria-label={`Actions for ${name}`}>
          ⋯
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="rename">Rename</Menu.Item>
            {onAddGroup && <Menu.Item value="add-group">Add Group</Menu.Item>}
            {onAddSheet && <Menu.Item value="add-sheet">Add Sheet</Menu.Item>}
            {favorite && <Menu.Item value="favorite">{favorite.isFavorite ? 'Remove from Favorites' : 'Add to Favorites'}</Menu.Item>}
            {onDuplicate && <Menu.Item value="duplicate">Duplicate</Menu.Item>}
            <MoveToMenu {...moveTo} />
            <Menu.Item value="delete">Delete</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
