import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { RemoteName, RemoteProps } from '@tessera/contracts';
import { RemoteLoaderProvider } from '../remotes/remote-loader.context.js';
import type { RemoteComponent, RemoteLoader } from '../remotes/remote-loader.js';
import { ServicesProvider } from '../services/services.context.js';
import { fakeToken, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import { LocationProbe, servicesFor } from '../test/render-app.js';
import { MainLayout } from './MainLayout.js';

/** Each remote module renders its name and what it got from the shell; `down` remotes fail. */
function loaderWith(down: Set<RemoteName>, loads: string[]): RemoteLoader {
  return {
    async load(remote, expose): Promise<RemoteComponent> {
      loads.push(`${remote}${expose.slice(1)}`);
      if (down.has(remote)) throw new Error(`${remote} is down`);
      if (expose === './HeaderStatus' || expose === './OnlineIndicator' || expose === './RecoveryBanner') {
        throw new Error(`Module "${expose}" does not exist in container.`);
      }
      return function Remote({ shell }: RemoteProps) {
        return (
          <div>
            {`${remote} ${expose}`}
            <span data-testid={`ctx-${expose.slice(2)}`}>{`${shell.user.username}|${shell.sheet.id}|${shell.tab}|${shell.live.state}`}</span>
            <button type="button" onClick={() => shell.sheet.open('s-9')}>
              open s-9 from {expose.slice(2)}
            </button>
            <button
              type="button"
              onClick={() =>
                shell.sheet.id &&
                shell.sheet.report({ id: shell.sheet.id, name: 'Budget 2026', headers: [], size: { rows: 0, cols: 0 }, version: 1, getData: () => [] })
              }
            >
              report from {expose.slice(2)}
            </button>
          </div>
        );
      };
    },
    async retry() {},
  };
}

// Each test renders the whole main screen with its remotes: generous under a loaded machine.
jest.setTimeout(30_000);

let server: LoopbackServer | undefined;
beforeEach(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  server = await startLoopbackServer({
    'GET /health': () => ({ body: { service: 'api', status: 'healthy', version: '0.1.0', uptime_s: 1 } }),
    'GET /ai/health': () => ({ status: 503, body: { error: { code: 'internal_error', message: 'down' } } }),
  });
});
afterEach(async () => {
  jest.restoreAllMocks();
  await server?.close();
  localStorage.clear();
});

function renderMain(path: string, down = new Set<RemoteName>()) {
  const services = servicesFor(server!.url);
  services.session.setToken(fakeToken({ username: 'alice' }));
  const loads: string[] = [];
  render(
    <MemoryRouter initialEntries={[path]}>
      <ServicesProvider services={services}>
        <ChakraProvider value={defaultSystem}>
          <RemoteLoaderProvider loader={loaderWith(down, loads)}>
            <MainLayout user={{ id: 'u1', username: 'alice', role: 'admin' }} />
          </RemoteLoaderProvider>
        </ChakraProvider>
      </ServicesProvider>
      <LocationProbe />
    </MemoryRouter>,
  );
  return { loads };
}

