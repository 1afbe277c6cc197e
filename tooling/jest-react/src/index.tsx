/// <reference types="@testing-library/jest-dom" />
// The reference above: ./setup.ts installs jest-dom's matchers, so importers get their types too.
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';

/** Renders as the shell does: inside its ChakraProvider. */
export function renderInShell(ui: ReactElement): RenderResult {
  return render(<ChakraProvider value={defaultSystem}>{ui}</ChakraProvider>);
}

export { closeMenu } from './close-menu';
