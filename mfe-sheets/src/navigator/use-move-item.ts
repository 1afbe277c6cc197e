import { describeError, type GroupTree, type ShellContext } from '@tessera/contracts';
import { useRef, useState } from 'react';
import { canMoveInto, moveTargets, type DragItem } from './drag-drop.js';
import { moveItem } from './navigator-items.service.js';

/** Spec 01 §8: a failed move. */
export const MOVE_FAILED = 'Failed to move sheet';

/**
 * Drag and drop of sheets and groups into a group or to root level (spec 01 §2, §4):
 * what is being dragged, whether a target accepts it, and the POST items/move of a drop.
 * The overflow menus' 'Move to...' makes the same moves for keyboard users.
 */
export function useMoveItem(shell: ShellContext, tree: GroupTree, reload: () => Promise<void>) {
  const [dragging, setDragging] = useState<DragItem | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Read by the drop handler: the state may not have rendered yet when a quick drop lands.
  const current = useRef<DragItem | null>(null);
  const startTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const start = (item: DragItem) => {
    current.current = item;
    setError(null);
    // Chromium ends a drag whose source changes the page inside dragstart: show the root zone just after.
    startTimer.current = setTimeout(() => setDragging(item), 0);
  };

  const end = () => {
    clearTimeout(startTimer.current);
    current.current = null;
    setDragging(null);
  };

  const canDrop = (target: string | null) => !!current.current && canMoveInto(tree, current.current, target);

  const drop = (target: string | null) => {
    const item = current.current;
    end();
    if (item) void move(item, target);
  };

  const move = async (item: DragItem, target: string | null) => {
    if (!canMoveInto(tree, item, target)) return;
    setError(null);
    try {
      await moveItem(shell.api, { type: item.type, id: item.id }, target);
      await reload();
    } catch (err) {
      // The spec's text is for sheets; a refused group move shows the server's reason.
      setError(item.type === 'sheet' ? MOVE_FAILED : describeError(err));
    }
  };

  return {
    dragging,
    error,
    start,
    end,
    canDrop,
    drop,
    targets: (item: DragItem) => moveTargets(tree, item),
    moveTo: (item: DragItem, target: string | null) => void move(item, target),
  };
}
