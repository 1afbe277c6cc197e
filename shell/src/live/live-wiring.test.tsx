/**
 * @jest-environment-options {"customExportConditions": ["node"]}
 */
// The main screen against a real WebSocket server on loopback standing in for the api's live
// sockets: the connection dot, join and leave toasts, and what remotes get as shell.live and
// shell.presence.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { LIVE_CLOSE, LIVE_TEXTS, type RemoteProps } from '@tessera/contracts';
import { MainLayout } from '../main/MainLayout.js';
import type { RemoteComponent, RemoteLoader } from '../remotes/remote-loader.js';
import { RemoteLoaderProvider } from '../remotes/remote-loader.context.js';
import { ServicesProvider } from '../services/services.context.js';
import { fakeToken } from '../test/loopback-server.js';
import { startLiveServer, type LivePeer, type LiveServer } from '../test/live-server.js';
import { LocationProbe, servicesFor } from '../test/render-app.js';

/** Stands in for the Workspace: shows what it gets from the shell and uses live as the grid would. */
function WorkspaceProbe({ shell }: RemoteProps) {
  const [frames, setFrames] = useState<string[]>([]);
  const [navigation, setNavigation] = useState<string[]>([]);
  // shell.live.pending is read when asked (a new count gives no new context): the 'read live' button reads it.
  const [pending, setPending] = useState<number | null>(null);
  useEffect(
    () =>
      shell.live.subscribe((f) =>
        setFrames((all) => [...all, f.type === 'operation' ? `operation v${f.data.version} by ${f.data.operation.user_id}` : f.type]),
      ),
    [shell.live],
  );
  useEffect(() => shell.bus.on('navigation-changed', (e) => setNavigation((all) => [...all, `${e.type}:${e.id}:${e.userId}`])), [shell.bus]);
  useEffect(() => shell.bus.on('import-progress', (e) => setNavigation((all) => [...all, `import ${e.importId} ${e.rowsStored}/${e.rowsTotal}`])), [shell.bus]);
  return (
    <div>
      <output data-testid="live">{`${shell.live.state}|pending ${pending ?? '?'}`}</output>
      <button type="button" onClick={() => setPending(shell.live.pending)}>
        read live
      </button>
      <output data-testid="on-sheet">
        {shell.presence.onSheet.map((u) => `${u.displayName}${u.selection ? `@${u.selection.row},${u.selection.col}` : ''}`).join(',')}
      </output>
      <output data-testid="colors">{shell.presence.onSheet.map((u) => u.color).join('|')}</output>
      <output data-testid="online">{shell.presence.online.join(',')}</output>
      <output data-testid="frames">{frames.join(',')}</output>
      <output data-testid="navigation">{navigation.join(',')}</output>
      <button type="button" onClick={() => shell.live.send({ id: `op-${Date.now()}`, type: 'cell_update', position: { row: 1, column: 2 }, value: 'typed' })}>
        type
      </button>
      <button type="button" onClick={() => shell.sheet.select(4, 5)}>
        select
      </button>
      <button type="button" onClick={() => shell.live.requestReload()}>
        reload
      </button>
      <button type="button" onClick={() => shell.live.pause()}>
        pause
      </button>
      <button type="button" onClick={() => shell.live.resume()}>
        resume
      </button>
      <button type="button" onClick={() => shell.sheet.report({ id: 's1', name: 'Big', headers: [], size: { rows: 200_000, cols: 2 }, version: 3, getData: () => null, windowed: true })}>
        report windowed
      </button>
      <button type="button" onClick={() => shell.sheet.open('s2')}>
        open s2
      </button>
      <button type="button" onClick={() => shell.sheet.open(null)}>
        close sheet
      </button>
    </div>
  );
}

