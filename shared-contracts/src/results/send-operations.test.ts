import type { LiveServerFrame, ShellLive } from '../index.js';
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
