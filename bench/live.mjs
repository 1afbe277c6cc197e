// Figures of issue 4 (live collaboration): 200 clients on one sheet, 1,000 cell operations a second
// in total for 30 s, on loopback. Prints p50 / p99 from send to receipt by each other client (and
// until the last of them got it), operations lost (must be 0) and whether every client's replica
// equals the server's sheet at the end. Then the same across two api instances behind one Redis.
//
// Runs the built api (`npm run build`; node api/dist/index.js) in child
// processes on 127.0.0.1 ports 3900-3999. One instance: on PostgreSQL when BENCH_PG_URL (an admin
// URL) is set, else on PGlite. Two instances need BENCH_PG_URL (PGlite is one process's database)
// and a Redis: BENCH_REDIS_URL, or a redis-server started here (Debian's package) on port 6391.
// Then the same load against the peer, Hocuspocus (BENCH_LIVE_PEER=0 leaves it out), and the figures side by side.
// BENCH_LIVE_CLIENTS, BENCH_LIVE_RATE (ops/s), BENCH_LIVE_SECONDS change the load; BENCH_LIVE_ONLY=one|two|peer.
// BENCH_LIVE_SHEETS=N (default 1; must divide the clients): the clients spread over N sheets (client i on sheet i % N), the
// rate shared by them: many sheets each edited slowly, as a team's day looks, instead of one busy sheet. The peer runs one document.
// The clients run in worker threads (bench/support/live-clients.worker.mjs), on the upper half of the
// cores and the server under test on the lower half with BENCH_LIVE_PIN=1; BENCH_LIVE_CLIENT_THREADS
// (default: one per client core when pinned, else one).
// BENCH_LIVE_WARMUP_SECONDS (default 3): the load's first seconds, sent, delivered and checked, left out of the figures (printed apart).
// BENCH_LIVE_IDLE_SECONDS: before the ops, the api's CPU for that long with the clients connected and idle (its fixed cost per second),
// then printed per op at the rate and taken off the ops' CPU; the CPU is split into user and system (kernel: socket writes) time.
// BENCH_PORT_BASE: the ports from it instead (api +0, two apis +10, peer +90, Redis +91), for a machine that gives a run a narrow range.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { benchSession, requireFromApi } from './support/built-api.mjs';
import { benchDatabase, startApis } from './support/api-instances.mjs';
import { redisAvailable, startRedis } from '../scripts/lib/redis.mjs';
import { hocuspocusScenario, startHocuspocus } from './support/hocuspocus-peer.mjs';
import { Histogram } from './support/latency-histogram.mjs';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 200);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const IDLE_SECONDS = Number(process.env.BENCH_LIVE_IDLE_SECONDS ?? 0);
/** The first seconds of the load are sent and checked but left out of the figures: a steady state is measured, not the api's JIT warm-up (its p99 is printed apart). */
const WARMUP_SECONDS = Number(process.env.BENCH_LIVE_WARMUP_SECONDS ?? 3);
const ONLY = process.env.BENCH_LIVE_ONLY;
const SHEETS = Number(process.env.BENCH_LIVE_SHEETS ?? 1);
if (!Number.isInteger(SHEETS) || SHEETS < 1 || CLIENTS % SHEETS !== 0) throw new Error('BENCH_LIVE_SHEETS must be a whole number that divides BENCH_LIVE_CLIENTS');
/** Clients on each sheet: an operation reaches the others of its sheet. */
const PER_SHEET = CLIENTS / SHEETS;
const PORT_BASE = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : 3900;
const ROWS = 100;
const COLS = 26;
/**
 * BENCH_LIVE_PIN=1: the load generator on its own CPUs — the clients (this process and its threads) on
 * the upper half of the cores, the server under test (api, or the peer) on the lower half, as a server
 * and its users would be on separate machines. Off by default: on 2 cores it leaves the api one core
 * for its main thread and its GC and I/O threads together, and its CPU per operation read higher
 * (0.77-0.98 ms pinned, 0.49-0.79 not, alternated at 1,000 ops/s) for no better p99.
 */
