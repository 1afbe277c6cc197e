import { useRef, useState, type PointerEvent } from 'react';
import { Box } from '@chakra-ui/react';
import { CHAT_PANEL_WIDTH, type ShellContext } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';

const clampWidth = (w: number) => Math.min(CHAT_PANEL_WIDTH.max, Math.max(CHAT_PANEL_WIDTH.min, w));

/** The right-hand panel of the ChatPanel remote, resized by dragging its left edge (spec 02 §2). */
export function ChatPanelArea({ shell }: { shell: ShellContext }) {
  const [width, setWidth] = useState<number>(CHAT_PANEL_WIDTH.default);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { startX: e.clientX, startWidth: width };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(clampWidth(drag.current.startWidth + drag.current.startX - e.clientX));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  return (
    <Box
      as="aside"
      aria-label="Chat"
      data-testid="chat-panel"
      // Below md the panel overlays the main area instead of squeezing it to nothing.
      position={{ base: 'absolute', md: 'relative' }}
      insetY={{ base: '0', md: 'auto' }}
      right={{ base: '0', md: 'auto' }}
      zIndex={{ base: 'docked', md: 'auto' }}
      flexShrink={0}
      w={{ base: 'full', md: `${width}px` }}
      maxW="100vw"
      h="full"
      borderLeftWidth="1px"
      bg="bg"
      overflow="hidden"
    >
      <Box
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize chat panel"
        position="absolute"
        insetY="0"
        left="0"
        w="1.5"
        cursor="col-resize"
        zIndex="1"
        _hover={{ bg: 'border.emphasized' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
      />
      <RemotePlace remote="mfe-chat" expose="./ChatPanel" shell={shell} h="full" overflow="auto" />
    </Box>
  );
}
