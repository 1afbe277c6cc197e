// Figures for issue 17: the peak memory of each service across the hostile requests that used
// to kill them or hold them at 100% CPU, and whether either process restarted. The built api
// (PGlite, every limit at its default) and the built ai-middleware run as children; a plain
// member sends, one after the other: the 17-billion-cell sheet, a far cell then its exports, a
// 2 MB CSV of 100,000 columns, two .xlsx zip bombs (honest and lying sizes), an oversize socket
// frame and a flood before the join, then 30 Python jobs at once. Prints each answer and the peak RSS
// (VmHWM of /proc/PID/status) of each service.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { requireFromApi, root, withBuiltApi } from './support/built-api.mjs';

const { WebSocket } = createRequire(requireFromApi.resolve('@fastify/websocket'))('ws');
// One definition of a hand-built zip (bombs whose declared sizes tell the truth or lie).
const { buildZip, deflatedZeros, workbookParts } = await tsImport('../api/test/support/zip-builder.ts', import.meta.url);

const MB = 1024 * 1024;
const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};
/** Runs one hostile request, then prints its answer, its time and the service's RSS after it. */
async function step(service, pid, what, fn) {
  const t0 = performance.now();
  const answer = await fn();
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${service.padEnd(13)} ${what.padEnd(52)} ${String(answer).padEnd(34)} ${seconds.toFixed(1).padStart(6)} s  RSS ${memory(pid).rss.toFixed(0).padStart(5)} MB`);
}
const status = async (res) => {
  const body = await res.text();
  let text = '';
  try {
    text = JSON.parse(body)?.error?.message ?? '';
  } catch {
    text = `${(body.length / MB).toFixed(1)} MB`;
  }
  return `${res.status} ${text}`.slice(0, 34);
};

async function startAi(apiBase, dataDir) {
  const port = 22_000 + Math.floor(Math.random() * 2000);
  const env = { ...process.env, DATA_DIR: path.join(dataDir, 'ai'), HOST: '127.0.0.1', AI_PORT: String(port), API_URL: apiBase, LOG_LEVEL: 'warn' };
  delete env.AI_DATABASE_URL;
  await fs.mkdir(env.DATA_DIR, { recursive: true });
  const child = spawn(process.execPath, [path.join(root, 'ai-middleware/dist/index.js')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 600 || child.exitCode !== null) throw new Error(`ai-middleware did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, stop: () => (child.exitCode === null ? (child.kill('SIGTERM'), new Promise((r) => child.once('exit', r))) : null) };
}

