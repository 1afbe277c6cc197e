import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { createDevShellContext } from '@tessera/contracts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import CodeEditor from '../code-editor/CodeEditor.js';
import GitPanel from '../git-panel/GitPanel.js';

// Standalone page: both exposed modules with a fake shell, so this remote can be worked on alone.
// `?code` shows the toolbar's Code tab (./CodeEditor) instead of the git tab (./GitPanel).
const code = new URLSearchParams(window.location.search).has('code');
const shell = createDevShellContext({ tab: 'git' });

createRoot(document.body.appendChild(document.createElement('div'))).render(
  <StrictMode>
    <ChakraProvider value={defaultSystem}>{code ? <CodeEditor shell={shell} /> : <GitPanel shell={shell} />}</ChakraProvider>
  </StrictMode>,
);