const CORES = os.cpus().length;
const PIN = process.env.BENCH_LIVE_PIN === '1' && CORES >= 2;
const SERVER_CORES = `0-${Math.floor(CORES / 2) - 1}`;
const CLIENT_CORES = `${Math.floor(CORES / 2)}-${CORES - 1}`;
const pin = (pid, cores) => execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
if (PIN) pin(process.pid, CLIENT_CORES);
/** Threads the clients are spread over: real clients each have their own CPU; one thread for all of them queued their receipts. */
const CLIENT_THREADS = Math.max(1, Number(process.env.BENCH_LIVE_CLIENT_THREADS ?? (PIN ? CORES - Math.floor(CORES / 2) : 1)));

/** The drain at the end gives up when no client advanced for this long (a hang guard, not a figure). */
const STALL_GUARD_MS = 60_000;

// `ws` as the api has it (through @fastify/websocket).
const { WebSocket } = createRequire(requireFromApi.resolve('@fastify/websocket'))('ws');

/** CPU seconds of a pid in user and in system (kernel) mode, from /proc (utime, stime: clock ticks of 1/100 s). */
function cpuTimes(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: NaN, system: NaN };
  }
}
/** CPU seconds (user + system) of a pid. */
const cpuSeconds = (pid) => {
  const t = cpuTimes(pid);
  return t.user + t.system;
};
/** `after - before` of cpuTimes, summed over the pids. */
const cpuSpent = (pids, before) =>
  pids.reduce((sum, pid, k) => {
    const t = cpuTimes(pid);
    return { user: sum.user + t.user - before[k].user, system: sum.system + t.system - before[k].system };
  }, { user: 0, system: 0 });

/** The api's live group commits so far (its /metrics counter live_groups_total; NaN before it had one). */
async function groupCommits(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => /^live_groups_total[{ ]/.test(l));
  return line ? Number(line.split(' ').at(-1)) : NaN;
}

