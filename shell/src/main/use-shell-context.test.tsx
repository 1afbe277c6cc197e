import { act, render, screen, waitFor } from '@testing-library/react';
import { AI_SUPPORTED_FILE_FORMATS, DEFAULT_FLAGS } from '@tessera/contracts';
import { MemoryRouter } from 'react-router';
import { ServicesProvider } from '../services/services.context.js';
import { servicesFor } from '../test/render-app.js';
import { gate, startLoopbackServer, type LoopbackServer } from '../test/loopback-server.js';
import type { ShellContext } from '@tessera/contracts';
import type { LiveSession } from '../live/live-session.js';
import { useLiveSession } from '../live/use-live-session.js';
import { fetchFeatureFlags } from './feature-flags/use-feature-flags.js';
import { useShellContext } from './use-shell-context.js';

function Probe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' }, useLiveSession('u1'));
  return <output data-testid="user">{`${shell.user.nickname ?? '-'}|${shell.user.email ?? '-'}`}</output>;
}

test("a profile saved in account settings (bus 'profile-updated') reaches every remote's shell.user", () => {
  const services = servicesFor('http://127.0.0.1:9');
  render(
    <MemoryRouter>
      <ServicesProvider services={services}>
        <Probe />
      </ServicesProvider>
    </MemoryRouter>,
  );
  expect(screen.getByTestId('user')).toHaveTextContent('-|-');
  act(() => services.bus.emit('profile-updated', { userId: 'someone-else', nickname: 'X', email: null }));
  expect(screen.getByTestId('user')).toHaveTextContent('-|-');
  act(() => services.bus.emit('profile-updated', { userId: 'u1', nickname: 'Al', email: 'al@example.com' }));
  expect(screen.getByTestId('user')).toHaveTextContent('Al|al@example.com');
});

function SheetProbe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' }, useLiveSession('u1'));
  const { sheet } = shell;
  return (
    <>
      <output data-testid="sheet">{`${sheet.id}|${sheet.name ?? '-'}|${sheet.size.rows}x${sheet.size.cols}|v${sheet.version ?? '-'}|${JSON.stringify(sheet.selection)}`}</output>
      <button
        type="button"
        onClick={() =>
          sheet.report({ id: 's1', name: 'Budget', headers: ['A'], size: { rows: 3, cols: 1 }, version: 7, getData: () => [[1], [2], [3]] })
        }
      >
        report
      </button>
      <button type="button" onClick={() => sheet.select(2, 0)}>
        select
      </button>
    </>
  );
}

test("what the Workspace reports through shell.sheet reaches every remote's shell.sheet, selection included", () => {
  const services = servicesFor('http://127.0.0.1:9');
  render(
    <MemoryRouter initialEntries={['/sheets/s1']}>
      <ServicesProvider services={services}>
        <SheetProbe />
      </ServicesProvider>
    </MemoryRouter>,
  );
  expect(screen.getByTestId('sheet')).toHaveTextContent('s1|-|0x0|v-|null');
  act(() => screen.getByRole('button', { name: 'report' }).click());
  act(() => screen.getByRole('button', { name: 'select' }).click());
  expect(screen.getByTestId('sheet')).toHaveTextContent('s1|Budget|3x1|v7|{"row":2,"col":0}');
});

function FlagsProbe() {
  const shell = useShellContext({ id: 'u1', username: 'alice', role: 'user' }, useLiveSession('u1'));
  return <output data-testid="flags">{JSON.stringify(shell.flags)}</output>;
}

/** GET /config as the ai-middleware answers it, with the flags its FEATURE_* env set. */
const capabilities = (flags?: Record<string, boolean>) => ({
  langGraphEnabled: false,
  hybridWorkflowSupported: true,
  threePageModeSupported: false,
  streamingSupported: true,
  gridDetectionSupported: true,
  maxRetryAttempts: 3,
  supportedFileFormats: [...AI_SUPPORTED_FILE_FORMATS],
  version: '0.1.0',
  provider: 'builtin',
  model: null,
  ...(flags ? { flags } : {}),
});

