import { Box, ChakraProvider, defaultSystem, Flex } from '@chakra-ui/react';
import { createDevShellContext, SIDEBAR_WIDTH } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import Navigator from '../navigator/Navigator.js';
import Workspace from '../workspace/Workspace.js';

// Standalone page: the exposed modules in a sidebar + main layout with a fake shell,
// so this remote can be worked on alone.
const shell = createDevShellContext();

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>
      <Flex height="100vh">
        <Box width={SIDEBAR_WIDTH} borderEndWidth="1px">
          <Navigator shell={shell} />
        </Box>
        <Box flex="1">
          <Workspace shell={shell} />
        </Box>
      </Flex>
    </ChakraProvider>
  </StrictMode>,
);
