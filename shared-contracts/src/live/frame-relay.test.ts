import type { LiveServerFrame } from './live.schema.js';
import { LiveFrameRelay } from './frame-relay.js';

const ack = (id: string, version: number): LiveServerFrame => ({ type: 'ack', data: { sheet_id: 's1', operation_id: id, version, timestamp: 't' } });
const remote = (version: number): LiveServerFrame => ({
  type: 'operation',
  data: { sheet_id: 's1', version, operation: { id: `r${version}`, type: 'cell_update', position: { row: 0, column: 0 }, value: version, user_id: 'u2', timestamp: 't' } },
});
const describeFrame = (f: LiveServerFrame) => (f.type === 'operation' ? `op v${f.data.version} ${f.data.operation.id} by ${f.data.operation.user_id}` : f.type);

function relayWithLog() {
  const relay = new LiveFrameRelay('u1');
  const log: string[] = [];
  relay.subscribe((f) => log.push(describeFrame(f)));
  return { relay, log };
}

test("an operation a remote sent is told to every subscriber once acknowledged, as the user's operation at the ack's version", () => {
  const { relay, log } = relayWithLog();
  relay.sent({ id: 'mine', type: 'cell_update', position: { row: 1, column: 1 }, value: 'x' });
  relay.receive(ack('other-socket-op', 4), 's1');
  relay.receive(ack('mine', 5), 's1');
  relay.receive(ack('mine', 5), 's1');
  expect(log).toEqual(['ack', 'ack', 'op v5 mine by u1', 'ack']);
});

test('a refused operation is never told as applied', () => {
  const { relay, log } = relayWithLog();
  relay.sent({ id: 'bad', type: 'rows_remove', index: 9, count: 1 });
  relay.receive({ type: 'error', data: { code: 'validation_failed', message: 'out of range', operation_id: 'bad' } }, 's1');
  relay.receive(ack('bad', 3), 's1');
  expect(log).toEqual(['error', 'ack']);
});

test('while paused frames are kept and told in order on resume; nothing is lost', () => {
  const { relay, log } = relayWithLog();
  relay.pause();
  expect(relay.paused).toBe(true);
  relay.sent({ id: 'mine', type: 'cell_update', position: { row: 0, column: 1 }, value: 1 });
  relay.receive(remote(2), 's1');
  relay.receive(ack('mine', 3), 's1');
  relay.receive(remote(4), 's1');
  expect(log).toEqual([]);
  relay.resume();
  expect(log).toEqual(['op v2 r2 by u2', 'ack', 'op v3 mine by u1', 'op v4 r4 by u2']);
  relay.receive(remote(5), 's1');
  expect(log.at(-1)).toBe('op v5 r5 by u2');
});

test('another sheet drops what was kept for the previous one and ends the pause', () => {
  const { relay, log } = relayWithLog();
  relay.pause();
  relay.receive(remote(2), 's1');
  relay.reset();
  expect(relay.paused).toBe(false);
  relay.resume();
  expect(log).toEqual([]);
});

test('an operation sent with its base version is echoed where the server put it: moved through the rows inserted since', () => {
  const relay = new LiveFrameRelay('u1');
  const told: LiveServerFrame[] = [];
  relay.subscribe((f) => told.push(f));
  relay.receive(remote(4), 's1');
  relay.sent({ id: 'ai', type: 'cells_update', changes: [{ row: 2, col: 1, value: 'x' }], base_version: 4 });
  // Someone inserted a row at the top (version 5) before the server took the result (version 6).
  relay.receive({ type: 'operation', data: { sheet_id: 's1', version: 5, operation: { id: 'ins', type: 'rows_insert', index: 0, count: 1, user_id: 'u2', timestamp: 't' } } }, 's1');
  relay.receive(ack('ai', 6), 's1');
  const echo = told.at(-1)!;
  expect(echo).toEqual({
    type: 'operation',
    data: { sheet_id: 's1', version: 6, operation: { id: 'ai', type: 'cells_update', changes: [{ row: 3, col: 1, value: 'x' }], user_id: 'u1', timestamp: 't' } },
  });
});
