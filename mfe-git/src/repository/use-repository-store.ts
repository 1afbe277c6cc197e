import type { ShellContext } from '@tessera/contracts';
import { useEffect, useState } from 'react';
import { GitClient } from '../git-api/git.client.js';
import { createRepositoryStore, type RepositoryStore } from './repository.store.js';

/** One repository store per mounted view, on the shell's ai client, loaded on mount. */
export function useRepositoryStore(shell: ShellContext): RepositoryStore {
  const [store] = useState(() => createRepositoryStore(new GitClient(shell.ai)));
  useEffect(() => {
    void store.getState().load();
  }, [store]);
  return store;
}
