// npm test: once, on PostgreSQL (scripts/lib/service-tests.mjs): the database only backs the app; what is checked is the live sockets' bounds.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  CELL_MAX_LENGTH,
  ERROR_CODES,
  LIVE_CLOSE,
  LIVE_MAX_FRAME_BYTES,
  LIVE_PREJOIN_MAX_FRAMES,
  LIVE_TEXTS,
  CLEAR_TEXTS,
  SHEET_MAX_COLUMNS,
  SHEET_MAX_ROWS,
  SheetSchema,
  type Sheet,
  SORT_ORDER_SENT_MAX_ROWS,
  SORT_TEXTS,
  STRUCTURE_UNDO_TEXTS,
} from '@tessera/contracts';
import { FRAME_TOO_LARGE_REASON } from '../../src/live/socket-close.js';
import { LiveClient, listen } from '../live-client.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { signupAdmin } from '../support/auth-helpers.js';
import { signedInMember } from '../support/members.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 17 §1 "Sockets": what one socket can make the api hold is bounded — a frame (1009), what
 * waits before the join (1008), what a client does not read (4408), what waits for a sheet's
 * commit ('The sheet is busy'). Each case: the close code and text or the error frame, nothing
 * stored, and /health answering after.
 */
// Small bounds so the cases are quick; the defaults are the same code paths.
const OUTBOUND_MAX = 128 * 1024;
const QUEUE_MAX_OPS = 20;

