/**
 * @jest-environment-options {"customExportConditions": ["node"]}
 */
// The contracts' live client (shared-contracts/src/live) against a real WebSocket server on
// loopback, through jsdom's WebSocket as the browser's. Tested here because the shell has `ws`.
import {
  createSheetLiveClient,
  createWorkspaceLiveClient,
  liveSocketUrl,
  reconnectDelay,
  sheetSocketPath,
  type ConnectionState,
  type LiveClientFrame,
  type LiveServerFrame,
  type SheetLiveClient,
} from '@tessera/contracts';
import { startLiveServer, type LiveServer } from '../test/live-server.js';

let server: LiveServer;
const clients: { close(): void }[] = [];
beforeEach(async () => {
  server = await startLiveServer();
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server.close();
});

function sheetClient(token: () => string | null = () => 'tok-1', heldVersion?: () => number | null) {
  const logged: string[] = [];
  const closes: number[] = [];
  const client = createSheetLiveClient({ token, heldVersion, log: (m) => logged.push(m), onClose: (e) => closes.push(e.code) });
  clients.push(client);
  return { client, logged, closes };
}

function untilState(client: SheetLiveClient, state: ConnectionState): Promise<void> {
  if (client.state === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`client never became ${state} (is ${client.state})`)), 10_000);
    const off = client.onChange((s) => {
      if (s.state !== state) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

const cell = (id: string, row: number, value: string): LiveClientFrame => ({
  type: 'operation',
  sheet_id: 's1',
  operation: { id, type: 'cell_update', position: { row, column: 0 }, value },
});

const sheetUrl = () => liveSocketUrl(server.url, sheetSocketPath('s1'));

test('the socket address follows the page: ws for http, wss for https', () => {
  expect(liveSocketUrl('http://localhost:3000/sheets/a?tab=git', '/sheets/b%20c')).toBe('ws://localhost:3000/sheets/b%20c');
  expect(liveSocketUrl('https://tessera.example', '/live')).toBe('wss://tessera.example/live');
});

test('reconnect waits 1000 ms × 2^attempts, capped at 30,000 ms', () => {
  expect([0, 1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test('connects offering the token as the tessera.bearer subprotocol pair; open means connected', async () => {
  const { client } = sheetClient();
  const states: ConnectionState[] = [];
  client.onChange((s) => states.push(s.state));
  expect(client.state).toBe('disconnected');
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  expect(server.peers[0].path).toBe('/sheets/s1');
  expect(server.peers[0].token).toBe('tok-1');
  // The first connection is not a reconnect, and no version is held yet.
  expect(states).toEqual(['connected']);
  expect(server.peers[0].query.has('since')).toBe(false);
});

test('frames arrive unwrapped (custom_message: the inner type decides) and validated; unknown types and bad JSON are ignored', async () => {
  const { client, logged } = sheetClient();
  const frames: LiveServerFrame[] = [];
  const types: string[] = [];
  client.subscribe((f) => frames.push(f));
  client.subscribeMessages((m) => types.push(m.type));
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  const peer = server.peers[0];
  peer.socket.send('not json');
  peer.send({ type: 'mapping_created', data: { id: 'm1' } });
  peer.send({ type: 'user_joined', data: { user_id: 'u2' } }); // missing fields: invalid
  peer.send({ type: 'custom_message', data: { type: 'user_joined', data: { user_id: 'u2', sheet_id: 's1', display_name: 'Bob' } } });
  peer.send({ type: 'new_proposal', data: { sheet_id: 's1', version_id: 'v9' } });
  await new Promise<void>((resolve) => {
    const off = client.subscribe((f) => f.type === 'new_proposal' && (off(), resolve()));
  });
  expect(frames).toEqual([
    { type: 'user_joined', data: { user_id: 'u2', sheet_id: 's1', display_name: 'Bob' } },
    { type: 'new_proposal', data: { sheet_id: 's1', version_id: 'v9' } },
  ]);
  expect(types).toEqual(['mapping_created', 'user_joined', 'user_joined', 'new_proposal']);
  expect(logged).toEqual(['Live message is not JSON']);
});

test('a message holding an array of frames (those the server produced in one tick) is handled frame by frame, in order', async () => {
  const { client } = sheetClient();
  const frames: LiveServerFrame[] = [];
  client.subscribe((f) => frames.push(f));
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  const op = (version: number, id: string) => ({
    type: 'operation',
    data: { sheet_id: 's1', version, operation: { id, type: 'cell_update', position: { row: 0, column: 0 }, value: id, user_id: 'u2', timestamp: '2026-11-23T00:00:00.000Z' } },
  });
  server.peers[0].send([op(2, 'a'), { type: 'user_joined', data: { user_id: 'u3' } }, op(3, 'b'), op(4, 'c')]);
  await new Promise<void>((resolve) => {
    const off = client.subscribe((f) => f.type === 'operation' && f.data.version === 4 && (off(), resolve()));
  });
  // The invalid frame inside the array is skipped like a lone one; the others keep their order.
  expect(frames.map((f) => (f.type === 'operation' ? f.data.version : f.type))).toEqual([2, 3, 4]);
});

test('an empty address closes the socket and marks it disconnected, with no retry', async () => {
  const { client } = sheetClient();
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  client.connect('');
  expect(client.state).toBe('disconnected');
  await server.until(() => server.open().length === 0, 'the socket to close');
  // Longer than the first retry delay: nothing reopens.
  await new Promise((r) => setTimeout(r, reconnectDelay(0) + 300));
  expect(server.peers).toHaveLength(1);
  expect(client.state).toBe('disconnected');
});

test('a dropped socket reconnects: disconnected, then reconnecting, then connected, with ?since= and the token of now', async () => {
  let token = 'tok-1';
  const { client } = sheetClient(() => token);
  const states: ConnectionState[] = [];
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  server.peers[0].send({ type: 'operation', data: { sheet_id: 's1', version: 12, operation: { id: 'x', type: 'cell_update', position: { row: 0, column: 0 }, value: 'a', user_id: 'u2', timestamp: 't' } } });
  await new Promise<void>((resolve) => {
    const off = client.subscribe(() => (off(), resolve()));
  });
  client.onChange((s) => states.push(s.state));
  token = 'tok-2'; // refreshed meanwhile
  server.dropAll();
  await untilState(client, 'disconnected');
  await untilState(client, 'connected');
  expect(states).toEqual(['disconnected', 'reconnecting', 'connected']);
  expect(server.peers[1].query.get('since')).toBe('12');
  expect(server.peers[1].token).toBe('tok-2');
});

test('the version held from elsewhere (the sheet loaded over HTTP) is the since of the first connect', async () => {
  const { client } = sheetClient(() => 'tok', () => 5);
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.peers.length === 1);
  expect(server.peers[0].query.get('since')).toBe('5');
});

test('operations typed while disconnected wait, then go in order on reconnect; the pending count follows the acks', async () => {
  // As the api: the server speaks first once joined; the queued operations follow.
  server.greet = true;
  const { client } = sheetClient();
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  server.dropAll();
  await untilState(client, 'disconnected');
  client.sendOperation('op-1', cell('op-1', 0, 'a'));
  client.sendOperation('op-2', cell('op-2', 1, 'b'));
  client.sendOperation('op-3', cell('op-3', 2, 'c'));
  expect(client.pending).toBe(3);
  await untilState(client, 'connected');
  await server.until(() => server.peers[1]?.frames.length === 3, 'the queued operations');
  expect(server.peers[1].frames.map((f) => (f.operation as { id: string }).id)).toEqual(['op-1', 'op-2', 'op-3']);
  await new Promise<void>((resolve) => {
    const check = client.onChange((s) => s.pending === 0 && (check(), resolve()));
    if (client.pending === 0) resolve();
  });
  expect(client.pending).toBe(0);
  expect(server.peers[0].frames).toEqual([]);
});

test('operations sent but not acknowledged are sent again after a reconnect; one the server refuses is settled', async () => {
  // As the api: the server speaks first once joined; the queued operations follow.
  server.greet = true;
  server.autoAck = false;
  const { client } = sheetClient();
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  client.sendOperation('op-1', cell('op-1', 0, 'a'));
  client.sendOperation('op-2', cell('op-2', 1, 'b'));
  await server.until(() => server.peers[0].frames.length === 2);
  expect(client.pending).toBe(2);
  // The server refuses op-2 by name: sending it again would be refused again.
  server.peers[0].send({ type: 'error', data: { code: 'invalid_operation', message: 'Cell out of range', operation_id: 'op-2' } });
  await new Promise<void>((resolve) => {
    const off = client.onChange((s) => s.pending === 1 && (off(), resolve()));
  });
  server.autoAck = true;
  server.dropAll();
  await untilState(client, 'disconnected');
  await untilState(client, 'connected');
  await server.until(() => server.peers[1]?.frames.length === 1, 'the unacknowledged operation again');
  expect((server.peers[1].frames[0].operation as { id: string }).id).toBe('op-1');
  await new Promise<void>((resolve) => {
    if (client.pending === 0) resolve();
    const off = client.onChange((s) => s.pending === 0 && (off(), resolve()));
  });
});

test('an own operation seen applied after a reconnect (its ack was lost) is settled too', async () => {
  server.autoAck = false;
  const { client } = sheetClient();
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  await server.until(() => server.open().length === 1);
  client.sendOperation('op-1', cell('op-1', 0, 'a'));
  await server.until(() => server.peers[0].frames.length === 1);
  server.peers[0].send({
    type: 'operation',
    data: { sheet_id: 's1', version: 3, operation: { id: 'op-1', type: 'cell_update', position: { row: 0, column: 0 }, value: 'a', user_id: 'u1', timestamp: 't' } },
  });
  await new Promise<void>((resolve) => {
    const off = client.onChange((s) => s.pending === 0 && (off(), resolve()));
  });
  expect(client.pending).toBe(0);
});

test('other frames (a selection) are sent only while connected', async () => {
  const { client } = sheetClient();
  expect(client.send({ type: 'selection', sheet_id: 's1', selection: { row: 1, column: 2 } })).toBe(false);
  client.connect(sheetUrl());
  await untilState(client, 'connected');
  expect(client.send({ type: 'selection', sheet_id: 's1', selection: { row: 1, column: 2 } })).toBe(true);
  await server.until(() => server.peers[0]?.frames.length === 1);
  expect(server.peers[0].frames[0]).toEqual({ type: 'selection', sheet_id: 's1', selection: { row: 1, column: 2 } });
});

test('a refused socket (1008) is told to onClose and retried with the token of the next attempt', async () => {
  server.refuseWith = 1008;
  let token = 'expired';
  const { client, closes } = sheetClient(() => token);
  client.connect(sheetUrl());
  await server.until(() => server.peers.length === 1);
  await new Promise<void>((resolve) => {
    const off = client.onChange((s) => s.state === 'disconnected' && (off(), resolve()));
  });
  expect(closes).toEqual([1008]);
  server.refuseWith = null;
  token = 'fresh';
  await server.until(() => server.peers.length === 2, 'the retry');
  await untilState(client, 'connected');
  expect(server.peers.map((p) => p.token)).toEqual(['expired', 'fresh']);
});

test('the workspace socket reads its own frames (online users, navigation)', async () => {
  const client = createWorkspaceLiveClient({ token: () => 't', log: () => {} });
  clients.push(client);
  const seen: string[] = [];
  client.subscribe((f) => seen.push(f.type === 'online' ? `online:${f.data.users.map((u) => u.user_id).join(',')}` : f.type));
  client.connect(liveSocketUrl(server.url, '/live'));
  await server.until(() => server.open().length === 1);
  server.peers[0].send({ type: 'online', data: { users: [{ user_id: 'u1', display_name: 'A' }] } });
  server.peers[0].send({ type: 'operation', data: {} });
  server.peers[0].send({ type: 'group_deleted', data: { id: 'g1', user_id: 'u2' } });
  await new Promise<void>((resolve) => {
    const off = client.subscribe((f) => f.type === 'group_deleted' && (off(), resolve()));
  });
  expect(seen).toEqual(['online:u1', 'group_deleted']);
});
