// The real api (its build, `api/dist/index.js`) in its own process on loopback, for the tests
// whose subject is the middleware's calls to the api (merge_timeline, a chat's sheet history).
// Its database: a fresh PostgreSQL database under TEST_PG_URL, else PGlite in a temp folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const API_ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../api/dist/index.js');

export interface RealApi {
  base: string;
  /** Signs up the first user (the administrator) and returns its Authorization header. */
  signup(username: string): Promise<Record<string, string>>;
  /**
   * A new member `username` made by the administrator (`auth`), given view-only access to the
   * sheet (the administrator stays its owner), signed in: its Authorization header value.
   */
  viewerOf(auth: Record<string, string>, sheetId: string, username: string): Promise<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function startRealApi(): Promise<RealApi> {
  if (!existsSync(API_ENTRY)) throw new Error(`the api is not built (${API_ENTRY} is missing): run npm run build (or npm start)`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-ai-real-api-'));
  const adminUrl = process.env.TEST_PG_URL;
  let dbName: string | undefined;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  if (adminUrl) {
    dbName = `tessera_ai_api_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database "${dbName}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.href;
  }
  const port = await freePort();
  env.API_PORT = String(port);
  const child: ChildProcess = spawn(process.execPath, [API_ENTRY], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  const close = async () => {
    if (!exited()) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    if (adminUrl && dbName) await adminQuery(adminUrl, `drop database if exists "${dbName}" with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  };

  // Generous: under `npm test` two test files run at once on two cores, and this start
  // (spawn, migrate, listen) competes with them.
  const deadline = Date.now() + 180_000;
  try {
    for (;;) {
      if (exited()) throw new Error(`the api exited at start: ${stderr}`);
      const up = await fetch(`${base}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`the api did not answer within 3 minutes: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (err) {
    await close();
    throw err;
  }

  return {
    base,
    async signup(username) {
      const res = await fetch(`${base}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'a long enough password 1' }),
      });
      if (res.status !== 201 && res.status !== 200) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
      const { access_token: token } = (await res.json()) as { access_token: string };
      return { authorization: `Bearer ${token}` };
    },
    async viewerOf(auth, sheetId, username) {
      const password = 'a long enough password 1';
      const json = { ...auth, 'content-type': 'application/json' };
      const created = await fetch(`${base}/api/v1/users`, { method: 'POST', headers: json, body: JSON.stringify({ username, password, role: 'user' }) });
      if (created.status !== 201) throw new Error(`user not made: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      const me = (await (await fetch(`${base}/api/v1/auth/session`, { headers: auth })).json()) as { id: string };
      const shared = await fetch(`${base}/api/v1/sheets/${sheetId}/access`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ entries: [{ user_id: me.id, level: 'owner' }, { user_id: id, level: 'viewer' }] }),
      });
      if (shared.status !== 200) throw new Error(`sheet not shared: ${shared.status} ${await shared.text()}`);
      const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
      return `Bearer ${((await login.json()) as { access_token: string }).access_token}`;
    },
    close,
  };
}
