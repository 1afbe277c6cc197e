import type { ShellContext } from '@tessera/contracts';
import { useCallback, useEffect, useRef } from 'react';
import { fetchNavigationTree } from './navigation-tree.service.js';
import { useSheetTree } from './sheet-tree.store.js';

/**
 * Loads the tree into the store on mount and again on 'sheet-created' / 'sheet-updated'
 * (spec 01 §4) and on 'navigation-changed' (someone, in another tab too, created, renamed,
 * moved or deleted a sheet or group: the shell's live sockets tell it). Returns `reload` for the navigator's own changes. Only the latest load
 * may write the store, so a slow earlier reply never overwrites a newer tree.
 */
export function useNavigationTree(shell: ShellContext, retryDelaysMs?: readonly number[]): () => Promise<void> {
  const latest = useRef(0);
  const loaded = useRef(false);
  // In a ref: a new array each render must not start a new load.
  const delays = useRef(retryDelaysMs);
  delays.current = retryDelaysMs;
  const { api, bus } = shell;
  const reload = useCallback(async () => {
    const seq = ++latest.current;
    // The skeleton shows only until a first tree exists; later loads keep it on screen.
    if (!loaded.current) useSheetTree.setState({ status: 'loading' });
    try {
      const tree = await fetchNavigationTree(api, delays.current);
      if (seq !== latest.current) return;
      loaded.current = true;
      useSheetTree.setState({ status: 'ready', tree });
    } catch {
      if (seq === latest.current) useSheetTree.setState({ status: 'error' });
    }
  }, [api]);

  useEffect(() => {
    void reload();
    // Events emitted together (an import announces each of its sheets) make one reload.
    let queued = false;
    const reloadOnce = () => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        void reload();
      });
    };
    const offCreated = bus.on('sheet-created', reloadOnce);
    const offUpdated = bus.on('sheet-updated', reloadOnce);
    const offNavigation = bus.on('navigation-changed', reloadOnce);
    return () => {
      offCreated();
      offUpdated();
      offNavigation();
      latest.current += 1; // a reply after unmount must not write the store
    };
  }, [bus, reload]);

  return reload;
}