async function scenario(label, bases, pids) {
  if (PIN) for (const pid of pids) pin(pid, SERVER_CORES);
  const { auth, json } = await benchSession(bases[0]);
  const token = auth.authorization.slice('Bearer '.length);
  const sheets = [];
  for (let s = 0; s < SHEETS; s++) {
    const created = await (await fetch(`${bases[0]}/api/v1/sheets`, { method: 'POST', headers: json, body: JSON.stringify({ name: `Live bench ${label} ${s + 1}`, metadata: { rows: ROWS, columns: COLS } }) })).json();
    sheets.push({ id: created.id, v0: created.version, grid: created.data });
  }

  // The warm-up's operations come first: sent, delivered and checked like the others, left out of the figures.
  const warm = RATE * WARMUP_SECONDS;
  const total = warm + RATE * SECONDS;
  // Shared with the client threads (bench/support/live-clients.worker.mjs), indexed by operation.
  const sentAt = new Float64Array(new SharedArrayBuffer(8 * total));
  const seen = new Int32Array(new SharedArrayBuffer(4 * total));
  const versions = new Int32Array(new SharedArrayBuffer(4 * CLIENTS));
  for (let i = 0; i < CLIENTS; i++) versions[i] = sheets[i % SHEETS].v0;
  const workerData = { bases, sheets, token, clients: CLIENTS, rate: RATE, total, warm, rows: ROWS, cols: COLS, sentAt, seen, versions, wsFrom: requireFromApi.resolve('@fastify/websocket') };
  const workers = Array.from({ length: CLIENT_THREADS }, (_, w) => new Worker(new URL('./support/live-clients.worker.mjs', import.meta.url), { workerData: { ...workerData, w, threads: CLIENT_THREADS } }));
  const next = (type) => Promise.all(workers.map((worker) => new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.type !== type) return;
      worker.off('message', onMessage);
      resolve(m);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  })));
  await next('ready');

  // The api's fixed cost per second with the clients connected and idle (pings, timers, presence renewal).
  let idlePerSecond;
  if (IDLE_SECONDS > 0) {
    const idleBefore = pids.map(cpuTimes);
    const idleStart = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = cpuSpent(pids, idleBefore);
    const wall = (performance.now() - idleStart) / 1000;
    idlePerSecond = { user: idle.user / wall, system: idle.system / wall };
  }
  const started = performance.now();
  const allSent = next('sent');
  for (const worker of workers) worker.postMessage({ type: 'go', at: performance.timeOrigin + started });
  // The figures' CPU and groups from the warm-up's end (by the send schedule: operation `warm` goes then).
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  const groupsBefore = await Promise.all(bases.map(groupCommits));
  const cpuBefore = pids.map(cpuTimes);
  const cpuStart = performance.now();
  await allSent;
  const sent = total - warm;
  const sendSeconds = (performance.now() - started) / 1000;
  // Drain: every op acknowledged, every client at its sheet's last version (operation seq goes to sheet (seq % clients) % sheets).
  const finalVersions = sheets.map((sheet, s) => sheet.v0 + Array.from({ length: total }, (_, seq) => (seq % CLIENTS) % SHEETS === s).filter(Boolean).length);
  const finalSum = versions.reduce((sum, _, i) => sum + finalVersions[i % SHEETS], 0);
  const drainStart = performance.now();
  let progress = -1;
  let progressAt = drainStart;
  for (;;) {
    const reached = versions.reduce((sum, v) => sum + v, 0);
    if (reached === finalSum) break;
    if (reached !== progress) [progress, progressAt] = [reached, performance.now()];
    else if (performance.now() - progressAt > STALL_GUARD_MS) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const throughput = total / (sendSeconds + drainSeconds);
  const cpuSplit = cpuSpent(pids, cpuBefore);
  const cpuWall = (performance.now() - cpuStart) / 1000;
  const cpu = pids.map((pid, k) => cpuSeconds(pid) - cpuBefore[k].user - cpuBefore[k].system);
  const benchCpu = process.cpuUsage();
  const groups = (await Promise.all(bases.map(groupCommits))).reduce((sum, n, k) => sum + n - groupsBefore[k], 0);

  const servers = await Promise.all(sheets.map(async (sheet) => (await fetch(`${bases[0]}/api/v1/sheets/${sheet.id}`, { headers: auth })).json()));
  const results = next('result');
  for (const worker of workers) worker.postMessage({ type: 'finish', truths: servers.map((server) => JSON.stringify(server.data)) });
  const parts = await results;
  await Promise.all(workers.map((worker) => worker.terminate()));
  const perDelivery = new Histogram();
  const untilAll = new Histogram();
  const firstReceipt = new Histogram();
  const warmDelivery = new Histogram();
  for (const part of parts) {
    warmDelivery.merge(part.warmDelivery);
    perDelivery.merge(part.perDelivery);
    untilAll.merge(part.untilAll);
    firstReceipt.merge(part.firstReceipt);
  }
  const sum = (key) => parts.reduce((s, part) => s + part[key], 0);
  const [identical, acked, outOfOrder, errors] = ['identical', 'acked', 'outOfOrder', 'errors'].map(sum);
  const behind = versions.filter((v, i) => v < finalVersions[i % SHEETS]).length;

  console.log(`\n${label}`);
  console.log(`  ${CLIENTS} clients${SHEETS > 1 ? ` on ${SHEETS} sheets (${PER_SHEET} each)` : ''}, ${total} cell operations sent in ${sendSeconds.toFixed(1)} s (${(total / sendSeconds).toFixed(0)}/s offered); the last reached every client ${drainSeconds.toFixed(1)} s after the last send: ${throughput.toFixed(0)} ops/s applied and delivered`);
  if (warm > 0) console.log(`  warm-up: the first ${WARMUP_SECONDS} s (${warm} ops) are left out of the figures below; their p99 to a client ${warmDelivery.percentile(0.99).toFixed(1)} ms, max ${warmDelivery.max.toFixed(0)} ms`);
  console.log(`  send → receipt by another client: p50 ${perDelivery.percentile(0.5).toFixed(1)} ms, p99 ${perDelivery.percentile(0.99).toFixed(1)} ms, max ${perDelivery.max.toFixed(0)} ms (${perDelivery.n} deliveries)`);
  console.log(`  send → receipt by the first other client: p50 ${firstReceipt.percentile(0.5).toFixed(1)} ms, p99 ${firstReceipt.percentile(0.99).toFixed(1)} ms (the server's part, less one socket's parsing)`);
  console.log(`  send → receipt by every other client: p50 ${untilAll.percentile(0.5).toFixed(1)} ms, p99 ${untilAll.percentile(0.99).toFixed(1)} ms (${untilAll.n} ops)`);
  console.log(`  ops lost: ${total - acked} unacknowledged, ${total * (PER_SHEET - 1) - perDelivery.n - warmDelivery.n} deliveries missing, ${behind} clients behind; out of order: ${outOfOrder}; error frames: ${errors}`);
  const wrongVersions = servers.filter((server, s) => server.version !== finalVersions[s]).length;
  const versionsSaid = SHEETS > 1 ? `${SHEETS - wrongVersions} of ${SHEETS} sheets at their expected version` : `server version ${servers[0].version} (expected ${finalVersions[0]})`;
  console.log(`  ${versionsSaid}; replicas equal to the server's sheet: ${identical}/${CLIENTS}`);
  console.log(`  api CPU for the ${sent} ops after the warm-up: ${cpu.map((s) => `${s.toFixed(1)} s`).join(' + ')}; this benchmark's process (the ${CLIENTS} clients in ${CLIENT_THREADS} threads) so far: ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s`);
  const cpuTotal = cpu.reduce((a, b) => a + b, 0);
  // Each group costs about the same whatever its size: the CPU per op follows the ops per group.
  const perOp = (seconds) => ((seconds * 1000) / sent).toFixed(2);
  console.log(`  group commits: ${groups} (${(sent / groups).toFixed(1)} ops per group); api CPU ${perOp(cpuTotal)} ms per op (user ${perOp(cpuSplit.user)} + system ${perOp(cpuSplit.system)}), ${(cpuTotal * 1000 / groups).toFixed(2)} ms per group`);
  // What of it the api spends anyway, ops or not (measured idle before the ops, over the measured wall time): the rest is the ops' own.
  if (idlePerSecond) {
    const idleUser = idlePerSecond.user * cpuWall;
    const idleSystem = idlePerSecond.system * cpuWall;
    console.log(`  idle (${CLIENTS} clients connected, no ops; ${IDLE_SECONDS} s): ${(idlePerSecond.user * 1000).toFixed(1)} + ${(idlePerSecond.system * 1000).toFixed(1)} ms/s user + system, ${perOp(idleUser + idleSystem)} ms per op at this rate; without it ${perOp(cpuTotal - idleUser - idleSystem)} ms per op (user ${perOp(cpuSplit.user - idleUser)} + system ${perOp(cpuSplit.system - idleSystem)})`);
  }
  return { label, delivered: throughput, p99: perDelivery.percentile(0.99), p99All: untilAll.percentile(0.99), cpuPerOpMs: (cpuTotal * 1000) / sent, lost: total - acked };
}

