import { createPortal } from 'react-dom';
import { useStore } from 'zustand';
import type { ExposedModule, RemoteName } from '@tessera/contracts';
import { RemotePlace } from '../../remotes/RemotePlace.js';
import { remoteMounts } from './remote-mounts.store.js';

/** Renders every module mounted through ShellContext.remotes into the element it was given. */
export function RemoteMounts() {
  const mounts = useStore(remoteMounts, (s) => s.mounts);
  return (
    <>
      {mounts.map((m) =>
        createPortal(
          <RemotePlace remote={m.remote} expose={m.expose as ExposedModule<RemoteName>} h="full" />,
          m.element,
          String(m.key),
        ),
      )}
    </>
  );
}