const loader: RemoteLoader = {
  async load(_remote, expose): Promise<RemoteComponent> {
    if (expose === './Workspace') return WorkspaceProbe;
    if (expose === './OnlineIndicator') {
      return function OnlineIndicatorProbe({ shell }: RemoteProps) {
        return <span data-testid="indicator-probe">{`${shell.presence.online.length} online`}</span>;
      };
    }
    return function Other() {
      return null;
    };
  },
  async retry() {},
};

// Real sockets and the whole main screen: 2 s a test alone, more on a busy CI machine.
jest.setTimeout(20_000);

let server: LiveServer;
beforeEach(async () => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
  server = await startLiveServer();
});
afterEach(async () => {
  jest.restoreAllMocks();
  // The main screen's first health checks (api and ai-middleware) are answered before the server goes.
  await server.until(() => server.answered >= 2, 'the health checks');
  await server.close();
  localStorage.clear();
});

const ME = { id: 'u1', username: 'alice', role: 'admin' } as const;

function renderMain(path: string) {
  const services = servicesFor(server.url);
  const token = fakeToken({ sub: ME.id, username: ME.username });
  services.session.setToken(token);
  render(
    <MemoryRouter initialEntries={[path]}>
      <ServicesProvider services={services}>
        <ChakraProvider value={defaultSystem}>
          <RemoteLoaderProvider loader={loader}>
            <MainLayout user={ME} />
          </RemoteLoaderProvider>
        </ChakraProvider>
      </ServicesProvider>
      <LocationProbe />
    </MemoryRouter>,
  );
  return { services, token };
}

const sheetPeer = (id = 's1') => server.open().find((p) => p.path === `/sheets/${id}`);
const workspacePeer = () => server.open().find((p) => p.path === '/live');
async function peerOf(find: () => LivePeer | undefined): Promise<LivePeer> {
  await server.until(() => find() !== undefined, 'the socket');
  return find()!;
}
const send = (peer: LivePeer, frame: unknown) => act(() => peer.send(frame));
/** The probe's connection state and its pending count read now. */
function liveNow(): HTMLElement {
  fireEvent.click(screen.getByRole('button', { name: 'read live' }));
  return screen.getByTestId('live');
}

/** The whole text: 'connected|pending 0' as a plain string would also match 'disconnected|pending 0'. */
const exactly = (text: string) => new RegExp(`^${text.replace(/[|]/g, '\\|')}$`);

test('the connection dot follows the open sheet socket, which carries the token as its subprotocol', async () => {
  const { token } = renderMain('/sheets/s1');
  const dot = screen.getByTestId('connection-status');
  await waitFor(() => expect(dot).toHaveTextContent('Connected'));
  expect(dot).toHaveAttribute('data-state', 'connected');
  const peer = await peerOf(sheetPeer);
  expect(peer.token).toBe(token);
  expect((await peerOf(workspacePeer)).token).toBe(token);

  // The network drops: Disconnected, then connected again by the retry.
  act(() => server.dropAll());
  await waitFor(() => expect(dot).toHaveTextContent('Disconnected'));
  await waitFor(() => expect(dot).toHaveTextContent('Connected'), { timeout: 5000 });
  expect(server.peers.filter((p) => p.path === '/sheets/s1')).toHaveLength(2);
});

