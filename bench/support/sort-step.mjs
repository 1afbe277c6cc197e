// A live sort as a bench measures it (bench/sort.mjs, bench/million-rows.mjs MILLION_SORT): sent on
// a socket of its own (a windowed page's), timed from the send to its ack, while /health is asked
// every 10 ms with a path no route serves — the longest answer is about the longest time the api's
// event loop was held — and /health (its SELECT 1 waits for the database: on PGlite, held by the
// sort's transaction, every other sheet's live operations wait as long) — and the api's CPU time and peak resident size read.
// Also what the op log keeps of its order: the order computed here with the same contracts functions
// the api uses (sortOrder on the sorted column's cells, packOrder), beside its JSON.
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { requireFromApi, root } from './built-api.mjs';
import { cpuMs, statusKb } from './proc-stats.mjs';

const { WebSocket } = createRequire(requireFromApi.resolve('@fastify/websocket'))('ws');
const contracts = await import(pathToFileURL(path.join(root, 'shared-contracts/dist/index.js')).href);

/** Sorts sheet `sheetId` by `column` in `direction` (`undo`: undoes the sort of that version instead) over a live socket of `apiBase` (the api itself, for /health); resolves with the figures. */
export function timedSort({ apiBase, token, sheetId, column, direction, undo, apiPid, onAck = () => {} }) {
  return timedOperation({ apiBase, token, sheetId, apiPid, onAck, operation: { type: 'rows_sort', column, direction, ...(undo ? { undo } : {}) } });
}

/** Any live operation (without its id) sent as timedSort sends a sort, with the same figures. */
export async function timedOperation({ apiBase, token, sheetId, operation, apiPid, onAck = () => {} }) {
  const ws = new WebSocket(`${apiBase.replace(/^http/, 'ws')}/sheets/${sheetId}?grid=windowed`, ['tessera.bearer', token]);
  await new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data);
      for (const f of Array.isArray(message) ? message : [message]) if (f.type === 'presence') resolve();
    });
    ws.once('error', reject);
  });
  const asking = askWhile(apiBase);
  const cpu0 = cpuMs(apiPid);
  const t0 = performance.now();
  const opId = `bench-${operation.type}-${Math.random().toString(36).slice(2)}`;
  const ack = await new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data);
      for (const f of Array.isArray(message) ? message : [message]) {
        if (f.type === 'ack' && f.data.operation_id === opId) resolve({ ms: performance.now() - t0, frameBytes: Buffer.byteLength(JSON.stringify(f)), version: f.data.version });
        if (f.type === 'error' && f.data.operation_id === opId) reject(new Error(`${operation.type} refused: ${f.data.message}`));
      }
    });
    ws.send(JSON.stringify({ type: 'operation', sheet_id: sheetId, operation: { id: opId, ...operation } }));
  });
  onAck(ack);
  const longest = await asking.stop();
  ws.close();
  return { ...ack, longestLoopMs: longest.loop, longestHealthMs: longest.db, apiCpuMs: cpuMs(apiPid) - cpu0, apiPeakKb: statusKb(apiPid, 'VmHWM') };
}

/**
 * Two askers every 10 ms until `stop()`: a path no route serves (a 404 answered without the database: the event loop
 * alone) and /health (SELECT 1: the database too); `stop()` resolves with the longest answer of each (ms).
 */
export function askWhile(apiBase) {
  const longest = { loop: 0, db: 0 };
  let polling = true;
  const poll = async (path, key) => {
    while (polling) {
      const t = performance.now();
      await fetch(`${apiBase}${path}`).then((r) => r.arrayBuffer()).catch(() => undefined);
      longest[key] = Math.max(longest[key], performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const poller = Promise.all([poll('/bench-no-such-path', 'loop'), poll('/health', 'db')]);
  return {
    stop: async () => {
      polling = false;
      await poller;
      return longest;
    },
  };
}

/** What the op log holds of a sort of `cells` (the sorted column, in row order): the packed order's and its JSON's size. */
export function loggedOrderBytes(cells, direction) {
  const order = contracts.sortOrder(cells.map((c) => [c]), 0, direction);
  return { packed: contracts.packOrder ? contracts.packOrder(order).length : null, json: JSON.stringify(order).length };
}