describe('main screen', () => {
  it("names the open sheet in the header once the Workspace reported it, never by its id", async () => {
    renderMain('/sheets/s-1');
    await screen.findByText('mfe-sheets ./Workspace');
    expect(screen.getByTestId('current-sheet')).toHaveTextContent(/^\/$/);
    fireEvent.click(screen.getByRole('button', { name: 'report from Workspace' }));
    await waitFor(() => expect(screen.getByTestId('current-sheet')).toHaveTextContent('/ Budget 2026'));
    expect(screen.getByTestId('current-sheet')).not.toHaveTextContent('s-1');
  });

  it('shows the placeholder without a sheet, the Navigator and the chat, and no git or members code yet', async () => {
    const { loads } = renderMain('/sheets');
    expect(await screen.findByText('No Sheet Selected')).toBeInTheDocument();
    expect(screen.getByText('Select a sheet from the sidebar to get started')).toBeInTheDocument();
    expect(screen.getByTestId('sheet-toolbar')).toHaveTextContent('Select a sheet to see file operations');
    expect(await screen.findByText('mfe-sheets ./Navigator')).toBeInTheDocument();
    expect(await screen.findByText('mfe-chat ./ChatPanel')).toBeInTheDocument();
    expect(screen.getByTestId('connection-status')).toHaveTextContent('Disconnected');
    // A remote's code loads only when its place is shown.
    expect(loads).not.toContain('mfe-git/GitPanel');
    expect(loads).not.toContain('mfe-members/MembersPanel');
    expect(loads).not.toContain('mfe-sheets/Workspace');
  });

  it('opens the sheet and tab of the URL, and passes them to the remotes in the shell context', async () => {
    renderMain('/sheets/s-1?tab=git');
    expect(await screen.findByText('mfe-git ./GitPanel')).toBeInTheDocument();
    expect(screen.getByTestId('ctx-GitPanel')).toHaveTextContent('alice|s-1|git|disconnected');
    fireEvent.click(screen.getByRole('button', { name: 'open s-9 from GitPanel' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s-9?tab=git'));
  });

  it('switches tabs through the URL', async () => {
    renderMain('/sheets/s-1?tab=data');
    expect(await screen.findByText('mfe-sheets ./Workspace')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Git' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets/s-1?tab=git'));
    expect(await screen.findByText('mfe-git ./GitPanel')).toBeInTheDocument();
  });

  it('toggles the chat panel and the members panel', async () => {
    const { loads } = renderMain('/sheets');
    await screen.findByText('mfe-chat ./ChatPanel');
    fireEvent.click(screen.getByRole('button', { name: 'Hide chat' }));
    expect(screen.queryByTestId('remote-mfe-chat-ChatPanel')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show chat' }));
    expect(await screen.findByTestId('remote-mfe-chat-ChatPanel')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('members-toggle'));
    expect(await screen.findByText('mfe-members ./MembersPanel')).toBeInTheDocument();
    expect(loads).toContain('mfe-members/MembersPanel');
    fireEvent.click(screen.getByTestId('members-toggle'));
    expect(screen.queryByTestId('members-panel')).not.toBeInTheDocument();
    // Each opening mounts the panel again, so it loads the users list again (spec 01 §2).
    fireEvent.click(screen.getByTestId('members-toggle'));
    expect(await screen.findByText('mfe-members ./MembersPanel')).toBeInTheDocument();
    // The button is in the header (it covers nothing of the grid's row numbers); the panel opens
    // over the main area, never over the chat panel beside it.
    expect(screen.getByTestId('utilities')).toContainElement(screen.getByTestId('members-toggle'));
    expect(screen.getByRole('main')).toContainElement(screen.getByTestId('members-panel'));
  });

  it('resizes the chat panel by its one handle, within 320–800 px, and remembers the width across reloads', async () => {
    renderMain('/sheets');
    await screen.findByText('mfe-chat ./ChatPanel');
    const handles = screen.getAllByRole('separator', { name: 'Resize chat panel' });
    expect(handles).toHaveLength(1);
    const handle = handles[0]!;
    expect(handle).toHaveAttribute('aria-valuenow', '384');
    fireEvent.mouseDown(handle, { clientX: 1000 });
    fireEvent.mouseMove(window, { clientX: 900 });
    expect(handle).toHaveAttribute('aria-valuenow', '484');
    fireEvent.mouseMove(window, { clientX: 0 });
    expect(handle).toHaveAttribute('aria-valuenow', '800');
    fireEvent.mouseMove(window, { clientX: 2000 });
    expect(handle).toHaveAttribute('aria-valuenow', '320');
    fireEvent.mouseUp(window);
    fireEvent.mouseMove(window, { clientX: 500 });
    expect(handle).toHaveAttribute('aria-valuenow', '320');
    handle.focus();
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(handle).toHaveAttribute('aria-valuenow', '336');

    // A reload (a new mount) opens the panel at the width it was left at.
    cleanup();
    renderMain('/sheets');
    await screen.findByText('mfe-chat ./ChatPanel');
    expect(screen.getByRole('separator', { name: 'Resize chat panel' })).toHaveAttribute('aria-valuenow', '336');
  });

  it('keeps working when a remote is down: its place shows the card, the others render', async () => {
    renderMain('/sheets', new Set<RemoteName>(['mfe-chat']));
    expect(await screen.findByTestId('remote-fallback-mfe-chat')).toHaveTextContent('Chat is unavailable');
    expect(await screen.findByText('mfe-sheets ./Navigator')).toBeInTheDocument();
    expect(screen.getByText('No Sheet Selected')).toBeInTheDocument();
    // The header parts that are not there render nothing.
    expect(screen.getAllByTestId(/^remote-fallback-/)).toHaveLength(1);
  });

  it('shows the health of both services in About', async () => {
    renderMain('/sheets');
    await waitFor(() => expect(server?.calls).toEqual(expect.arrayContaining(['GET /health', 'GET /ai/health'])));
    fireEvent.click(screen.getByRole('button', { name: 'About' }));
    const dialog = await screen.findByTestId('about-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('health-api')).toHaveTextContent('healthy'));
    expect(within(dialog).getByTestId('health-api')).toHaveTextContent(`${server!.url}/health`);
    expect(within(dialog).getByTestId('health-ai-middleware')).toHaveTextContent('unhealthy');
    expect(within(dialog).getByTestId('health-ai-middleware')).toHaveTextContent(`${server!.url}/ai/health`);
  });
});
