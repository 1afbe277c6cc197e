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
