import { useState, type DragEvent } from 'react';
import type { DragActions } from './tree-actions.js';

/**
 * The drag events of a drop target (a group row, or the root zone when `target` is null).
 * A target that refuses the dragged item does not cancel dragover, so the browser shows
 * that no drop is possible there and never fires drop.
 */
export function useDropTarget(drag: DragActions, target: string | null) {
  const [over, setOver] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!drag.canDrop(target)) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  const onDragLeave = () => setOver(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    drag.drop(target);
  };
  return { over, handlers: { onDragOver, onDragEnter: onDragOver, onDragLeave, onDrop } };
}