/** The same load against the peer (bench/support/hocuspocus-peer.mjs), its figures printed the same way. */
async function peerScenario() {
  const peer = await startHocuspocus(PORT_BASE + 90);
  if (PIN) pin(peer.pid, SERVER_CORES);
  try {
    const r = await hocuspocusScenario({ url: peer.url, pid: peer.pid, clients: CLIENTS, rate: RATE, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rows: ROWS, cols: COLS, Histogram, cpuSeconds });
    const delivered = r.sent / (r.sendSeconds + r.drainSeconds);
    console.log('\nHocuspocus 3.4.4, in memory (the peer; acknowledges and stores nothing)');
    console.log(`  ${CLIENTS} clients, ${r.sent} cell edits sent in ${r.sendSeconds.toFixed(1)} s; the last reached every client ${r.drainSeconds.toFixed(1)} s after the last send: ${delivered.toFixed(0)} ops/s delivered`);
    console.log(`  send → receipt by another client: p50 ${r.perDelivery.percentile(0.5).toFixed(1)} ms, p99 ${r.perDelivery.percentile(0.99).toFixed(1)} ms, max ${r.perDelivery.max.toFixed(0)} ms; by every other client: p99 ${r.untilAll.percentile(0.99).toFixed(1)} ms`);
    console.log(`  deliveries missing: ${r.missing}; Hocuspocus CPU for the ${r.measured} edits after the warm-up: ${r.cpu.toFixed(1)} s (${((r.cpu * 1000) / r.measured).toFixed(2)} ms per edit)`);
    return { label: 'Hocuspocus 3.4.4 (in memory)', delivered, p99: r.perDelivery.percentile(0.99), p99All: r.untilAll.percentile(0.99), cpuPerOpMs: (r.cpu * 1000) / r.measured, lost: r.missing };
  } finally {
    peer.stop();
  }
}

