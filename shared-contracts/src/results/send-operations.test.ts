import type { LiveOperationInput, LiveServerFrame, ShellLive } from '../index.js';
import { sendOperations } from './send-operations.js';

/** A socket whose frames the test delivers by hand. */
function socket() {
  const listeners = new Set<(frame: LiveServerFrame) => void>();
  const log: string[] = [];
  const live: Pick<ShellLive, 'send' | 'subscribe'> = {
    send: (op) => void log.push(`send ${op.id}`),
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  };
  const deliver = (frame: LiveServerFrame) => listeners.forEach((l) => l(frame));
  const ack = (id: string) => deliver({ type: 'ack', data: { sheet_id: 's', operation_id: id, version: 1, timestamp: '' } });
  return { live, log, deliver, ack, listening: () => listeners.size };
}

const ops = [
  { id: 'a', type: 'rows_insert' as const, index: 3, count: 1 },
  { id: 'b', type: 'cells_update' as const, changes: [{ row: 3, col: 0, value: 'x' }] },
];

test('resolves once the last of its operations is acknowledged, and stops listening', async () => {
  const s = socket();
  let done = false;
  const sent = sendOperations(s.live, ops).then((r) => ((done = true), r));
  expect(s.log).toEqual(['send a', 'send b']);
  s.ack('someone-else');
  s.ack('a');
  await Promise.resolve();
  expect(done).toBe(false);
  s.ack('b');
  await expect(sent).resolves.toEqual({ refused: null });
  expect(s.listening()).toBe(0);
});

test('an error for one of them ends the wait at once with its message', async () => {
  const s = socket();
  const sent = sendOperations(s.live, ops);
  s.deliver({ type: 'error', data: { code: 'bad_request', message: 'Row out of range', operation_id: 'a' } });
  await expect(sent).resolves.toEqual({ refused: 'Row out of range' });
  expect(s.listening()).toBe(0);
});

test('nothing to send sends nothing and listens to nothing', async () => {
  const s = socket();
  await expect(sendOperations(s.live, [])).resolves.toEqual({ refused: null });
  expect(s.log).toEqual([]);
  expect(s.listening()).toBe(0);
});

test('with the base version: every operation carries it, and those after an own row insert wait for its ack and move through rows others inserted first', async () => {
  const s = socket();
  const sent: LiveOperationInput[] = [];
  s.live.send = (op) => void sent.push(op);
  const result = sendOperations(
    s.live,
    [
      { id: 'ins', type: 'rows_insert', index: 3, count: 1 },
      { id: 'cells', type: 'cells_update', changes: [{ row: 3, col: 0, value: 'new row' }, { row: 0, col: 1, value: 'top' }] },
    ],
    5,
  );
  // The cells were made on the grid with the inserted row: they wait for it.
  expect(sent).toEqual([{ id: 'ins', type: 'rows_insert', index: 3, count: 1, base_version: 5 }]);
  // Someone inserts two rows at the top first (version 6); the server puts our insert after it (version 7).
  s.deliver({ type: 'operation', data: { sheet_id: 's', version: 6, operation: { id: 'theirs', type: 'rows_insert', index: 0, count: 2, user_id: 'u2', timestamp: '' } } });
  s.deliver({ type: 'ack', data: { sheet_id: 's', operation_id: 'ins', version: 7, timestamp: '' } });
  expect(sent[1]).toEqual({
    id: 'cells',
    type: 'cells_update',
    changes: [
      { row: 5, col: 0, value: 'new row' },
      { row: 2, col: 1, value: 'top' },
    ],
    base_version: 7,
  });
  s.deliver({ type: 'ack', data: { sheet_id: 's', operation_id: 'cells', version: 8, timestamp: '' } });
  await expect(result).resolves.toEqual({ refused: null });
  expect(s.listening()).toBe(0);
});

test('with the base version, cell operations alone go at once, each with it', () => {
  const s = socket();
  const sent: LiveOperationInput[] = [];
  s.live.send = (op) => void sent.push(op);
  void sendOperations(
    s.live,
    [
      { id: 'c1', type: 'cells_update', changes: [{ row: 1, col: 0, value: 1 }] },
      { id: 'c2', type: 'cell_update', position: { row: 2, column: 0 }, value: 2 },
    ],
    9,
  );
  expect(sent.map((op) => [op.id, op.base_version])).toEqual([
    ['c1', 9],
    ['c2', 9],
  ]);
});
