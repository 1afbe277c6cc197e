import { createLiveClient, reconnectDelay, type LiveSocketLike } from './live-client.js';
import { LIVE_CLOSE, LIVE_TEXTS, LiveServerFrameSchema, liveCloseAction } from './live.schema.js';

/** A socket the test drives: it records what the client sends and opens, speaks and closes on demand. */
class FakeSocket implements LiveSocketLike {
  readyState = 0;
  onopen: LiveSocketLike['onopen'] = null;
  onclose: LiveSocketLike['onclose'] = null;
  onerror: LiveSocketLike['onerror'] = null;
  onmessage: LiveSocketLike['onmessage'] = null;
  readonly sent: unknown[] = [];
  constructor(
    readonly url: string,
    readonly token: string | undefined,
  ) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  speak(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  closeWith(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

const presence = { type: 'presence', data: { sheet_id: 's1', users: [] } };
const op = (id: string) => ({ type: 'operation', sheet_id: 's1', operation: { id, type: 'cell_update', position: { row: 0, column: 0 }, value: id } });

function setup(renew: () => Promise<string | null> = async () => 'fresh') {
  const sockets: FakeSocket[] = [];
  let token = 'first';
  const ended: { code: number; reason: string }[] = [];
  const renewals: number[] = [];
  const client = createLiveClient<unknown, unknown>({
    schema: LiveServerFrameSchema,
    token: () => token,
    renewToken: async () => {
      renewals.push(Date.now());
      const next = await renew();
      if (next) token = next;
      return next;
    },
    onSessionEnded: (e) => ended.push(e),
    settles: (f) => ((f as { type: string; data: { operation_id?: string } }).type === 'ack' ? [(f as { data: { operation_id: string } }).data.operation_id] : []),
    versionOf: (f) => ((f as { type: string }).type === 'ack' ? (f as { data: { version: number } }).data.version : undefined),
    createSocket: (url, protocols) => {
      const s = new FakeSocket(url, protocols[1]);
      sockets.push(s);
      return s;
    },
    log: () => {},
  });
  return { client, sockets, ended, renewals };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
afterEach(() => jest.useRealTimers());

test('close codes map to what the client does', () => {
  expect(liveCloseAction(LIVE_CLOSE.sessionEnded)).toBe('renewSession');
  expect(liveCloseAction(LIVE_CLOSE.tokenExpired)).toBe('renewSession');
  expect(liveCloseAction(LIVE_CLOSE.policyViolation)).toBe('refreshAndRetry');
  for (const code of [LIVE_CLOSE.tooFarBehind, LIVE_CLOSE.messageTooBig, 1006, 1011]) expect(liveCloseAction(code)).toBe('retry');
});

test('an expired token (4440) is renewed and the socket reconnects at once with the fresh token', async () => {
  const { client, sockets, ended } = setup();
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].closeWith(LIVE_CLOSE.tokenExpired, LIVE_TEXTS.tokenExpired);
  await flush();
  expect(sockets).toHaveLength(2);
  expect(sockets[1].token).toBe('fresh');
  expect(ended).toEqual([]);
  expect(client.state).toBe('reconnecting');
});

test('an ended session (4401) that cannot be renewed signs out: told once, and no retry ever', async () => {
  const { client, sockets, ended } = setup(async () => null);
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].closeWith(LIVE_CLOSE.sessionEnded, LIVE_TEXTS.sessionEnded);
  await flush();
  expect(ended).toEqual([{ code: LIVE_CLOSE.sessionEnded, reason: LIVE_TEXTS.sessionEnded }]);
  jest.advanceTimersByTime(120_000);
  expect(sockets).toHaveLength(1);
  expect(client.state).toBe('disconnected');
});

test('an ended session (4401) whose session is still valid (own password change, new role) reconnects with the new token', async () => {
  const { client, sockets, ended } = setup(async () => 'after-role-change');
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].closeWith(LIVE_CLOSE.sessionEnded, LIVE_TEXTS.sessionEnded);
  await flush();
  expect(ended).toEqual([]);
  expect(sockets.map((s) => s.token)).toEqual(['first', 'after-role-change']);
});

test('a renewal that returns the refused token again falls back to the backoff (no tight loop)', async () => {
  const { client, sockets } = setup(async () => 'first');
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].closeWith(LIVE_CLOSE.sessionEnded);
  await flush();
  expect(sockets).toHaveLength(1);
  jest.advanceTimersByTime(reconnectDelay(0));
  expect(sockets).toHaveLength(2);
});

test('a client that fell too far behind (4408) reconnects with ?since= its last version, without a token refresh', async () => {
  const { client, sockets, renewals } = setup();
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].speak({ type: 'ack', data: { sheet_id: 's1', operation_id: 'x', version: 41, timestamp: 't' } });
  sockets[0].closeWith(LIVE_CLOSE.tooFarBehind, LIVE_TEXTS.tooFarBehind);
  await flush();
  expect(renewals).toEqual([]);
  jest.advanceTimersByTime(reconnectDelay(0));
  expect(sockets).toHaveLength(2);
  expect(new URL(sockets[1].url).searchParams.get('since')).toBe('41');
});

test('a refusal (1008) refreshes the token for the next attempt, which waits for the backoff', async () => {
  const { client, sockets, renewals, ended } = setup();
  client.connect('ws://h/sheets/s1');
  sockets[0].closeWith(LIVE_CLOSE.policyViolation, 'Invalid or expired access token');
  await flush();
  expect(renewals).toHaveLength(1);
  expect(sockets).toHaveLength(1);
  jest.advanceTimersByTime(reconnectDelay(0));
  expect(sockets[1].token).toBe('fresh');
  expect(ended).toEqual([]);
});

test('operations queued offline are replayed only after the server has spoken (joined), in order', () => {
  const { client, sockets } = setup();
  client.sendOperation('a', op('a'));
  client.sendOperation('b', op('b'));
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  expect(client.state).toBe('connected');
  client.sendOperation('c', op('c'));
  expect(sockets[0].sent).toEqual([]);
  sockets[0].speak(presence);
  expect(sockets[0].sent.map((f) => (f as { operation: { id: string } }).operation.id)).toEqual(['a', 'b', 'c']);
  // Once joined, an operation goes at once.
  client.sendOperation('d', op('d'));
  expect(sockets[0].sent).toHaveLength(4);
});

test('a close (for good) while a renewal is under way changes nothing when it answers', async () => {
  let answer: (token: string | null) => void = () => {};
  const { client, sockets, ended } = setup(() => new Promise((resolve) => (answer = resolve)));
  client.connect('ws://h/sheets/s1');
  sockets[0].open();
  sockets[0].closeWith(LIVE_CLOSE.tokenExpired);
  client.close();
  answer(null);
  await flush();
  expect(ended).toEqual([]);
  expect(sockets).toHaveLength(1);
});
