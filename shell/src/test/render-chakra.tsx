import { renderInShell } from '@tessera/jest-react';
import type { RenderResult } from '@testing-library/react';
import type { ShellContext } from '@tessera/contracts';
import type { ReactElement } from 'react';
import { CurrentShell } from '../main/current-shell.context.js';
import { RemoteLoaderProvider } from '../remotes/remote-loader.context.js';
import type { RemoteLoader } from '../remotes/remote-loader.js';
import { fakeShell } from './fake-shell.js';

/** Renders as the main screen does: Chakra, a remote loader (a fake one in tests) and the ShellContext remote places hand on. */
export function renderWithLoader(ui: ReactElement, loader: RemoteLoader, shell: ShellContext = fakeShell()): RenderResult {
  return renderInShell(
    <CurrentShell.Provider value={shell}>
      <RemoteLoaderProvider loader={loader}>{ui}</RemoteLoaderProvider>
    </CurrentShell.Provider>,
  );
}