test('switching sheets switches the socket; no sheet closes it and the dot says Disconnected', async () => {
  renderMain('/sheets/s1');
  await peerOf(sheetPeer);
  await waitFor(() => expect(screen.getByTestId('connection-status')).toHaveTextContent('Connected'));
  fireEvent.click(await screen.findByRole('button', { name: 'open s2' }));
  await peerOf(() => sheetPeer('s2'));
  await server.until(() => sheetPeer('s1') === undefined, 's1 to close');
  await waitFor(() => expect(screen.getByTestId('connection-status')).toHaveTextContent('Connected'));

  fireEvent.click(screen.getByRole('button', { name: 'close sheet' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sheets?tab=data'));
  await server.until(() => sheetPeer('s2') === undefined, 's2 to close');
  expect(screen.getByTestId('connection-status')).toHaveTextContent('Disconnected');
  // The workspace socket stays.
  expect(workspacePeer()).toBeDefined();
});

test("others joining and leaving show toasts (never for oneself), closable by hand; shell.presence lists who is on the sheet", async () => {
  renderMain('/sheets/s1');
  const peer = await peerOf(sheetPeer);
  await send(peer, {
    type: 'presence',
    data: {
      sheet_id: 's1',
      users: [
        { userId: 'u1', joinedAt: '2026-01-01T00:00:00Z', display_name: 'alice' },
        { userId: 'u2', joinedAt: '2026-01-01T00:00:00Z', display_name: 'Bob', selection: { row: 1, column: 1 } },
      ],
    },
  });
  await waitFor(() => expect(screen.getByTestId('on-sheet')).toHaveTextContent('alice,Bob@1,1'));
  expect(screen.queryByTestId('presence-toasts')).not.toBeInTheDocument();

  await send(peer, { type: 'user_joined', data: { user_id: 'u3', sheet_id: 's1', display_name: 'Carol' } });
  await send(peer, { type: 'user_joined', data: { user_id: 'u3', sheet_id: 's1', display_name: 'Carol' } }); // her second tab
  await send(peer, { type: 'user_joined', data: { user_id: 'u4', sheet_id: 'other', display_name: 'Dan' } }); // another sheet
  await send(peer, { type: 'user_left', data: { user_id: 'u2', sheet_id: 's1', display_name: 'Bob' } });
  await send(peer, { type: 'user_joined', data: { user_id: 'abcdef0123456789', sheet_id: 's1', display_name: '' } });
  await send(peer, { type: 'selection', data: { user_id: 'u3', sheet_id: 's1', display_name: 'Carol', selection: { row: 7, column: 0 } } });
  await waitFor(() => expect(screen.getByTestId('on-sheet')).toHaveTextContent(/^alice,Carol@7,0,User abcdef01$/));

  const toasts = within(screen.getByTestId('presence-toasts')).getAllByRole('status');
  expect(toasts.map((t) => t.textContent)).toEqual(['Carol joined the sheet', 'Bob left the sheet', 'User abcdef01 joined the sheet']);
  fireEvent.click(within(toasts[1]).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(within(screen.getByTestId('presence-toasts')).getAllByRole('status')).toHaveLength(2));
  expect(screen.queryByText('left the sheet', { exact: false })).not.toBeInTheDocument();

  // Colours are each user's own and the same on every client.
  const colors = screen.getByTestId('colors').textContent!.split('|');
  expect(new Set(colors).size).toBe(3);
});

test('the toasts go away by themselves after 5 seconds', async () => {
  renderMain('/sheets/s1');
  const peer = await peerOf(sheetPeer);
  await send(peer, { type: 'user_joined', data: { user_id: 'u3', sheet_id: 's1', display_name: 'Carol' } });
  expect(await screen.findByText('joined the sheet', { exact: false })).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByTestId('presence-toasts')).not.toBeInTheDocument(), { timeout: 8000 });
}, 15_000);

test('edits go through shell.live with the sheet id (queued while disconnected), selections and reload requests too', async () => {
  // As the api: the server speaks first once joined; the queued edits follow.
  server.greet = true;
  renderMain('/sheets/s1');
  const first = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  server.autoAck = false;
  fireEvent.click(screen.getByRole('button', { name: 'type' }));
  await server.until(() => first.frames.length === 1);
  expect(first.frames[0]).toMatchObject({
    type: 'operation',
    sheet_id: 's1',
    operation: { type: 'cell_update', position: { row: 1, column: 2 }, value: 'typed' },
  });
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 1')));

  // Offline: the edit waits; on reconnect the unacknowledged and the queued one go, in order.
  act(() => server.dropAll());
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('disconnected|pending 1')));
  fireEvent.click(screen.getByRole('button', { name: 'type' }));
  expect(liveNow()).toHaveTextContent(exactly('disconnected|pending 2'));
  fireEvent.click(screen.getByRole('button', { name: 'select' }));
  server.autoAck = true;
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')), { timeout: 5000 });
  const second = server.peers.filter((p) => p.path === '/sheets/s1')[1];
  const ops = second.frames.filter((f) => f.type === 'operation').map((f) => (f.operation as { id: string }).id);
  expect(ops).toHaveLength(2);
  expect(ops[0]).toBe((first.frames[0].operation as { id: string }).id);
  // The selection made while offline is told on reconnect, once: not again at each acknowledgement.
  expect(second.frames.filter((f) => f.type === 'selection')).toEqual([{ type: 'selection', sheet_id: 's1', selection: { row: 4, column: 5 } }]);

  fireEvent.click(screen.getByRole('button', { name: 'reload' }));
  await server.until(() => second.frames.some((f) => f.type === 'reload_request'));
  expect(second.frames).toContainEqual({ type: 'reload_request', sheet_id: 's1' });
  // The Workspace got the acks through shell.live.subscribe.
  expect(screen.getByTestId('frames')).toHaveTextContent('ack');
});

