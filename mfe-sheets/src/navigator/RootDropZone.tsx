import { Box } from '@chakra-ui/react';
import type { DragActions } from './tree-actions.js';
import { useDropTarget } from './use-drop-target.js';

/** Spec 01 §2: the zone that appears while dragging. */
export const ROOT_DROP_TEXT = 'Drop here to move to root level';

/** Dropping here moves the dragged sheet or group out of its group, to root level. */
export function RootDropZone({ drag }: { drag: DragActions }) {
  const target = useDropTarget(drag, null);
  return (
    <Box
      data-testid="root-drop-zone"
      data-drop-target={target.over || undefined}
      mt="2"
      p="3"
      borderWidth="2px"
      borderStyle="dashed"
      rounded="md"
      borderColor={target.over ? 'blue.500' : 'border'}
      bg={target.over ? 'blue.subtle' : undefined}
      color="fg.muted"
      fontSize="xs"
      textAlign="center"
      {...target.handlers}
    >
      {ROOT_DROP_TEXT}
    </Box>
  );
}