describe('hostile: live socket bounds', () => {
  let t: TestApp;
  let base: string;
  let api: ApiClient;
  let admin: { accessToken: string; userId: string };
  let bob: { accessToken: string; userId: string };
  const open: LiveClient[] = [];

  before(async () => {
    t = await createTestApp({ liveOutboundMaxBytes: OUTBOUND_MAX, liveSheetQueueMaxOps: QUEUE_MAX_OPS });
    admin = await signupAdmin(t.app);
    bob = await signedInMember(t.app, 'user');
    api = apiClient(t.app, admin.accessToken);
    base = await listen(t.app);
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  const newSheet = async (): Promise<Sheet> => {
    const res = await api.post('/api/v1/sheets', { name: `Bounds ${Math.random().toString(36).slice(2, 8)}` });
    assert.equal(res.statusCode, 201, res.body);
    return SheetSchema.parse(res.json());
  };
  const stored = async (id: string): Promise<Sheet> => SheetSchema.parse((await api.get(`/api/v1/sheets/${id}`)).json());
  const join = async (sheetId: string, token: string, label: string) => {
    const c = await LiveClient.join(base, sheetId, token, { label });
    open.push(c);
    return c;
  };
  const cellOp = (sheetId: string, id: string, row: number, value: string | number) => ({
    type: 'operation',
    sheet_id: sheetId,
    operation: { id, type: 'cell_update', position: { row, column: 0 }, value },
  });
  const healthAnswers = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200, res.body);
  };

  it(`closes a socket that sends a frame over ${LIVE_MAX_FRAME_BYTES} bytes with 1009 and says why; nothing is stored`, async () => {
    const s = await newSheet();
    const c = await join(s.id, admin.accessToken, 'oversize');
    const changes = Array.from({ length: 40 }, (_, row) => ({ row, col: 0, value: 'x'.repeat(CELL_MAX_LENGTH) }));
    const frame = JSON.stringify({ type: 'operation', sheet_id: s.id, operation: { id: 'big', type: 'cells_update', changes } });
    assert.ok(Buffer.byteLength(frame) > LIVE_MAX_FRAME_BYTES);
    c.send(frame);
    assert.deepEqual(await c.closed, { code: LIVE_CLOSE.messageTooBig, reason: FRAME_TOO_LARGE_REASON });
    assert.equal(FRAME_TOO_LARGE_REASON, 'Frame too large: the limit is 1 MiB');
    assert.equal(c.frames.filter((f) => f.type === 'ack').length, 0);
    assert.equal((await stored(s.id)).version, s.version, 'nothing stored');
    await healthAnswers();
  });

  it('answers a frame that fails the schema with an error frame, keeps the socket, stores nothing', async () => {
    const s = await newSheet();
    const c = await join(s.id, admin.accessToken, 'invalid');
    c.send({ type: 'operation', sheet_id: s.id, operation: { id: 'bad', type: 'cell_update', position: { row: -1, column: 0 }, value: 'x' } });
    const error = await c.next('error');
    assert.equal(error.data.code, ERROR_CODES.validation);
    assert.equal(error.data.operation_id, 'bad');
    assert.match(error.data.message, /^Invalid frame: operation\.position\.row: /);
    // Only the AI may be named as a change's source (it marks the sheet's lastAIUpdate).
    c.send({ type: 'operation', sheet_id: s.id, operation: { id: 'forged', type: 'cells_update', source: 'x', changes: [{ row: 0, col: 0, value: 'forged' }] } });
    const forged = await c.next('error', (f) => f.data.operation_id === 'forged');
    assert.equal(forged.data.code, ERROR_CODES.validation);
    assert.match(forged.data.message, /^Invalid frame: operation\.source: /);
    c.send(cellOp(s.id, 'good', 0, 'ok'));
    assert.equal((await c.next('ack')).data.operation_id, 'good', 'the socket still works');
    const after = await stored(s.id);
    assert.equal(after.version, s.version + 1, 'only the valid operation');
    assert.equal(after.data[0]?.[0], 'ok');
    assert.equal(JSON.stringify(after.data).includes('forged'), false);
    await healthAnswers();
  });

  it(`refuses a sort by a column that is not there, in no known direction, with a forged order, nothing stored; past ${SORT_ORDER_SENT_MAX_ROWS} rows it sorts and sends no order`, async () => {
    const created = await api.post('/api/v1/sheets', { name: `Sort bounds ${Math.random().toString(36).slice(2, 8)}`, data: [['b'], ['a']] });
    assert.equal(created.statusCode, 201, created.body);
    const s = SheetSchema.parse(created.json());
    const c = await join(s.id, admin.accessToken, 'sorter');
    const sort = (id: string, operation: object) => c.send({ type: 'operation', sheet_id: s.id, operation: { id, type: 'rows_sort', ...operation } });
    const refusal = async (id: string) => (await c.next('error', (f) => f.data.operation_id === id)).data;
    for (const [id, operation, field] of [
      ['sideways', { column: 0, direction: 'sideways' }, 'direction'],
      ['negative', { column: -1, direction: 'asc' }, 'column'],
      ['past-max', { column: SHEET_MAX_COLUMNS, direction: 'asc' }, 'column'],
      ['forged-order', { column: 0, direction: 'asc', order: [1, 0] }, ''],
      ['undo-zero', { column: 0, direction: 'asc', undo: 0 }, 'undo'],
      ['undo-negative', { column: 0, direction: 'asc', undo: -3 }, 'undo'],
      ['undo-fraction', { column: 0, direction: 'asc', undo: 1.5 }, 'undo'],
      ['undo-text', { column: 0, direction: 'asc', undo: '1' }, 'undo'],
      ['undo-huge', { column: 0, direction: 'asc', undo: 2 ** 53 }, 'undo'],
    ] as const) {
      sort(id, operation);
      const error = await refusal(id);
      assert.equal(error.code, ERROR_CODES.validation, id);
      assert.match(error.message, new RegExp(`^Invalid frame: operation${field ? `\\.${field}` : ''}`), id);
    }
    sort('no-column', { column: 3, direction: 'asc' });
    assert.deepEqual(await refusal('no-column'), { code: ERROR_CODES.badRequest, message: SORT_TEXTS.noColumn(3, 1), operation_id: 'no-column' });
    assert.deepEqual((await stored(s.id)).data, [['b'], ['a']], 'nothing sorted');

    // Past SORT_ORDER_SENT_MAX_ROWS rows the sort is made (in a worker thread), and its frames carry no order (the clients read the sheet again).
    c.send({ type: 'operation', sheet_id: s.id, operation: { id: 'grow', type: 'rows_insert', index: 2, count: SORT_ORDER_SENT_MAX_ROWS - 1 } });
    const grown = (await c.next('ack', (f) => f.data.operation_id === 'grow')).data.version;
    const other = await join(s.id, admin.accessToken, 'watcher');
    sort('large', { column: 0, direction: 'asc', base_version: grown });
    const ack = (await c.next('ack', (f) => f.data.operation_id === 'large')).data;
    assert.equal(ack.version, grown + 1);
    assert.equal('order' in ack, false, 'no order in the ack');
    const seen = (await other.next('operation', (f) => f.data.operation.id === 'large')).data.operation;
    assert.deepEqual(seen, { id: 'large', type: 'rows_sort', column: 0, direction: 'asc', user_id: seen.user_id, timestamp: seen.timestamp });
    // An edit made before the sort (on 'a', row 1 then) lands on its row's new place: the logged, packed order read back.
    c.send({ type: 'operation', sheet_id: s.id, operation: { id: 'late', type: 'cell_update', position: { row: 1, column: 0 }, value: 'a edited', base_version: grown } });
    await c.next('ack', (f) => f.data.operation_id === 'late');
    const sorted = await stored(s.id);
    assert.equal(sorted.data.length, SORT_ORDER_SENT_MAX_ROWS + 1);
    assert.deepEqual(sorted.data.slice(0, 3), [['a edited'], ['b'], ['']]);
    // Its undo (in the worker too): the rows back in their order before it, the edit with its row.
    sort('large-undo', { column: 0, direction: 'asc', undo: grown + 1 });
    assert.equal('order' in (await c.next('ack', (f) => f.data.operation_id === 'large-undo')).data, false);
    assert.deepEqual((await stored(s.id)).data.slice(0, 3), [['b'], ['a edited'], ['']]);
    await healthAnswers();
  });

  it('refuses a clear with a negative, empty, huge, fractional or forged block, or one past the sheet; nothing stored', async () => {
    const created = await api.post('/api/v1/sheets', { name: `Clear bounds ${Math.random().toString(36).slice(2, 8)}`, data: [['a', 1], ['b', 2]] });
    assert.equal(created.statusCode, 201, created.body);
    const s = SheetSchema.parse(created.json());
    const c = await join(s.id, admin.accessToken, 'clearer');
    const clear = (id: string, operation: object) => c.send({ type: 'operation', sheet_id: s.id, operation: { id, type: 'cells_clear', ...operation } });
    const refusal = async (id: string) => (await c.next('error', (f) => f.data.operation_id === id)).data;
    const one = { start: 0, count: 1 };
    for (const [id, operation, field] of [
      ['negative', { rows: { start: -1, count: 1 }, columns: one }, 'rows.start'],
      ['empty', { rows: { start: 0, count: 0 }, columns: one }, 'rows.count'],
      ['huge', { rows: one, columns: { start: 0, count: 1e15 } }, 'columns.count'],
      ['past-limit', { rows: { start: SHEET_MAX_ROWS - 1, count: 2 }, columns: one }, 'rows'],
      ['fraction', { rows: { start: 0.5, count: 1 }, columns: one }, 'rows.start'],
      ['no-columns', { rows: one }, 'columns'],
      ['forged', { rows: { ...one, end: 5 }, columns: one }, 'rows'],
      ['forged-value', { rows: one, columns: one, value: 'x' }, ''],
    ] as const) {
      clear(id, operation);
      const error = await refusal(id);
      assert.equal(error.code, ERROR_CODES.validation, id);
      assert.match(error.message, new RegExp(`^Invalid frame: operation${field ? `\\.${field}` : ''}`), id);
    }
    clear('past-rows', { rows: { start: 1, count: 2 }, columns: one });
    assert.deepEqual(await refusal('past-rows'), { code: ERROR_CODES.badRequest, message: CLEAR_TEXTS.pastSheet(2, 2), operation_id: 'past-rows' });
    clear('past-columns', { rows: one, columns: { start: 0, count: 3 } });
    assert.deepEqual(await refusal('past-columns'), { code: ERROR_CODES.badRequest, message: CLEAR_TEXTS.pastSheet(2, 2), operation_id: 'past-columns' });
    const kept = await stored(s.id);
    assert.deepEqual([kept.data, kept.version], [[['a', 1], ['b', 2]], s.version], 'nothing stored');
    await healthAnswers();
  });

  it('a forged cells_clear_undo (values sent along, negative, huge or fractional versions, one past the sheet or of no clear) is refused and puts nothing back', async () => {
    const created = await api.post('/api/v1/sheets', { name: 'Undo bounds', data: [['a', 1], ['b', 2]] });
    assert.equal(created.statusCode, 201, created.body);
    const s = SheetSchema.parse(created.json());
    const c = await join(s.id, admin.accessToken, 'undoer');
    const send = (operation: object) => c.send({ type: 'operation', sheet_id: s.id, operation });
    const refusal = async (id: string) => (await c.next('error', (f) => f.data.operation_id === id)).data;
    send({ id: 'clear', type: 'cells_clear', rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } });
    const cleared = (await c.next('ack', (f) => f.data.operation_id === 'clear')).data.version;
    for (const [id, operation, field] of [
      ['negative', { undo: -1 }, 'undo'],
      ['zero', { undo: 0 }, 'undo'],
      ['fraction', { undo: 1.5 }, 'undo'],
      ['huge', { undo: 1e300 }, 'undo'],
      ['text', { undo: String(cleared) }, 'undo'],
      ['missing', {}, 'undo'],
      ['forged-values', { undo: cleared, values: [['x']] }, ''],
      ['forged-block', { undo: cleared, rows: { start: 0, count: 2 }, columns: { start: 1, count: 1 } }, ''],
    ] as const) {
      send({ id, type: 'cells_clear_undo', ...operation });
      const error = await refusal(id);
      assert.equal(error.code, ERROR_CODES.validation, id);
      assert.match(error.message, new RegExp(`^Invalid frame: operation${field ? `\\.${field}` : ''}`), id);
    }
    for (const undo of [cleared + 1, 2 ** 31 - 1, s.version]) {
      send({ id: `not-clear-${undo}`, type: 'cells_clear_undo', undo });
      assert.deepEqual(await refusal(`not-clear-${undo}`), { code: ERROR_CODES.badRequest, message: CLEAR_TEXTS.undoNotClear(undo), operation_id: `not-clear-${undo}` });
    }
    send({ id: 'base-ahead', type: 'cells_clear_undo', undo: cleared, base_version: cleared + 5 });
    assert.deepEqual(await refusal('base-ahead'), {
      code: ERROR_CODES.validation,
      message: `base_version ${cleared + 5} is ahead of the sheet (version ${cleared})`,
      operation_id: 'base-ahead',
    });
    const kept = await stored(s.id);
    assert.deepEqual([kept.data, kept.version], [[['a', null], ['b', null]], cleared], 'nothing put back');
    await healthAnswers();
  });

  it('a forged insert undoing a remove (values sent along, negative, huge, fractional or text versions, undo on a remove, one past the sheet, of no remove or of another count) is refused and puts nothing back', async () => {
    const created = await api.post('/api/v1/sheets', { name: 'Remove undo bounds', data: [['a', 1, 'x'], ['b', 2, 'y']] });
    assert.equal(created.statusCode, 201, created.body);
    const s = SheetSchema.parse(created.json());
    const c = await join(s.id, admin.accessToken, 'remover');
    const send = (operation: object) => c.send({ type: 'operation', sheet_id: s.id, operation });
    const refusal = async (id: string) => (await c.next('error', (f) => f.data.operation_id === id)).data;
    send({ id: 'remove', type: 'columns_remove', index: 1, count: 1 });
    const removed = (await c.next('ack', (f) => f.data.operation_id === 'remove')).data.version;
    const insert = { type: 'columns_insert', index: 1, count: 1 };
    for (const [id, operation, field] of [
      ['negative', { ...insert, undo: -1 }, 'undo'],
      ['zero', { ...insert, undo: 0 }, 'undo'],
      ['fraction', { ...insert, undo: 1.5 }, 'undo'],
      ['huge', { ...insert, undo: 1e300 }, 'undo'],
      ['text', { ...insert, undo: String(removed) }, 'undo'],
      ['forged-values', { ...insert, undo: removed, values: [[1], [2]] }, ''],
      ['on-a-remove', { type: 'columns_remove', index: 0, count: 1, undo: removed }, ''],
    ] as const) {
      send({ id, ...operation });
      const error = await refusal(id);
      assert.equal(error.code, ERROR_CODES.validation, id);
      assert.match(error.message, new RegExp(`^Invalid frame: operation${field ? `\\.${field}` : ''}`), id);
    }
    for (const [id, operation, undo] of [
      ['past', { ...insert }, removed + 1],
      ['far', { ...insert }, 2 ** 31 - 1],
      ['created', { ...insert }, s.version],
      ['other-count', { ...insert, count: 2 }, removed],
      ['other-axis', { type: 'rows_insert', index: 1, count: 1 }, removed],
    ] as const) {
      send({ id, ...operation, undo });
      assert.deepEqual(await refusal(id), { code: ERROR_CODES.badRequest, message: STRUCTURE_UNDO_TEXTS.notRemove(undo), operation_id: id });
    }
    const kept = await stored(s.id);
    assert.deepEqual([kept.data, kept.version], [[['a', 'x'], ['b', 'y']], removed], 'nothing put back');
    await healthAnswers();
  });

  it('closes a socket whose connect parameters are invalid (since, grid) with 1008 before any data; a grid frame of no known value changes nothing', async () => {
    const s = await newSheet();
    for (const query of ['since=-1', 'since=abc', 'grid=all', 'grid=WINDOWED', 'grid=', 'grid=windowed&grid=whole']) {
      const c = LiveClient.connect(base, `/sheets/${s.id}?token=${encodeURIComponent(admin.accessToken)}&${query}`, { label: query });
      assert.deepEqual(await c.closed, { code: LIVE_CLOSE.policyViolation, reason: 'Invalid connection parameters' }, query);
      assert.deepEqual(c.frames, [], `${query}: no data before the close`);
    }
    const c = await join(s.id, admin.accessToken, 'bad grid frame');
    c.send({ type: 'grid', sheet_id: s.id, grid: 'none' });
    const error = await c.next('error');
    assert.equal(error.data.code, ERROR_CODES.validation);
    assert.match(error.data.message, /^Invalid frame: grid: /);
    c.send({ type: 'grid', sheet_id: s.id, grid: 'windowed', rows: 1e9 });
    assert.match((await c.next('error')).data.message, /^Invalid frame: /);
    // Still a whole page: its sync has the cells.
    c.send({ type: 'reload_request', sheet_id: s.id });
    assert.deepEqual((await c.next('sync')).data.data, (await stored(s.id)).data);
    await healthAnswers();
  });

  it(`closes a socket that floods frames before its join with 1008 (${LIVE_PREJOIN_MAX_FRAMES} frames at most); none is applied`, async () => {
    const s = await newSheet();
    // The frames travel with the upgrade request itself, so they are there while the token is checked.
    const frames = Array.from({ length: LIVE_PREJOIN_MAX_FRAMES * 4 }, (_, i) => JSON.stringify(cellOp(s.id, `flood-${i}`, i, i)));
    const closed = await upgradeWithFrames(base, `/sheets/${s.id}?token=${encodeURIComponent(admin.accessToken)}`, frames);
    assert.deepEqual(closed, { code: LIVE_CLOSE.policyViolation, reason: LIVE_TEXTS.tooManyBeforeJoin, frames: 0 });
    assert.equal((await stored(s.id)).version, s.version, 'nothing stored');
    // A client within the bound is served: its frames are applied after the join, in order.
    const few = Array.from({ length: 3 }, (_, i) => JSON.stringify(cellOp(s.id, `few-${i}`, i, i)));
    const served = await upgradeWithFrames(base, `/sheets/${s.id}?token=${encodeURIComponent(admin.accessToken)}`, few, 2 + few.length);
    assert.equal(served.frames, 2 + few.length, 'presence and access, then an ack per frame');
    assert.equal((await stored(s.id)).version, s.version + few.length);
    await healthAnswers();
  });

  it('closes a reader that never reads with 4408 once it holds more than the outbound bound; the writer loses nothing', async () => {
    const s = await newSheet();
    const writer = await join(s.id, admin.accessToken, 'writer');
    const slow = await join(s.id, bob.accessToken, 'slow reader');
    await writer.next('user_joined', (f) => f.data.user_id === bob.userId);
    // A sheet of about 1 MiB: every sync of it weighs that much.
    const big = 'y'.repeat(CELL_MAX_LENGTH);
    for (let k = 0; k < 4; k++) {
      const changes = Array.from({ length: 8 }, (_, col) => ({ row: k, col, value: big }));
      writer.send({ type: 'operation', sheet_id: s.id, operation: { id: `fill-${k}`, type: 'cells_update', changes } });
      await writer.next('ack', (f) => f.data.operation_id === `fill-${k}`);
    }
    // The slow client's TCP socket stops reading: what the api sends piles up in its buffers.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const bobLeft = () => writer.frames.some((f) => f.type === 'user_left' && f.data.user_id === bob.userId);
    // Each reload request sends the whole sheet to every socket. A hang guard, not a timing: at
    // most this many (far past any kernel buffers).
    for (let round = 0; round < 200 && !bobLeft(); round++) {
      writer.send({ type: 'reload_request', sheet_id: s.id });
      await writer.next('sync');
    }
    await writer.waitFor((frames) => (frames.some((f) => f.type === 'user_left' && f.data.user_id === bob.userId) ? true : undefined), 'the slow reader leaving');
    // Its client reads again: it gets what was buffered, then the close with its code and text.
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    assert.deepEqual(await slow.closed, { code: LIVE_CLOSE.tooFarBehind, reason: LIVE_TEXTS.tooFarBehind });
    assert.equal((await stored(s.id)).version, s.version + 4, 'the writer’s operations are stored, nothing else');
    // The writer goes on.
    writer.send(cellOp(s.id, 'after', 9, 'after'));
    assert.equal((await writer.next('ack', (f) => f.data.operation_id === 'after')).data.version, s.version + 5);
    // The slow client reconnects with ?since= and catches up.
    const back = await LiveClient.join(base, s.id, bob.accessToken, { since: s.version + 4, label: 'slow reader again' });
    open.push(back);
    const caughtUp = await back.next('operation');
    assert.equal(caughtUp.data.version, s.version + 5);
    await healthAnswers();
  });

  it(`refuses operations past ${QUEUE_MAX_OPS} waiting for the sheet with 'The sheet is busy'; those are not applied`, async () => {
    const s = await newSheet();
    const c = await join(s.id, admin.accessToken, 'batch flood');
    const total = 600;
    // One burst: the frames of a TCP chunk are read before the first commit ends.
    for (let i = 0; i < total; i++) c.send(cellOp(s.id, `q-${i}`, i, i));
    await c.waitFor((frames) => (frames.filter((f) => f.type === 'ack' || f.type === 'error').length >= total ? true : undefined), 'an answer to every operation');
    const busy = c.frames.filter((f) => f.type === 'error');
    const acked = c.frames.filter((f) => f.type === 'ack');
    assert.ok(busy.length > 0, 'some were refused');
    for (const e of busy) {
      assert.equal(e.type === 'error' && e.data.message, LIVE_TEXTS.sheetBusy);
      assert.equal(e.type === 'error' && e.data.code, ERROR_CODES.tooManyRequests);
    }
    const after = await stored(s.id);
    assert.equal(after.version, s.version + acked.length, 'one version per accepted operation, none for the refused');
    const refusedRows = busy.map((e) => (e.type === 'error' ? Number(e.data.operation_id?.slice(2)) : -1));
    for (const row of refusedRows) assert.ok(after.data[row]?.[0] === undefined || after.data[row][0] === '' || after.data[row][0] === null, `row ${row} not written`);
    await healthAnswers();
  });
});