test("a sheet the Workspace reports windowed: its open socket is told (a grid frame) and every reconnect says so (?grid=windowed), so its syncs come without the cells", async () => {
  server.greet = true;
  renderMain('/sheets/s1');
  const first = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  // Opened before the sheet was loaded: nothing said yet.
  expect(first.query.get('grid')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'report windowed' }));
  await server.until(() => first.frames.some((f) => f.type === 'grid'));
  expect(first.frames.filter((f) => f.type === 'grid')).toEqual([{ type: 'grid', sheet_id: 's1', grid: 'windowed' }]);
  act(() => server.dropAll());
  await server.until(() => server.peers.filter((p) => p.path === '/sheets/s1').length === 2, 'the reconnect');
  const second = server.peers.filter((p) => p.path === '/sheets/s1')[1];
  expect([second.query.get('grid'), second.query.get('since')]).toEqual(['windowed', '3']);
});

test('an acknowledged edit is also told to every subscriber as an operation frame: the Workspace shows what another remote wrote', async () => {
  renderMain('/sheets/s1');
  const peer = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  fireEvent.click(screen.getByRole('button', { name: 'type' }));
  await waitFor(() => expect(screen.getByTestId('frames')).toHaveTextContent(/^ack,operation v1 by u1$/));
  // Others' operations arrive once, as the server sent them.
  await send(peer, {
    type: 'operation',
    data: { sheet_id: 's1', version: 2, operation: { id: 'x', type: 'cell_update', position: { row: 0, column: 0 }, value: 1, user_id: 'u2', timestamp: 't' } },
  });
  await waitFor(() => expect(screen.getByTestId('frames')).toHaveTextContent(/^ack,operation v1 by u1,operation v2 by u2$/));
});

test('paused (AI Editing Mode), frames for the remotes are kept and told in order on resume', async () => {
  renderMain('/sheets/s1');
  const peer = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  const op = (version: number) => ({
    type: 'operation',
    data: { sheet_id: 's1', version, operation: { id: `x${version}`, type: 'cell_update', position: { row: 0, column: 0 }, value: version, user_id: 'u2', timestamp: 't' } },
  });
  fireEvent.click(screen.getByRole('button', { name: 'pause' }));
  await send(peer, op(1));
  await send(peer, op(2));
  // Presence is the shell's own and is not paused: once Bob shows, the operations before him have arrived too.
  await send(peer, { type: 'user_joined', data: { user_id: 'u2', sheet_id: 's1', display_name: 'Bob' } });
  await waitFor(() => expect(screen.getByTestId('on-sheet')).toHaveTextContent('Bob'));
  expect(screen.getByTestId('frames')).toHaveTextContent(/^$/);
  fireEvent.click(screen.getByRole('button', { name: 'resume' }));
  await waitFor(() => expect(screen.getByTestId('frames')).toHaveTextContent(/^operation v1 by u2,operation v2 by u2,user_joined$/));
});

