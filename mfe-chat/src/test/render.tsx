import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders as the shell does: inside its ChakraProvider. */
export function renderInShell(ui: ReactElement): RenderResult {
  return render(<ChakraProvider value={defaultSystem}>{ui}</ChakraProvider>);
}
