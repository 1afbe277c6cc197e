// What deploys.spec.ts needs beside the shared stack: remote releases made by the
// real release command, a stack of its own (it must sign up its own first admin,
// and it swaps the chat remote's versions), and `npm run remotes` as ops run it. Only npm is
// called: a machine that ran `npm test` need not have pnpm on its PATH.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
// @ts-expect-error plain ESM module of the root scripts, typed by use
import { processSpecs, remotesManifest, startProcess } from '../../scripts/lib/stack.mjs';
import { E2E_PORTS, workDir, writePid } from './stack';

const run = promisify(execFile);
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The deploys stack: the e2e ports + 50, so it runs beside the shared one. */
export const DEPLOY_PORTS: Record<string, number> = Object.fromEntries(Object.entries(E2E_PORTS).map(([k, v]) => [k, v + 50]));
export const deployDir = path.join(workDir, 'deploys');
export const deployDataDir = path.join(deployDir, 'data');
export const remotesFile = path.join(deployDataDir, 'remotes.json');
export const releasesDir = path.join(deployDir, 'releases');
export const shellOrigin = `http://localhost:${DEPLOY_PORTS.shell}`;

interface Started {
  name: string;
  pid: number;
  stop(): Promise<void>;
}
const started: Started[] = [];

/**
 * Releases a remote as its team would, with the release command from its
 * package.json, from a copy of its sources: the copy gets `version` in its
 * package.json and the `patch` edits (a changed label), so the workspace's own
 * remote and its dist stay untouched. The copy uses the remote's installed
 * node_modules.
 */
export async function releaseCopy(
  remote: string,
  version: string,
  patch: { file: string; from: string; to: string }[] = [],
): Promise<string> {
  const source = path.join(repoRoot, remote);
  const copy = path.join(deployDir, 'sources', `${remote}-${version}`);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const entry of ['src', 'package.json', 'webpack.config.js', 'tsconfig.json']) {
    cpSync(path.join(source, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(source, 'node_modules'), path.join(copy, 'node_modules'));
  const pkgFile = path.join(copy, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  writeFileSync(pkgFile, JSON.stringify({ ...pkg, version }, null, 2));
  for (const { file, from, to } of patch) {
    const f = path.join(copy, file);
    const text = readFileSync(f, 'utf8');
    if (!text.includes(from)) throw new Error(`${file} has no "${from}" to patch`);
    writeFileSync(f, text.split(from).join(to));
  }
  // The copy's own release script, through npm (its node_modules/.bin is the remote's).
  await run('npm', ['run', '--silent', 'release'], {
    cwd: copy,
    env: { ...process.env, TESSERA_RELEASES_DIR: releasesDir },
    maxBuffer: 64 * 1024 * 1024,
  });
  return path.join(releasesDir, remote, version);
}

async function startTracked(spec: { name: string; args: string[]; env: Record<string, string>; ready: string }) {
  const name = `deploys-${spec.name}`;
  const proc = await startProcess({ ...spec, name }, { logDir: path.join(deployDir, 'logs') });
  proc.child.unref();
  // The global teardown stops it by PID even if this file's afterAll never runs.
  writePid(name, proc.pid);
  const entry: Started = {
    name,
    pid: proc.pid,
    stop: async () => {
      await proc.stop();
      writePid(name, undefined);
      started.splice(started.indexOf(entry), 1);
    },
  };
  started.push(entry);
  return entry;
}

/** A static origin of the chat remote's releases (and of its workspace build as 0.1.0), for the shell's origin only. */
export function startChatOrigin(port: number) {
  const version = JSON.parse(readFileSync(path.join(repoRoot, 'mfe-chat', 'package.json'), 'utf8')).version;
  return startTracked({
    name: `mfe-chat-${port}`,
    args: [
      path.join(repoRoot, 'tooling/remote-origin/server.mjs'),
      '--name', 'mfe-chat',
      '--port', String(port),
      '--dist', path.join(repoRoot, 'mfe-chat', 'dist'),
      '--version', version,
      '--releases', path.join(releasesDir, 'mfe-chat'),
      '--shell-origin', shellOrigin,
    ],
    env: { LOG_LEVEL: 'warn' },
    ready: `http://127.0.0.1:${port}/health`,
  });
}

/**
 * The product on DEPLOY_PORTS with a data folder of its own; the chat remote's
 * origin also serves the releases. The ai-middleware is left out: nothing here needs it.
 */
export async function startDeployStack(): Promise<Started[]> {
  rmSync(deployDataDir, { recursive: true, force: true });
  mkdirSync(deployDataDir, { recursive: true });
  writeFileSync(remotesFile, JSON.stringify(await remotesManifest(DEPLOY_PORTS), null, 2));
  const specs = processSpecs({ ports: DEPLOY_PORTS, dataDir: deployDataDir, env: { REMOTES_MANIFEST: remotesFile, LOG_LEVEL: 'warn' } }) as {
    name: string;
    args: string[];
    env: Record<string, string>;
    ready: string;
  }[];
  for (const spec of specs) {
    if (spec.name === 'ai-middleware') continue;
    if (spec.name === 'mfe-chat') await startChatOrigin(DEPLOY_PORTS['mfe-chat']);
    else await startTracked(spec);
  }
  return [...started];
}

export async function stopDeployStack() {
  for (const p of [...started].reverse()) await p.stop();
}

/** `npm run remotes -- …` from the repository root, as ops run it, on this stack's remotes.json. */
export async function remotes(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'remotes', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, REMOTES_MANIFEST: remotesFile },
  });
  return stdout;
}

/** Whether a process we started is still the same one (nothing restarted). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
