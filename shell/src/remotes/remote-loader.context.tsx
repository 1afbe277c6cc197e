import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { RemoteName } from '@tessera/contracts';
import type { RemoteLoader } from './remote-loader.js';

/** A counter per remote, raised by each Retry: failed places of that remote then load again. */
type Generations = Partial<Record<RemoteName, number>>;

interface RemoteLoaderValue {
  loader: RemoteLoader;
  generations: StoreApi<Generations>;
  retry(remote: RemoteName): Promise<void>;
}

const RemoteLoaderContext = createContext<RemoteLoaderValue | null>(null);

export function RemoteLoaderProvider({ loader, children }: { loader: RemoteLoader; children: ReactNode }) {
  const value = useMemo<RemoteLoaderValue>(() => {
    const generations = createStore<Generations>(() => ({}));
    return {
      loader,
      generations,
      async retry(remote) {
        try {
          await loader.retry(remote);
        } catch (error) {
          // The new attempt below fails the same way and shows the card again.
          console.error(`[shell] could not prepare a new attempt for ${remote}`, error);
        }
        generations.setState((g) => ({ ...g, [remote]: (g[remote] ?? 0) + 1 }));
      },
    };
  }, [loader]);
  return <RemoteLoaderContext.Provider value={value}>{children}</RemoteLoaderContext.Provider>;
}

export function useRemoteLoader(): RemoteLoaderValue {
  const value = useContext(RemoteLoaderContext);
  if (!value) throw new Error('useRemoteLoader outside RemoteLoaderProvider');
  return value;
}

export function useRemoteGeneration(remote: RemoteName): number {
  const { generations } = useRemoteLoader();
  return useStore(generations, (g) => g[remote] ?? 0);
}
