import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { RepositoryActions, RepositoryState, RepositoryStore } from './repository.store.js';

export const RepositoryContext = createContext<RepositoryStore | null>(null);

/** A slice of the mounted repository view's state (or its actions). */
export function useRepository<T>(selector: (state: RepositoryState & RepositoryActions) => T): T {
  const store = useContext(RepositoryContext);
  if (!store) throw new Error('useRepository outside a RepositoryContext');
  return useStore(store, selector);
}
