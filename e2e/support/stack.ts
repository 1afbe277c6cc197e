import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM module of the root scripts, typed by use
import { DEFAULT_PORTS, processSpecs, startProcess } from '../../scripts/lib/stack.mjs';

/**
 * The e2e stack runs beside a developer's `npm start`, on ports of its own
 * (default ports + TESSERA_E2E_PORT_OFFSET, 100 unless set), so two runs with
 * different offsets can share a machine.
 */
export const E2E_PORT_OFFSET = Number(process.env.TESSERA_E2E_PORT_OFFSET ?? 100);
/**
 * TESSERA_E2E_PORT_BASE: the processes on consecutive ports from it instead, the OIDC provider on
 * base + 20 (a machine that gives each run a narrow port range; bench/ has BENCH_PORT_BASE).
 */
export const E2E_PORT_BASE = process.env.TESSERA_E2E_PORT_BASE ? Number(process.env.TESSERA_E2E_PORT_BASE) : null;
export const E2E_PORTS: Record<string, number> = Object.fromEntries(
  Object.entries(DEFAULT_PORTS as Record<string, number>).map(([k, v], i) => [k, E2E_PORT_BASE === null ? v + E2E_PORT_OFFSET : E2E_PORT_BASE + i]),
);

/**
 * Single sign-on on the e2e stack (issue 21): a real OpenID provider (oidc-provider, started by
 * the global setup in the runner's process) that the api trusts. Any login name signs in there;
 * names starting with OIDC_ADMIN_LOGIN_PREFIX carry groups ['tessera-admins'], mapped to admin.
 */
export const OIDC_PROVIDER_PORT = E2E_PORT_BASE === null ? 9000 + E2E_PORT_OFFSET : E2E_PORT_BASE + 20;
export const OIDC_NAME = 'Tessera ID';
export const OIDC_ADMIN_LOGIN_PREFIX = 'boss-';
/** The shell's sign-in page as the browser sees it (playwright.config.ts's baseURL): the redirect URI. */
export const SHELL_LOGIN_URL = `http://localhost:${E2E_PORTS.shell}/login`;
export const OIDC_ENV = {
  OIDC_ISSUER: `http://127.0.0.1:${OIDC_PROVIDER_PORT}`,
  OIDC_CLIENT_ID: 'tessera',
  OIDC_CLIENT_SECRET: 'tessera-test-client-secret',
  OIDC_NAME,
  OIDC_SCOPES: 'openid profile email',
  OIDC_ROLE_CLAIM: 'groups',
  OIDC_ROLE_MAP: 'tessera-admins=admin',
};

export const workDir = path.resolve(
  process.env.TESSERA_E2E_WORKDIR ?? fileURLToPath(new URL(`../../.tessera-test/e2e-${E2E_PORT_BASE === null ? E2E_PORT_OFFSET : `base-${E2E_PORT_BASE}`}`, import.meta.url)),
);
export const dataDir = path.join(workDir, 'data');
export const logDir = path.join(workDir, 'logs');
const stateFile = () => path.join(workDir, 'pids.json');

export function specs() {
  // OIDC_*: single sign-on against the provider the global setup starts (support/oidc.ts).
  return processSpecs({ ports: E2E_PORTS, dataDir, env: { REMOTES_MANIFEST: path.join(dataDir, 'remotes.json'), ...OIDC_ENV } }) as {
    name: string;
    ready: string;
  }[];
}

export function readPids(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(stateFile(), 'utf8'));
  } catch {
    return {};
  }
}

export function writePid(name: string, pid: number | undefined) {
  const pids = readPids();
  if (pid) pids[name] = pid;
  else delete pids[name];
  writeFileSync(stateFile(), JSON.stringify(pids));
}

/** Stops one process of the stack by the PID we started it with, and waits until it is gone. */
export async function stopService(name: string) {
  const pid = readPids()[name];
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  writePid(name, undefined);
}

/** Starts one process of the stack again; it outlives the test worker, so teardown stops it by PID. */
export async function startService(name: string) {
  const spec = specs().find((s) => s.name === name);
  if (!spec) throw new Error(`no such service ${name}`);
  const proc = await startProcess(spec, { logDir });
  proc.child.unref();
  writePid(name, proc.pid);
}
