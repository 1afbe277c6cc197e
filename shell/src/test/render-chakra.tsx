import { renderInShell } from '@tessera/jest-react';
import type { RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { RemoteLoaderProvider } from '../remotes/remote-loader.context.js';
import type { RemoteLoader } from '../remotes/remote-loader.js';

/** Renders as the main screen does: Chakra plus a remote loader (a fake one in tests). */
export function renderWithLoader(ui: ReactElement, loader: RemoteLoader): RenderResult {
  return renderInShell(<RemoteLoaderProvider loader={loader}>{ui}</RemoteLoaderProvider>);
}
