import { act, fireEvent, screen } from '@testing-library/react';
import type { RemoteLoader } from '../../remotes/remote-loader.js';
import { renderWithLoader } from '../../test/render-chakra.js';
import { Sidebar } from './Sidebar.js';
import { useSidebar } from './use-sidebar.js';

const loader: RemoteLoader = {
  load: async () => () => <p>Navigator tree</p>,
  retry: async () => {},
};

function Harness() {
  const sidebar = useSidebar();
  return <Sidebar sidebar={sidebar} />;
}

const clearCookie = () => {
  document.cookie = 'sidebar_state=; path=/; max-age=0';
};

beforeEach(clearCookie);
afterEach(clearCookie);

describe('sidebar', () => {
  it('starts expanded with the Navigator remote when nothing is remembered', async () => {
    renderWithLoader(<Harness />, loader);
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    expect(await screen.findByText('Navigator tree')).toBeInTheDocument();
    expect(screen.getByTestId('remote-mfe-sheets-Navigator')).toBeInTheDocument();
  });

  it('restores the collapsed state from its cookie', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderWithLoader(<Harness />, loader);
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    expect(screen.getByRole('button', { name: 'Sheets' })).toBeInTheDocument();
  });

  it('toggles with Ctrl+B and Cmd+B and remembers each state in the cookie', () => {
    renderWithLoader(<Harness />, loader);
    act(() => {
      fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    });
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    expect(document.cookie).toContain('sidebar_state=false');
    act(() => {
      fireEvent.keyDown(window, { key: 'B', metaKey: true });
    });
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
    expect(document.cookie).toContain('sidebar_state=true');
    // A plain B is typing, not the shortcut.
    act(() => {
      fireEvent.keyDown(window, { key: 'b' });
    });
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
  });

  it('expands from the icon rail', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderWithLoader(<Harness />, loader);
    fireEvent.click(screen.getByRole('button', { name: 'Sheets' }));
    expect(screen.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
  });
});
