import { Box, ChakraProvider, defaultSystem, Flex } from '@chakra-ui/react';
import { createDevShellContext } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import ChatPanel from '../chat-panel/ChatPanel.js';

// Standalone page: the panel at the right edge with a fake shell, so this remote can be
// worked on alone. Its /ai calls go to this dev server, which proxies them to AI_URL.
const shell = createDevShellContext();

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>
      <Flex height="100vh" justify="flex-end">
        <Box height="full">
          <ChatPanel shell={shell} />
        </Box>
      </Flex>
    </ChakraProvider>
  </StrictMode>,
);
