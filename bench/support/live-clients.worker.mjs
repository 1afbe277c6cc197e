// A share of bench/live.mjs's clients, in a worker thread: real clients each have their own CPU, and
// one thread handling 200 sockets' messages one after another delayed the later sockets' receipt
// times by the earlier ones' parsing (at 1,000 ops/s the single thread took over half a core and
// fell behind on a loaded machine, and its delay was counted as the server's).
// Clients i with i % threads === w live here; operation `seq` is sent by client seq % clients,
// `value: seq`; the first `warm` operations are the warm-up (their deliveries kept apart). Send times and receipt counts are shared with the other threads (SharedArrayBuffers
// indexed by seq; times from performance.timeOrigin, the same clock in every thread).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { Histogram } from './latency-histogram.mjs';

const { w, threads, bases, sheets, token, clients: CLIENTS, rate, total, warm, rows, cols, sentAt, seen, versions, wsFrom } = workerData;
/** Client i is on sheet i % sheets.length; an operation reaches the others of its sheet. */
const PER_SHEET = CLIENTS / sheets.length;
const { WebSocket } = createRequire(wsFrom)('ws');
const now = () => performance.timeOrigin + performance.now();

const perDelivery = new Histogram();
const untilAll = new Histogram();
const firstReceipt = new Histogram();
/** Deliveries of the warm-up's operations (seq < warm): not in the figures. */
const warmDelivery = new Histogram();
let outOfOrder = 0;
let errors = 0;

function applyCell(g, row, col, value) {
  while (g.length <= row) g.push([]);
  const r = g[row];
  while (r.length < col) r.push('');
  r[col] = value;
}

/**
 * The frames of a message, parsed once for the clients of this thread that get the same bytes (all
 * but the sender of an operation get the same message): a real client parses its message on its own
 * CPU, so 200 clients parsing one after another on one core counted 199 parses' delay against the
 * server. Each client still applies every frame to its own replica. Frames are only read, never changed.
 */
let lastData;
let lastFrames;
function framesOf(data) {
  if (lastData && data.length === lastData.length && data.equals(lastData)) return lastFrames;
  const message = JSON.parse(data);
  lastData = data;
  lastFrames = Array.isArray(message) ? message : [message];
  return lastFrames;
}

const mine = [];
const connect = (i) =>
  new Promise((resolve, reject) => {
    const base = bases[i % bases.length].replace(/^http/, 'ws');
    const sheet = sheets[i % sheets.length];
    const ws = new WebSocket(`${base}/sheets/${sheet.id}?token=${encodeURIComponent(token)}&since=${sheet.v0}`);
    const c = { i, s: i % sheets.length, ws, version: sheet.v0, grid: structuredClone(sheet.grid), mine: new Map(), acked: 0 };
    const onFrame = (f, at) => {
      if (f.type === 'presence') return resolve(c);
      if (f.type === 'error') errors += 1;
      if (f.type !== 'operation' && f.type !== 'ack') return;
      if (f.data.version !== c.version + 1) outOfOrder += 1;
      c.version = f.data.version;
      Atomics.store(versions, c.i, c.version);
      if (f.type === 'ack') {
        const [row, col, value] = c.mine.get(f.data.operation_id);
        c.mine.delete(f.data.operation_id);
        applyCell(c.grid, row, col, value);
        c.acked += 1;
        return;
      }
      const op = f.data.operation;
      applyCell(c.grid, op.position.row, op.position.column, op.value);
      const seq = op.value;
      const t0 = sentAt[seq];
      const latency = at - t0;
      if (seq < warm) {
        warmDelivery.add(latency);
        return;
      }
      perDelivery.add(latency);
      const count = Atomics.add(seen, seq, 1) + 1;
      if (count === 1) firstReceipt.add(latency);
      if (count === PER_SHEET - 1) untilAll.add(latency);
    };
    ws.on('message', (data) => {
      const at = now();
      // Frames of one server tick come as one message holding an array of frames.
      for (const f of framesOf(data)) onFrame(f, at);
    });
    ws.once('error', reject);
    mine.push(c);
  });

const ids = [];
for (let i = w; i < CLIENTS; i += threads) ids.push(i);
// In batches, so that the joins do not all queue at once.
for (let k = 0; k < ids.length; k += 20) await Promise.all(ids.slice(k, k + 20).map(connect));
const byIndex = new Map(mine.map((c) => [c.i, c]));

parentPort.on('message', async (message) => {
  if (message.type === 'go') {
    const started = message.at;
    let next = 0;
    const timer = setInterval(() => {
      const due = Math.min(Math.floor(((now() - started) * rate) / 1000), total);
      for (; next < due; next++) {
        const c = byIndex.get(next % CLIENTS);
        if (!c) continue;
        const id = `b${c.i}-${next}`;
        const row = Math.floor(Math.random() * rows);
        const col = Math.floor(Math.random() * cols);
        c.mine.set(id, [row, col, next]);
        sentAt[next] = now();
        c.ws.send(JSON.stringify({ type: 'operation', sheet_id: sheets[c.s].id, operation: { id, type: 'cell_update', position: { row, column: col }, value: next } }));
      }
      if (next >= total) {
        clearInterval(timer);
        parentPort.postMessage({ type: 'sent' });
      }
    }, 5);
  } else if (message.type === 'finish') {
    const identical = mine.filter((c) => JSON.stringify(c.grid) === message.truths[c.s]).length;
    const acked = mine.reduce((s, c) => s + c.acked, 0);
    for (const c of mine) c.ws.close();
    parentPort.postMessage({ type: 'result', warmDelivery, perDelivery, untilAll, firstReceipt, outOfOrder, errors, identical, acked });
  }
});
parentPort.postMessage({ type: 'ready' });