/** A client text frame (masked, as RFC 6455 requires of clients). */
function maskedFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = crypto.randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : len < 65_536 ? Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]) : null;
  if (!head) throw new Error('frame too long for this helper');
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i] ^ mask[i % 4];
  return Buffer.concat([head, mask, body]);
}

/**
 * Opens a socket with `frames` sent in the same TCP write as the upgrade request, and reads what
 * the server sends: the count of data frames and the close (code, reason), or stops after
 * `stopAfter` data frames (then code 0).
 */
function upgradeWithFrames(base: string, path: string, frames: string[], stopAfter = Infinity): Promise<{ code: number; reason: string; frames: number }> {
  const { hostname, port } = new URL(base.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let count = 0;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close after ${count} frames`));
    }, 20_000);
    const done = (result: { code: number; reason: string; frames: number }) => {
      clearTimeout(guard);
      socket.destroy();
      resolve(result);
    };
    socket.on('connect', () => {
      const request = [
        `GET ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n');
      socket.write(Buffer.concat([Buffer.from(request), ...frames.map(maskedFrame)]));
    });
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = buffer.subarray(0, buffer.indexOf('\r\n')).toString();
        if (!status.includes(' 101 ')) return done({ code: -1, reason: status, frames: count });
        upgraded = true;
        buffer = buffer.subarray(end + 4);
      }
      // Server frames are unmasked: opcode, length (7 bits, or 16 / 64 bits), payload.
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = buffer[0] & 0x0f;
        let len = buffer[1] & 0x7f;
        let offset = 2;
        if (len === 126) {
          if (buffer.length < 4) return;
          len = buffer.readUInt16BE(2);
          offset = 4;
        } else if (len === 127) {
          if (buffer.length < 10) return;
          len = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + len) return;
        const payload = buffer.subarray(offset, offset + len);
        buffer = buffer.subarray(offset + len);
        if (opcode === 0x8) return done({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8'), frames: count });
        if (opcode === 0x1) {
          const message: unknown = JSON.parse(payload.toString('utf8'));
          count += Array.isArray(message) ? message.length : 1;
          if (count >= stopAfter) return done({ code: 0, reason: '', frames: count });
        }
      }
    });
  });
}
