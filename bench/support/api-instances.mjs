// Several built api processes (`node api/dist/index.js`) on one database, for the live benchmark:
// one instance, or two behind one Redis (REDIS_URL) on one PostgreSQL. They share a DATA_DIR, so
// they sign and verify with the same key pair (the first one generates it).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requireFromApi, root } from './built-api.mjs';

const pg = requireFromApi('pg');

/** A fresh database in the PostgreSQL of `adminUrl` (BENCH_PG_URL); `drop` removes it. */
export async function benchDatabase(adminUrl) {
  const name = `tessera_bench_live_${Date.now().toString(36)}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Starts `count` api processes one after the other on ports `firstPort`, `firstPort + 1`, ...
 * with `env` (DATABASE_URL, REDIS_URL ...). Returns their http bases, their pids and `stop`.
 */
export async function startApis({ count, firstPort, env }) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tessera-bench-live-'));
  const children = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r)))));
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const bases = [];
  try {
    for (let i = 0; i < count; i++) {
      const port = firstPort + i;
      const childEnv = { ...process.env, ...env, DATA_DIR: dataDir, HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'warn' };
      for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
      // BENCH_API_NODE_ARGS: node flags for the api processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
      const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
      const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'api/dist/index.js')], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      children.push(child);
      const base = `http://127.0.0.1:${port}`;
      for (let t = 0; ; t++) {
        try {
          if ((await fetch(`${base}/health`)).ok) break;
        } catch {
          /* starting */
        }
        if (t > 600 || child.exitCode !== null) throw new Error(`api ${i} did not start: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      bases.push(base);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { bases, pids: children.map((c) => c.pid), stop };
}
