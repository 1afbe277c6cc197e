import {
  LiveFrameRelay,
  createDevShellContext,
  createSheetLiveClient,
  liveSocketUrl,
  sheetSocketPath,
  type DevShellOptions,
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
 * as the `since` of a reconnect. closeLiveShells() closes them all (after each test).
 */
export function liveShellFor(apiUrl: string, sheetId: string, userId: string, options: DevShellOptions = {}): ShellContext {
  const shell = createDevShellContext({ apiBaseURL: apiUrl, sheetId, tab: 'data', ...options });
  const client = createSheetLiveClient({
    token: () => userId,
    heldVersion: () => shell.sheet.version,
    log: () => {},
  });
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
