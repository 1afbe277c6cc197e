import { createStore } from 'zustand';
import type { RemoteName, ShellRemotes } from '@tessera/contracts';

/** A remote module that another remote asked the shell to mount into one of its elements. */
export interface RemoteMount {
  key: number;
  element: HTMLElement;
  remote: RemoteName;
  expose: string;
}

/**
 * The mounts asked for through ShellContext.remotes, rendered by <RemoteMounts> as portals,
 * so the mounted module lives in the shell's React tree (Chakra, router, the remote loader
 * and its Retry) while it shows inside the asking remote's element.
 */
export const remoteMounts = createStore<{ mounts: RemoteMount[] }>(() => ({ mounts: [] }));

let nextKey = 1;

export const shellRemotes: ShellRemotes = {
  mount(element, remote, expose) {
    const key = nextKey++;
    remoteMounts.setState((s) => ({ mounts: [...s.mounts, { key, element, remote, expose }] }));
    return () => remoteMounts.setState((s) => ({ mounts: s.mounts.filter((m) => m.key !== key) }));
  },
};
