import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { createDevShellContext } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import GitPanel from '../git-panel/GitPanel.js';

// Standalone page: the exposed panel with a fake shell, so this remote can be worked on alone.
const shell = createDevShellContext({ tab: 'git' });

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>
      <GitPanel shell={shell} />
    </ChakraProvider>
  </StrictMode>,
);
