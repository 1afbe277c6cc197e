// A live socket on a sheet as a bench uses it: structural operations and cell edits sent as
// operation frames, each resolving with its ack (the ack comes after the commit).
import { requireFromApi } from './built-api.mjs';
import { createRequire } from 'node:module';

const { WebSocket } = createRequire(requireFromApi.resolve('@fastify/websocket'))('ws');

export /** One socket on the sheet; `op` sends a structural operation and resolves with its ack's time. */
async function liveClient(base, sheetId, token, since) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/sheets/${sheetId}?token=${encodeURIComponent(token)}&since=${since}`);
  const waiting = new Map();
  let joined;
  const ready = new Promise((resolve, reject) => {
    joined = resolve;
    ws.once('error', reject);
  });
  ws.on('message', (data) => {
    const message = JSON.parse(data);
    for (const f of Array.isArray(message) ? message : [message]) {
      if (f.type === 'presence') joined();
      if (f.type === 'ack' || f.type === 'error') {
        const w = waiting.get(f.data.operation_id);
        if (!w) continue;
        waiting.delete(f.data.operation_id);
        if (f.type === 'error') w.reject(new Error(`operation refused: ${JSON.stringify(f.data)}`));
        else w.resolve({ at: performance.now(), version: f.data.version });
      }
    }
  });
  await ready;
  let n = 0;
  return {
    op(type, index, count = 1) {
      const id = `bench-${++n}`;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ type: 'operation', sheet_id: sheetId, operation: { id, type, index, count } }));
      });
    },
    /** One cell over the socket; resolves with the send → ack time. */
    cell(row, column, value) {
      const id = `bench-${++n}`;
      const t0 = performance.now();
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: ({ at }) => resolve(at - t0), reject });
        ws.send(JSON.stringify({ type: 'operation', sheet_id: sheetId, operation: { id, type: 'cell_update', position: { row, column }, value } }));
      });
    },
    async timed(type, index, count = 1) {
      const t0 = performance.now();
      const { at, version } = await this.op(type, index, count);
      return { time: at - t0, version };
    },
    close: () => ws.close(),
  };
}