describe("shell.flags: the ai-middleware's feature flags (GET /ai/config), read once signed in", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const renderProbe = (url: string) =>
    render(
      <MemoryRouter>
        <ServicesProvider services={servicesFor(url)}>
          <FlagsProbe />
        </ServicesProvider>
      </MemoryRouter>,
    );

  it('the defaults (all on) until /ai/config answers, then what it reports, reaching every remote', async () => {
    const reply = gate();
    const reported = { ...DEFAULT_FLAGS, autoSheetCreation: false, enhancedTableParsing: false };
    server = await startLoopbackServer({ 'GET /ai/config': () => ({ body: capabilities(reported), hold: reply.promise }) });
    renderProbe(server.url);
    expect(JSON.parse(screen.getByTestId('flags').textContent ?? '')).toEqual(DEFAULT_FLAGS);
    reply.open();
    await waitFor(() => expect(JSON.parse(screen.getByTestId('flags').textContent ?? '')).toEqual(reported));
    expect(server.calls.filter((c) => c === 'GET /ai/config')).toHaveLength(1);
  });

  it('the defaults when /ai/config fails, answers without flags, or with bad ones', async () => {
    for (const route of [
      () => ({ status: 503, body: { error: { code: 'internal_error', message: 'down' } } }),
      () => ({ body: capabilities() }),
      () => ({ body: { ...capabilities(), flags: { ...DEFAULT_FLAGS, autoSheetCreation: 'no' } } }),
      () => ({ body: 'not json capabilities' }),
    ]) {
      server = await startLoopbackServer({ 'GET /ai/config': route });
      await expect(fetchFeatureFlags(servicesFor(server.url).ai)).resolves.toEqual(DEFAULT_FLAGS);
      expect(server.calls).toEqual(['GET /ai/config']);
      await server.close();
      server = undefined;
    }
    // No ai-middleware at all.
    await expect(fetchFeatureFlags(servicesFor('http://127.0.0.1:9').ai)).resolves.toEqual(DEFAULT_FLAGS);
  });
});

test("an edit's pending count gives the remotes no new context (they re-rendered twice per edit); shell.live.pending reads it when asked", () => {
  const services = servicesFor('http://127.0.0.1:9');
  const seen: ShellContext[] = [];
  let session: LiveSession | null = null;
  function LiveProbe() {
    session = useLiveSession('u1');
    seen.push(useShellContext({ id: 'u1', username: 'alice', role: 'user' }, session));
    return null;
  }
  render(
    <MemoryRouter initialEntries={['/sheets/s1']}>
      <ServicesProvider services={services}>
        <LiveProbe />
      </ServicesProvider>
    </MemoryRouter>,
  );
  const store = session!.store;
  act(() => store.setState({ sheetId: 's1', state: 'connected' }));
  const before = seen.length;
  const shell = seen.at(-1)!;
  expect(shell.live).toMatchObject({ state: 'connected', pending: 0 });
  act(() => store.setState({ pending: 1 }));
  expect(seen.length).toBe(before);
  expect(shell.live.pending).toBe(1);
  act(() => store.setState({ pending: 0 }));
  expect(seen.length).toBe(before);
  expect(shell.live.pending).toBe(0);
  // Another sheet's socket: its count is not this sheet's.
  act(() => store.setState({ sheetId: 's2', pending: 3 }));
  expect(seen.at(-1)!.live.pending).toBe(0);
  // What remotes render from still gives a new context.
  act(() => store.setState({ sheetId: 's1', state: 'reconnecting' }));
  expect(seen.at(-1)!.live).toMatchObject({ state: 'reconnecting', pending: 3 });
  expect(seen.at(-1)).not.toBe(shell);
});
