import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SheetSchema, type Sheet, TokenResponseSchema } from '@tessera/contracts';
import pg from 'pg';

/** The api package's folder (this file is in api/test). */
const API_DIR = fileURLToPath(new URL('..', import.meta.url));
/** A hang guard for start-up (tsx compiles on the fly; several suites may share the 2 cores), not a timing assertion. */
const START_GUARD_MS = 180_000;

/**
 * The api as a real child process (`node --import tsx src/index.ts`, the sources under test),
 * listening on an OS-chosen port of 127.0.0.1. `kill('SIGKILL')` is a crash: no shutdown code runs.
 */
export interface ApiProcess {
  /** http://127.0.0.1:port */
  http: string;
  /** ws://127.0.0.1:port */
  ws: string;
  child: ChildProcess;
  /** Resolves with the exit code or signal. */
  exited: Promise<string>;
  /** Everything it printed (for failure messages). */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<string>;
}

export async function startApiProcess(env: Record<string, string | undefined>): Promise<ApiProcess> {
  // No live warm-up (a second of CPU per process on CI) unless a test asks for one.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', API_PORT: '0', LOG_LEVEL: 'info', LIVE_WARMUP_MS: '0', ...env };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], { cwd: API_DIR, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  const address = await new Promise<string>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`the api did not start:\n${out.slice(-3000)}`)), START_GUARD_MS);
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      // pino's line: {"level":30,...,"address":"http://127.0.0.1:PORT",...,"msg":"api ready"}
      const m = /"address":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"api ready"/.exec(out);
      if (m) {
        clearTimeout(guard);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((how) => {
      clearTimeout(guard);
      reject(new Error(`the api exited (${how}) before it was ready:\n${out.slice(-3000)}`));
    });
  });
  return {
    http: address,
    ws: address.replace(/^http/, 'ws'),
    child,
    exited,
    output: () => out,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A fresh database in the PostgreSQL of `adminUrl`; `drop` removes it. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tessera_live_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
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

/** JSON over HTTP with a Bearer token, against a running api. */
export function httpApi(base: string, token?: string) {
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text) as unknown, text };
  };
  return {
    request,
    async sheet(id: string): Promise<Sheet> {
      const res = await request('GET', `/api/v1/sheets/${id}`);
      if (res.status !== 200) throw new Error(`GET sheet: ${res.status} ${res.text}`);
      return SheetSchema.parse(res.json());
    },
  };
}

/** Signs up the first user (the admin) and creates and signs in `members` more; returns their tokens. */
export async function usersOn(base: string, members: string[]): Promise<{ admin: string; tokens: Map<string, { token: string; id: string }> }> {
  const anon = httpApi(base);
  const signup = await anon.request('POST', '/api/v1/auth/signup', { username: 'admin', password: 'admin password 1' });
  if (signup.status !== 201 && signup.status !== 200) throw new Error(`signup: ${signup.status} ${signup.text}`);
  const admin = accessToken(signup.json());
  const tokens = new Map<string, { token: string; id: string }>();
  for (const username of members) {
    const created = await httpApi(base, admin).request('POST', '/api/v1/users', { username, password: 'member password 1', role: 'user' });
    if (created.status !== 201) throw new Error(`create ${username}: ${created.status} ${created.text}`);
    const login = await anon.request('POST', '/api/v1/auth/login', { username, password: 'member password 1' });
    const session = TokenResponseSchema.parse(login.json());
    tokens.set(username, { token: session.access_token, id: session.user?.id ?? '' });
  }
  return { admin, tokens };
}

function accessToken(body: unknown): string {
  return TokenResponseSchema.parse(body).access_token;
}
