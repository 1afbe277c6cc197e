// The product's processes: how each starts, how to tell it is ready, and how
// to stop it. Used by `npm start` and by the e2e suite.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromRoot, repoRoot } from './paths.mjs';

export const DEFAULT_PORTS = {
  shell: 3000,
  'mfe-sheets': 3001,
  'mfe-chat': 3002,
  'mfe-git': 3003,
  'mfe-members': 3004,
  api: 8083,
  'ai-middleware': 8081,
};

export const REMOTE_DIRS = ['mfe-sheets', 'mfe-chat', 'mfe-git', 'mfe-members'];

const versionOf = (dir) => JSON.parse(readFileSync(fromRoot(dir, 'package.json'), 'utf8')).version;

/** The remotes.json of a stack on other ports: the shell server's own default, built. */
export async function remotesManifest(ports) {
  const { buildDefaultRemotes } = await import(fromRoot('shell/dist-server/remotes/default-remotes.js'));
  return buildDefaultRemotes(repoRoot, ports);
}

/** Where `npm run release -- <remote>` publishes (tooling/webpack-remote/release.js: same rule). */
const releasesDir = () => path.resolve(process.env.TESSERA_RELEASES_DIR?.trim() || fromRoot('releases'));

/** Every process of the product, in start order. */
export function processSpecs({ ports = DEFAULT_PORTS, dataDir, env = {} }) {
  const base = { ...env, DATA_DIR: dataDir, NODE_ENV: 'production' };
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const aiUrl = `http://127.0.0.1:${ports['ai-middleware']}`;
  return [
    {
      name: 'api',
      args: [fromRoot('api/dist/index.js')],
      env: { ...base, API_PORT: String(ports.api) },
      ready: `${apiUrl}/health`,
    },
    {
      name: 'ai-middleware',
      args: [fromRoot('ai-middleware/dist/index.js')],
      env: { ...base, AI_PORT: String(ports['ai-middleware']), API_URL: apiUrl },
      ready: `${aiUrl}/health`,
    },
    ...REMOTE_DIRS.map((dir) => ({
      name: dir,
      args: [
        fromRoot('tooling/remote-origin/server.mjs'),
        '--name', dir,
        '--port', String(ports[dir]),
        '--dist', fromRoot(dir, 'dist'),
        '--version', versionOf(dir),
        // Published releases (`npm run release -- <remote>`) are served beside the dist,
        // and only the shell's origin may fetch them.
        '--releases', path.join(releasesDir(), dir),
        '--shell-origin', `http://localhost:${ports.shell},http://127.0.0.1:${ports.shell}`,
      ],
      env: base,
      ready: `http://127.0.0.1:${ports[dir]}/${versionOf(dir)}/mf-manifest.json`,
    })),
    {
      name: 'shell',
      args: [fromRoot('shell/dist-server/index.js')],
      env: { ...base, SHELL_PORT: String(ports.shell), API_URL: apiUrl, AI_URL: aiUrl },
      ready: `http://127.0.0.1:${ports.shell}/`,
    },
  ];
}

async function waitReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** Starts one process with its output in `<logDir>/<name>.log`; resolves once ready. */
export async function startProcess(spec, { logDir, timeoutMs = 60_000 }) {
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${spec.name}.log`);
  // The child writes to the file itself, so it outlives whoever started it.
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const ok = await waitReady(spec.ready, child, timeoutMs);
  if (!ok) {
    child.kill('SIGKILL');
    let tail = '';
    try {
      tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      /* no log */
    }
    throw new Error(`${spec.name} did not become ready at ${spec.ready}\n--- ${logFile} ---\n${tail}`);
  }
  return {
    name: spec.name,
    spec,
    pid: child.pid,
    child,
    stop: () => stopChild(child),
  };
}

export function stopChild(child, graceMs = 5000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts every process in order; on a failure, stops what it started. */
export async function startStack(opts) {
  const { logDir } = opts;
  const started = [];
  try {
    for (const spec of processSpecs(opts)) {
      started.push(await startProcess(spec, { logDir }));
    }
  } catch (e) {
    await Promise.all(started.map((p) => p.stop()));
    throw e;
  }
  return {
    processes: started,
    stop: () => Promise.all(started.map((p) => p.stop())),
  };
}
