import { DEFAULT_FLAGS, createDevShellContext, createEventBus, createOpenClient, type ShellContext } from '@tessera/contracts';

/** A ShellContext for component tests (clients point nowhere; nothing here calls them). */
export function fakeShell(overrides: Partial<ShellContext> = {}): ShellContext {
  const client = createOpenClient('http://127.0.0.1:9');
  return {
    api: client,
    ai: client,
    user: { id: 'u1', username: 'alice', role: 'admin' },
    logout: async () => {},
    bus: createEventBus(),
    // No socket in component tests: live is disconnected and nothing is sent (tests of live use src/test/live-server.ts).
    live: { state: 'disconnected', pending: 0, send() {}, subscribe: () => () => {}, requestReload() {}, pause() {}, resume() {} },
    presence: { onSheet: [], online: [] },
    sheet: createDevShellContext({ sheetId: null, onAction: () => {} }).sheet,
    remotes: { mount: () => () => {} },
    flags: DEFAULT_FLAGS,
    navigate: () => {},
    tab: 'data',
    ...overrides,
  };
}
