import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { SheetSessionStore } from './sheet-session.store.js';

/**
 * Renders its children with the session's data tick (raised on every change of the cells): only
 * they render again on an edit (the charts), not the whole Workspace around them.
 */
export function WithDataTick({ store, children }: { store: SheetSessionStore; children(dataTick: number): ReactNode }) {
  const dataTick = useStore(store, (s) => s.dataTick);
  return <>{children(dataTick)}</>;
}
