import { waitFor } from '@testing-library/react';
import {
  LiveFrameRelay,
  createDevShellContext,
  createSheetLiveClient,
  liveSocketUrl,
  sheetSocketPath,
  type DevShellOptions,
  type LiveGrid,
  type LiveOperation,
  type LiveServerFrame,
  type ShellContext,
  type ShellLive,
  type SheetLiveClient,
} from '@tessera/contracts';

const clients = new Set<SheetLiveClient>();

/**
 * Test support: a shell context whose `live` is the contracts' sheet socket client on the test
 * api's `/sheets/{id}`, signed in as `userId` (the test hub takes the token as the user id),
 * wired as the shell wires it: operations through sendOperation (queued offline, sent again
 * until settled), reload requests only while connected, and the Workspace's reported version
 * as the `since` of a reconnect, and how it holds the sheet (its report's `windowed`) as the
 * socket's `grid`: at each connect and in a `grid` frame when it changes. closeLiveShells()
 * closes them all (after each test).
 */
export function liveShellFor(apiUrl: string, sheetId: string, userId: string, options: DevShellOptions = {}): ShellContext {
  const shell = createDevShellContext({ apiBaseURL: apiUrl, sheetId, tab: 'data', ...options });
  let grid: LiveGrid | undefined;
  const client = createSheetLiveClient({
    token: () => userId,
    heldVersion: () => shell.sheet.version,
    grid: () => grid,
    log: () => {},
  });
  const sendGrid = () => void (grid && client.send({ type: 'grid', sheet_id: sheetId, grid }));
  let connected = false;
  client.onChange(({ state }) => {
    if (state === 'connected' && !connected) sendGrid();
    connected = state === 'connected';
  });
  const report = shell.sheet.report.bind(shell.sheet);
  shell.sheet.report = (next) => {
    report(next);
    const now = next === null ? undefined : next.windowed ? 'windowed' : 'whole';
    if (now === grid) return;
    grid = now;
    sendGrid();
  };
  clients.add(client);
  // As the shell does: acknowledged operations are told to every subscriber; frames kept while paused.
  const relay = new LiveFrameRelay(userId);
  client.subscribe((frame) => relay.receive(frame, sheetId));
  const live: ShellLive = {
    get state() {
      return client.state;
    },
    get pending() {
      return client.pending;
    },
    send: (operation) => {
      relay.sent(operation);
      client.sendOperation(operation.id, { type: 'operation', operation, sheet_id: sheetId });
    },
    subscribe: (listener) => relay.subscribe(listener),
    requestReload: () => void client.send({ type: 'reload_request', sheet_id: sheetId }),
    pause: () => relay.pause(),
    resume: () => relay.resume(),
  };
  client.connect(liveSocketUrl(apiUrl, sheetSocketPath(sheetId)));
  return { ...shell, user: { id: userId, username: userId, role: 'admin' }, live };
}

export function closeLiveShells(): void {
  for (const client of clients) client.close();
  clients.clear();
}

/** Operation ids unique across the test run: two colleagues of one test never send the same id. */
let sequence = 0;

/**
 * Test support: a colleague (`userId`, Bob by default) on the sheet from another client — the
 * contracts' socket client, as his shell has it, connected before this resolves; closed by
 * closeLiveShells. `send` sends an operation (an id given) and returns its id; `acked` waits for its
 * ack; `frames` are all he received.
 */
export async function colleagueJoins(apiUrl: string, sheetId: string, userId = 'bob') {
  const frames: LiveServerFrame[] = [];
  const client = createSheetLiveClient({ token: () => userId, log: () => {} });
  clients.add(client);
  client.subscribe((frame) => frames.push(frame));
  client.connect(liveSocketUrl(apiUrl, sheetSocketPath(sheetId)));
  await waitFor(() => expect(client.state).toBe('connected'));
  const send = (op: Record<string, unknown>) => {
    const operation = { id: `${userId}-${++sequence}`, ...op } as LiveOperation;
    client.sendOperation(operation.id, { type: 'operation', operation, sheet_id: sheetId });
    return operation.id;
  };
  const acked = (id: string) => waitFor(() => expect(frames.some((f) => f.type === 'ack' && f.data.operation_id === id)).toBe(true));
  return { client, frames, send, acked };
}