// Ctrl+C / SIGTERM: stop what this benchmark started (api processes, Redis, database) before leaving.
const cleanups = [];
const cleanUp = async () => {
  for (const fn of cleanups.splice(0).reverse()) await Promise.resolve().then(fn).catch(() => {});
};
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().then(() => process.exit(130)));
/** Runs `fn` with `stop` registered for a signal, and stops after. */
async function guarded(stop, fn) {
  cleanups.push(stop);
  try {
    return await fn();
  } finally {
    cleanups.splice(cleanups.indexOf(stop), 1);
    await stop();
  }
}

const pgUrl = process.env.BENCH_PG_URL;
console.log(`live benchmark: ${CLIENTS} clients${SHEETS > 1 ? ` on ${SHEETS} sheets` : ''}, ${RATE} ops/s in all for ${SECONDS} s; ${CORES} cores${PIN ? ` (clients on cores ${CLIENT_CORES} in ${CLIENT_THREADS} threads, the server on ${SERVER_CORES})` : ''}, load average ${os.loadavg()[0].toFixed(1)}`);
const results = [];
if (!ONLY || ONLY === 'one') {
  const db = pgUrl ? await benchDatabase(pgUrl) : undefined;
  await guarded(async () => db?.drop(), async () => {
    const apis = await startApis({ count: 1, firstPort: PORT_BASE, env: { DATABASE_URL: db?.url, REDIS_URL: undefined } });
    results.push(await guarded(apis.stop, () => scenario(`one api instance (${db ? 'PostgreSQL' : 'PGlite'})`, apis.bases, apis.pids)));
  });
}
if (!ONLY || ONLY === 'two') {
  if (!pgUrl) {
    console.log('\ntwo api instances + Redis: skipped (set BENCH_PG_URL: PGlite is one process\'s database)');
  } else {
    let redis = process.env.BENCH_REDIS_URL ? { url: process.env.BENCH_REDIS_URL, stop() {} } : undefined;
    if (!redis && redisAvailable()) redis = startRedis({ dir: path.join(os.tmpdir(), `tessera-bench-redis-${process.pid}`), port: process.env.BENCH_PORT_BASE ? PORT_BASE + 91 : 6391 });
    if (!redis) {
      console.log('\ntwo api instances + Redis: skipped (no BENCH_REDIS_URL and no redis-server)');
    } else {
      const started = redis;
      await guarded(async () => started.stop(), async () => {
        const db = await benchDatabase(pgUrl);
        await guarded(db.drop, async () => {
          const apis = await startApis({ count: 2, firstPort: PORT_BASE + 10, env: { DATABASE_URL: db.url, REDIS_URL: started.url } });
          results.push(await guarded(apis.stop, () => scenario('two api instances + Redis (PostgreSQL); clients alternate between them', apis.bases, apis.pids)));
        });
      });
    }
  }
}
if ((!ONLY || ONLY === 'peer') && process.env.BENCH_LIVE_PEER !== '0' && SHEETS === 1) results.push(await peerScenario());

if (results.length > 1) {
  const peer = results.find((r) => r.label.startsWith('Hocuspocus'));
  console.log(`\nside by side (${CLIENTS} clients, ${RATE} ops/s offered; load average ${os.loadavg()[0].toFixed(1)} now)`);
  console.log('  run                                      delivered/s   p99 to a client   p99 to all   CPU per op   lost');
  for (const r of results) {
    const ratio = peer && r !== peer ? `  (${(r.delivered / peer.delivered).toFixed(1)}× the peer's rate, p99 ${(r.p99 / peer.p99).toFixed(1)}×, CPU ${(r.cpuPerOpMs / peer.cpuPerOpMs).toFixed(2)}×)` : '';
    console.log(`  ${r.label.slice(0, 40).padEnd(40)} ${r.delivered.toFixed(0).padStart(11)} ${`${r.p99.toFixed(1)} ms`.padStart(17)} ${`${r.p99All.toFixed(1)} ms`.padStart(12)} ${`${r.cpuPerOpMs.toFixed(2)} ms`.padStart(12)} ${String(r.lost).padStart(6)}${ratio}`);
  }
}
