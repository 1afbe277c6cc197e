import { act, screen } from '@testing-library/react';
import { useEffect, useRef } from 'react';
import type { RemoteLoader } from '../../remotes/remote-loader.js';
import { renderWithLoader } from '../../test/render-chakra.js';
import { shellRemotes } from './remote-mounts.store.js';
import { RemoteMounts } from './RemoteMounts.js';

/** A remote that shows another remote's module inside itself, as the Workspace's Code tab does. */
function Host() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => shellRemotes.mount(ref.current!, 'mfe-git', './CodeEditor'), []);
  return <div data-testid="slot" ref={ref} />;
}

const loaderWith = (load: RemoteLoader['load']): RemoteLoader => ({ load, retry: async () => {} });

test("a module mounted through shell.remotes renders inside the asker's element, and leaves with it", async () => {
  const loader = loaderWith(async () => () => <p>the code editor</p>);
  const view = renderWithLoader(
    <>
      <RemoteMounts />
      <Host />
    </>,
    loader,
  );
  const editor = await screen.findByText('the code editor');
  expect(screen.getByTestId('slot')).toContainElement(editor);
  act(() => view.unmount());
  expect(screen.queryByText('the code editor')).not.toBeInTheDocument();
});

test("until the other remote exposes the module, the shell's fallback card shows in its place", async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => {});
  const loader = loaderWith(async () => {
    throw new Error('mfe_git/CodeEditor is not exposed');
  });
  renderWithLoader(
    <>
      <RemoteMounts />
      <Host />
    </>,
    loader,
  );
  const card = await screen.findByTestId('remote-fallback-mfe-git');
  expect(screen.getByTestId('slot')).toContainElement(card);
  error.mockRestore();
});
