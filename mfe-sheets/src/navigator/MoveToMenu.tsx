import { Menu, Portal } from '@chakra-ui/react';
import type { MoveTarget } from './drag-drop.js';

export interface MoveToMenuProps {
  /** Asked only when the submenu opens: a tree can hold many groups. */
  targets(): MoveTarget[];
  onMove(target: string | null): void;
}

const ROOT_VALUE = 'move-root';
const NOWHERE_VALUE = 'move-nowhere';
/** The submenu when no place may take the item. */
export const NOWHERE_TEXT = 'No place you can move it to';

/** Renders the targets once the submenu is open. */
function MoveTargetItems({ targets }: Pick<MoveToMenuProps, 'targets'>) {
  const places = targets();
  // Every other place is one the user may not add to (issue 18), or there is none.
  if (places.length === 0) {
    return (
      <Menu.Item value={NOWHERE_VALUE} disabled>
        {NOWHERE_TEXT}
      </Menu.Item>
    );
  }
  return places.map((target) => (
    <Menu.Item key={target.id ?? ROOT_VALUE} value={target.id ?? ROOT_VALUE} ps={`${0.75 + target.depth * 0.75}rem`}>
      {target.name}
    </Menu.Item>
  ));
}

/**
 * 'Move to...' in an overflow menu: the keyboard's way to do what drag and drop does, into
 * a group or to root level. The places a drop would refuse are not offered.
 */
export function MoveToMenu({ targets, onMove }: MoveToMenuProps) {
  return (
    <Menu.Root
      positioning={{ placement: 'right-start', gutter: 2 }}
      lazyMount
      unmountOnExit
      onSelect={({ value }) => {
        if (value !== NOWHERE_VALUE) onMove(value === ROOT_VALUE ? null : value);
      }}
    >
      <Menu.TriggerItem>Move to...</Menu.TriggerItem>
      <Portal>
        <Menu.Positioner>
          <Menu.Content maxH="60vh" overflowY="auto">
            <MoveTargetItems targets={targets} />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
