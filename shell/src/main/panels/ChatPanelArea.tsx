import { memo, useState } from 'react';
import { Box } from '@chakra-ui/react';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { readPanelWidth, writePanelWidth } from './chat-panel-width.js';
import { ChatResizeHandle } from './ChatResizeHandle.js';

/**
 * The right-hand box of the ChatPanel remote (spec 02 §2). The shell owns its width: one
 * handle on its left edge, remembered across reloads; the remote fills the box.
 */
export const ChatPanelArea = memo(function ChatPanelArea() {
  const [width, setWidth] = useState<number>(() => readPanelWidth());
  const resize = (next: number) => {
    setWidth(next);
    writePanelWidth(next);
  };

  return (
    <Box
      data-testid="chat-panel-area"
      // Below md the panel overlays the main area instead of squeezing it to nothing.
      position={{ base: 'absolute', md: 'relative' }}
      insetY={{ base: '0', md: 'auto' }}
      right={{ base: '0', md: 'auto' }}
      zIndex={{ base: 'docked', md: 'auto' }}
      flexShrink={0}
      w={{ base: 'full', md: `${width}px` }}
      maxW="100vw"
      h="full"
      bg="bg"
      overflow="hidden"
    >
      <ChatResizeHandle width={width} onResize={resize} />
      <RemotePlace remote="mfe-chat" expose="./ChatPanel" h="full" overflow="auto" />
    </Box>
  );
});