await withBuiltApi('pglite', {}, async ({ base, dataDir, pid }) => {
  const post = (url, token, body, headers = {}) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body });
  const json = (method, url, token, body) =>
    fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const signup = await fetch(`${base}/api/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin password 1' }) });
  const admin = (await signup.json()).access_token;
  await json('POST', '/api/v1/users', admin, { username: 'member', password: 'member password 1', role: 'user' });
  const login = await json('POST', '/api/v1/auth/login', undefined, { username: 'member', password: 'member password 1' });
  const token = (await login.json()).access_token;
  const upload = (name, content) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    form.append('name', name);
    return post('/api/v1/import', token, form);
  };
  console.log(`api pid ${pid}, started: RSS ${memory(pid).rss.toFixed(0)} MB\n`);

  await step('api', pid, 'POST /sheets 1,048,576 × 16,384', async () => status(await json('POST', '/api/v1/sheets', token, { name: 'Giant', metadata: { rows: 1048576, columns: 16384 } })));
  const sheet = await (await json('POST', '/api/v1/sheets', token, { name: 'Far' })).json();
  const patch = (row, column) => json('PATCH', `/api/v1/sheets/${sheet.id}/cells`, token, { base_version: sheet.version, changes: [{ row, col: column, value: 'far' }] });
  await step('api', pid, 'PATCH cell (1048575, 16383)', async () => status(await patch(1048575, 16383)));
  await step('api', pid, 'PATCH cell (999999, 9): 10,000,000 cells, the cap', async () => status(await patch(999_999, 9)));
  const auth = { headers: { authorization: `Bearer ${token}` } };
  for (const format of ['json', 'csv', 'xlsx']) {
    await step('api', pid, `export ${format} of that sheet`, async () => status(await fetch(`${base}/api/v1/sheets/${sheet.id}/export?format=${format}`, auth)));
  }
  await step('api', pid, 'GET that sheet', async () => status(await fetch(`${base}/api/v1/sheets/${sheet.id}`, auth)));

  const wide = `${'h,'.repeat(99_999)}h\n${'x\n'.repeat(900_000)}`;
  await step('api', pid, `import CSV ${(wide.length / MB).toFixed(1)} MB, 100,000 columns`, async () => status(await upload('wide.csv', wide)));
  const zeros = await deflatedZeros(1024 * MB);
  await step('api', pid, 'import .xlsx bomb: 1 GB in 1 MB, sizes declared', async () =>
    status(await upload('honest-bomb.xlsx', buildZip(workbookParts({ data: zeros, declaredSize: 1024 * MB - 1 })))),
  );
  await step('api', pid, 'import .xlsx bomb: 1 GB in 1 MB, declared 1 KB', async () =>
    status(await upload('lying-bomb.xlsx', buildZip(workbookParts({ data: zeros, declaredSize: 1000 })))),
  );

  const socket = () =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/sheets/${sheet.id}`, ['tessera.bearer', token]);
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  const closed = (ws) =>
    Promise.race([
      new Promise((r) => ws.once('close', (code) => r(`closed ${code}`))),
      new Promise((r) => setTimeout(() => r('still open'), 10_000).unref()),
    ]);
  await step('api', pid, 'socket: one 8 MiB frame', async () => {
    const ws = await socket();
    const done = closed(ws);
    ws.send(Buffer.alloc(8 * MB, 0x20));
    return done;
  });
  // Sent as the socket opens: before the join they meet the pre-join bound (1008); once joined,
  // each is an operation with a value past the cell limit and gets an error frame.
  await step('api', pid, 'socket: 200 frames of 64 KiB as it opens', async () => {
    const ws = await socket();
    let errors = 0;
    ws.on('message', (data) => (errors += (String(data).match(/"type":"error"/g) ?? []).length));
    const done = closed(ws);
    const frame = JSON.stringify({ type: 'operation', sheet_id: sheet.id, operation: { id: 'x', type: 'cell_update', position: { row: 0, column: 0 }, value: 'y'.repeat(64 * 1024) } });
    for (let i = 0; i < 200; i++) ws.send(frame);
    const how = await done;
    ws.terminate();
    return how.startsWith('closed') ? how : `${errors} error frames, still open`;
  });

  const ai = await startAi(base, dataDir);
  try {
    const aiPid = ai.child.pid;
    console.log(`\nai-middleware pid ${aiPid}, started: RSS ${memory(aiPid).rss.toFixed(0)} MB`);
    const job = { enable_ai_generation: false, code: "import time\ntime.sleep(1)\nresult = 'done'", handsontable_data: { spreadsheet_data: { headers: ['A'], rows: [[1]] } } };
    await step('ai-middleware', aiPid, '30 Python jobs from one member at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${ai.base}/hybrid/forward`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(job) }).then(async (r) => (await r.text(), r.status)),
        ),
      );
      const count = (code) => answers.filter((a) => a === code).length;
      return `${count(200)} × 200, ${count(429)} × 429`;
    });
    const aiHealth = (await fetch(`${ai.base}/health`)).status;
    console.log(`\nai-middleware: peak RSS ${memory(aiPid).peak.toFixed(0)} MB, /health ${aiHealth}, restarts ${ai.child.exitCode === null ? 0 : 'it exited'}`);
  } finally {
    await ai.stop();
  }
  const apiHealth = (await fetch(`${base}/health`)).status;
  console.log(`api:           peak RSS ${memory(pid).peak.toFixed(0)} MB, /health ${apiHealth}, restarts 0 (pid ${pid} answered throughout)`);
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
});
