import { Box, ChakraProvider, defaultSystem, Flex } from '@chakra-ui/react';
import { createDevShellContext } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import ChatPanel from '../chat-panel/ChatPanel.js';
import HeaderStatus from '../editing-mode/HeaderStatus.js';
import RecoveryBanner from '../solver/RecoveryBanner.js';

// Standalone page: a header with ./HeaderStatus, a main area with ./RecoveryBanner and the panel
// at the right edge with a fake shell, so this remote can be worked on alone. Its /ai calls go
// to this dev server, which proxies them to AI_URL.
const shell = createDevShellContext();

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>
      <Flex height="100vh" direction="column">
        <Flex as="header" p="2" borderBottomWidth="1px" minH="10" justify="flex-end">
          <HeaderStatus shell={shell} />
        </Flex>
        <Flex flex="1" minH="0">
          <Box flex="1" minW="0">
            <RecoveryBanner shell={shell} />
          </Box>
          <Box height="full">
            <ChatPanel shell={shell} />
          </Box>
        </Flex>
      </Flex>
    </ChakraProvider>
  </StrictMode>,
);
