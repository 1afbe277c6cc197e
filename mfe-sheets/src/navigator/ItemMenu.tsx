import { IconButton, Menu, Portal } from '@chakra-ui/react';
import type { AccessLevel } from '@tessera/contracts';
import { can } from '../access/can.js';
import { MoveToMenu, type MoveToMenuProps } from './MoveToMenu.js';

export interface ItemMenuProps {
  name: string;
  /** The user's level on the item (issue 18): what it does not allow is not offered. */
  access?: AccessLevel;
  onRename(): void;
  /** 'Share...': the sharing dialog (owners edit it, others see it read-only). */
  onShare(): void;
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
  share: props.onShare,
  delete: props.onDelete,
});

/**
 * The overflow menu of a row (spec 01 §2): Rename, then Add Group and Add Sheet for a group or
 * Add to / Remove from Favorites and Duplicate for a sheet, then Move to..., Share... and Delete.
 * Viewers get no Rename, Add or Move; only owners get Delete.
 */
export function ItemMenu(props: ItemMenuProps) {
  const { name, access, onAddGroup, onAddSheet, favorite, onDuplicate, moveTo } = props;
  const edit = can(access, 'edit');
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
            {edit && <Menu.Item value="rename">Rename</Menu.Item>}
            {edit && onAddGroup && <Menu.Item value="add-group">Add Group</Menu.Item>}
            {edit && onAddSheet && <Menu.Item value="add-sheet">Add Sheet</Menu.Item>}
            {favorite && <Menu.Item value="favorite">{favorite.isFavorite ? 'Remove from Favorites' : 'Add to Favorites'}</Menu.Item>}
            {onDuplicate && <Menu.Item value="duplicate">Duplicate</Menu.Item>}
            {edit && <MoveToMenu {...moveTo} />}
            <Menu.Item value="share">Share...</Menu.Item>
            {can(access, 'own') && <Menu.Item value="delete">Delete</Menu.Item>}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
