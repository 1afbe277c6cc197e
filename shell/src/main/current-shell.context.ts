import { createContext, useContext } from 'react';
import type { ShellContext } from '@tessera/contracts';

/**
 * The ShellContext of the page, for the places that hand it to a remote (RemotePlace). Through a
 * React context rather than props: a new ShellContext (a selection moving, an edit acknowledged)
 * then renders those places again and not the shell's own chrome between them.
 */
export const CurrentShell = createContext<ShellContext | null>(null);

export function useCurrentShell(): ShellContext {
  const shell = useContext(CurrentShell);
  if (!shell) throw new Error('A remote place must be inside the main screen (CurrentShell)');
  return shell;
}
