import { Menu, Portal } from '@chakra-ui/react';
import type { MoveTarget } from './drag-drop.js';

export interface MoveToMenuProps {
  /** Asked only when the submenu opens: a tree can hold many groups. */
  targets(): MoveTarget[];
  onMove(target: string | null): void;
}

const ROOT_VALUE = 'move-root';

/** Renders the targets once the submenu is open. */
function MoveTargetItems({ targets }: Pick<MoveToMenuProps, 'targets'>) {
  return targets().map((target) => (
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
      onSelect={({ value }) => onMove(value === ROOT_VALUE ? null : value)}
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
