import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { createDevShellContext } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import MembersPanel from '../members-panel/MembersPanel.js';

// Standalone page: the exposed panel with a fake shell, so this remote can be worked on alone.
// Its api calls go to /api/v1 on this dev server, which proxies them to the api (API_URL).
const shell = createDevShellContext();

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>
      <MembersPanel shell={shell} />
    </ChakraProvider>
  </StrictMode>,
);
