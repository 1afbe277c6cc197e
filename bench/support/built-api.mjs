// What the api benchmarks share: a throwaway database (PGlite in a temp folder, or a fresh
// PostgreSQL database under BENCH_PG_URL) and the built api (`node api/dist/index.js`) on it,
// in its own process on 127.0.0.1, with its pino log lines handed to the benchmark (Fastify's
// responseTime is the server-side time of a request).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const requireFromApi = createRequire(path.join(root, 'api/package.json'));
const pg = requireFromApi('pg');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const ms = (x) => `${x.toFixed(1)} ms`;

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: process.env.BENCH_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Runs `fn({ base, dataDir, databaseUrl, stop, pid })` against the built api on `kind` ('pglite' or
 * 'postgresql'); every JSON log line of the api goes to `onLogEntry`. Everything is removed after.
 */
export async function withBuiltApi(kind, { onLogEntry = () => {} } = {}, fn) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-api-'));
  let databaseUrl;
  let name;
  if (kind === 'postgresql') {
    name = `tessera_bench_${Date.now().toString(36)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.BENCH_PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  // BENCH_API_PORT: that port instead (a machine that gives each run its own port range).
  const port = process.env.BENCH_API_PORT ? Number(process.env.BENCH_API_PORT) : 18_000 + Math.floor(Math.random() * 4000);
  const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'info' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // BENCH_API_ROOT: another build of the api (a folder with its dist/ and package.json), e.g. main's, to compare.
  const apiRoot = process.env.BENCH_API_ROOT ? path.resolve(process.env.BENCH_API_ROOT) : path.join(root, 'api');
  const child = spawn(process.execPath, [path.join(apiRoot, 'dist/index.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  child.stdout.on('data', (d) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      if (!line.includes('"reqId"')) continue;
      try {
        onLogEntry(JSON.parse(line));
      } catch {
        /* not a log line */
      }
    }
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; if (process.env.BENCH_API_STDERR) process.stderr.write(d); });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        /* starting */
      }
      if (i > 1200 || child.exitCode !== null) throw new Error(`api did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return await fn({ base, dataDir, databaseUrl, stop, pid: child.pid });
  } finally {
    await stop();
    if (name) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** Signs up the benchmark's admin and returns JSON and auth headers for its requests. */
export async function benchSession(base) {
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench password 1' }),
  });
  const { access_token: token } = await signup.json();
  const auth = { authorization: `Bearer ${token}` };
  return { auth, json: { ...auth, 'content-type': 'application/json' } };
}