test('the workspace socket fills presence.online and tells navigation changes on the bus', async () => {
  renderMain('/sheets/s1');
  const live = await peerOf(workspacePeer);
  await screen.findByTestId('online');
  await send(live, { type: 'online', data: { users: [{ user_id: 'u1', display_name: 'alice' }, { user_id: 'u2', display_name: 'Bob' }] } });
  await send(live, { type: 'user_online', data: { user_id: 'u5', display_name: 'Eve' } });
  await send(live, { type: 'user_offline', data: { user_id: 'u2' } });
  await waitFor(() => expect(screen.getByTestId('online')).toHaveTextContent(/^u1,u5$/));
  // The header's place of mfe-members' ./OnlineIndicator gets the same presence.
  expect(within(screen.getByTestId('utilities')).getByTestId('indicator-probe')).toHaveTextContent('2 online');

  await send(live, { type: 'sheet_created', data: { id: 's9', user_id: 'u2', name: 'New' } });
  await send(live, { type: 'custom_message', data: { type: 'group_deleted', data: { id: 'g1', user_id: 'u5' } } });
  const peer = await peerOf(sheetPeer);
  await send(peer, { type: 'mapping_updated', data: { id: 'm1' } });
  await waitFor(() =>
    expect(screen.getByTestId('navigation')).toHaveTextContent('sheet_created:s9:u2,group_deleted:g1:u5,mapping_updated:m1:null'),
  );
});

test("the workspace socket's import_progress frames reach the remotes on the bus", async () => {
  renderMain('/sheets/s1');
  const live = await peerOf(workspacePeer);
  await screen.findByTestId('online');
  const id = '6f1c1a52-6b1e-4c44-9d55-0d1f0c6e2b11';
  await send(live, { type: 'import_progress', data: { import_id: id, rows_stored: 1500, rows_total: 4000 } });
  await waitFor(() => expect(screen.getByTestId('navigation')).toHaveTextContent(`import ${id} 1500/4000`));
});

test('a sheet left with unacknowledged edits keeps its socket until they are acknowledged', async () => {
  renderMain('/sheets/s1');
  const s1 = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  server.autoAck = false;
  fireEvent.click(screen.getByRole('button', { name: 'type' }));
  await server.until(() => s1.frames.length === 1);
  fireEvent.click(screen.getByRole('button', { name: 'open s2' }));
  await peerOf(() => sheetPeer('s2'));
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  expect(sheetPeer('s1')).toBe(s1);

  const id = (s1.frames[0].operation as { id: string }).id;
  s1.send({ type: 'ack', data: { sheet_id: 's1', operation_id: id, version: 1, timestamp: 't' } });
  await server.until(() => sheetPeer('s1') === undefined, 's1 to close once its edit is acknowledged');
  expect(sheetPeer('s2')).toBeDefined();
});

test("a sheet socket closed because the session ended (4401), with no fresh token to be had, signs out with the session-ended notice", async () => {
  const { services } = renderMain('/sheets/s1');
  const peer = await peerOf(sheetPeer);
  await waitFor(() => expect(liveNow()).toHaveTextContent(exactly('connected|pending 0')));
  // This server has no refresh endpoint: the refresh fails as for a deleted member.
  act(() => peer.socket.close(LIVE_CLOSE.sessionEnded, LIVE_TEXTS.sessionEnded));
  await waitFor(() => expect(services.auth.getState().phase).toBe('signedOut'));
  expect(services.auth.getState().notice).toBe(LIVE_TEXTS.sessionEnded);
  expect(services.session.token()).toBeNull();
});
