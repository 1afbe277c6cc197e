// The peer of bench/live.mjs (issue 23): the same load against @hocuspocus/server 3.4.4 (the newest
// that runs on Node 20), in memory, in a child process of its own (so its CPU is its own), with
// bare-socket clients: each sends its edits as Yjs updates made by its own Y.Doc (a cell = a key of
// one Y.Map, prefixed by the client: two clients' concurrent writes of one key would leave the
// loser's value out of the update Hocuspocus relays), and recognises an edit it receives by a
// marker in the update's bytes, without applying it — the clients must not be the bottleneck.
// Hocuspocus relays an update to its sender too: a client ignores its own. Hocuspocus acknowledges nothing and
// stores nothing here: it is the lower bound of what a relay costs.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireBench = createRequire(path.join(benchDir, 'package.json'));
const Y = requireBench('yjs');
const encoding = requireBench('lib0/encoding');
const decoding = requireBench('lib0/decoding');
const { WebSocket } = requireBench('ws');

const DOCUMENT = 'bench-sheet';
// Hocuspocus' message types (@hocuspocus/common) and y-protocols' sync steps.
const SYNC = 0;
const AUTH = 2;
const SYNC_STEP_1 = 0;
const SYNC_UPDATE = 2;
const AUTH_TOKEN = 0;
const MARKER = '#op';

/** Starts Hocuspocus on `port` in a child process; resolves when it listens. */
export function startHocuspocus(port) {
  const script = `
    const { Server } = require(${JSON.stringify(requireBench.resolve('@hocuspocus/server'))});
    const server = new Server({ port: ${port}, address: '127.0.0.1', quiet: true });
    server.listen().then(() => process.stdout.write('listening\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      if (String(d).includes('listening')) resolve({ pid: child.pid, url: `ws://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`hocuspocus exited (${code})`)));
  });
}

const message = (type, write) => {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, DOCUMENT);
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
};

/**
 * One bare-socket client: authenticates (an empty token: no auth extension), syncs once, then
 * sends its own edits and reports the markers of the edits it receives.
 */
function connect(url, index, count, onEdit) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.binaryType = 'nodebuffer';
    const doc = new Y.Doc();
    const cells = doc.getMap('cells');
    let pending = null;
    doc.on('update', (update) => (pending = update));
    const client = {
      ws,
      send(key, value) {
        cells.set(`${index}:${key}`, value);
        ws.send(message(SYNC, (e) => (encoding.writeVarUint(e, SYNC_UPDATE), encoding.writeVarUint8Array(e, pending))));
      },
    };
    ws.on('open', () => {
      ws.send(message(AUTH, (e) => (encoding.writeVarUint(e, AUTH_TOKEN), encoding.writeVarString(e, ''))));
      ws.send(message(SYNC, (e) => (encoding.writeVarUint(e, SYNC_STEP_1), encoding.writeVarUint8Array(e, Y.encodeStateVector(doc)))));
    });
    let synced = false;
    ws.on('message', (data) => {
      const now = performance.now();
      if (!synced) {
        // The first sync frame from the server (its step 2 or step 1) says the document is open.
        const d = decoding.createDecoder(data);
        decoding.readVarString(d);
        if (decoding.readVarUint(d) === SYNC) {
          synced = true;
          resolve(client);
        }
        return;
      }
      for (let at = data.indexOf(MARKER); at >= 0; at = data.indexOf(MARKER, at + 1)) {
        const id = Number(data.toString('latin1', at + MARKER.length, at + MARKER.length + 9));
        if (id % count !== index) onEdit(id, now);
      }
    });
    ws.once('error', reject);
  });
}

/** The load of live.mjs against Hocuspocus: returns the same figures (deliveries, until all, CPU). */
export async function hocuspocusScenario({ url, pid, clients: count, rate, seconds, warmupSeconds = 0, rows, cols, Histogram, cpuSeconds }) {
  const perDelivery = new Histogram();
  const untilAll = new Histogram();
  const sentAt = new Map();
  const seenBy = new Map();
  // The warm-up's edits (as live.mjs's): sent and delivered, left out of the figures.
  const warm = rate * warmupSeconds;
  let warmDeliveries = 0;
  const onEdit = (id, now) => {
    if (id < warm) {
      warmDeliveries += 1;
      return;
    }
    const t0 = sentAt.get(id);
    if (t0 === undefined) return;
    perDelivery.add(now - t0);
    const seen = (seenBy.get(id) ?? 0) + 1;
    seenBy.set(id, seen);
    if (seen === count - 1) {
      untilAll.add(now - t0);
      seenBy.delete(id);
      sentAt.delete(id);
    }
  };
  const clients = [];
  for (let i = 0; i < count; i += 20) clients.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, k) => connect(url, i + k, count, onEdit)))));

  let cpuBefore = cpuSeconds(pid);
  let sent = 0;
  const total = warm + rate * seconds;
  const started = performance.now();
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(Math.floor(((performance.now() - started) * rate) / 1000), total);
      while (sent < due) {
        if (sent === warm && warm > 0) cpuBefore = cpuSeconds(pid);
        const row = Math.floor(Math.random() * rows);
        const col = Math.floor(Math.random() * cols);
        sentAt.set(sent, performance.now());
        clients[sent % count].send(`r${row}c${col}`, `${MARKER}${String(sent).padStart(9, '0')}`);
        sent += 1;
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const sendSeconds = (performance.now() - started) / 1000;
  // Drain: until every edit reached every other client, or nothing moved for 60 s.
  const drainStart = performance.now();
  let last = -1;
  let lastAt = drainStart;
  while (perDelivery.n + warmDeliveries < sent * (count - 1)) {
    if (perDelivery.n !== last) [last, lastAt] = [perDelivery.n, performance.now()];
    else if (performance.now() - lastAt > 60_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  for (const c of clients) c.ws.close();
  return { sent, measured: sent - warm, sendSeconds, drainSeconds, perDelivery, untilAll, missing: sent * (count - 1) - perDelivery.n - warmDeliveries, cpu };
}
