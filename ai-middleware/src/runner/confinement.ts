import { accessSync, chmodSync, constants, cpSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How a code-runner child is confined (FACTS.md § Confining Pyodide, every layer verified):
 * a new session, network, PID and mount namespace (no network, no other process to signal; the
 * child dies with unshare, and unshare with the service), a root of its own that holds only
 * /usr, Node, Pyodide and the child script, read-only (a host Unix socket — a database's, say —
 * is not there to connect to: through `import js` a job reaches Node's net module, which the
 * permission model does not guard, and a network namespace does not hide pathname sockets),
 * the unprivileged user nobody with no way to regain privileges,
 * a 1280 MiB address-space limit (with the wasm trap handler off, Pyodide then raises a
 * clean MemoryError) and a CPU-time backstop, and Node's permission model reading only Pyodide and the child
 * script (no host files, no child processes, workers or addons).
 */

/** Below this Pyodide cannot start; with it, a memory bomb ends in MemoryError near 250–285 MB RSS. */
export const ADDRESS_SPACE_LIMIT_BYTES = 1_342_177_280;
const NOBODY = '65534';
const CPU_MARGIN_SECONDS = 60;
const TOOLS = ['setsid', 'unshare', 'setpriv', 'prlimit', 'sh', 'mount', 'mkdir', 'touch', 'ln', 'chroot'] as const;

export const CONFINEMENT_REQUIREMENTS =
  'The code runner refuses to run code unconfined. It needs root (CAP_SYS_ADMIN for the network, PID and mount ' +
  'namespaces, CAP_SETUID/CAP_SETGID to drop to nobody) and util-linux setsid, unshare, setpriv, prlimit and mount, ' +
  'sh, mkdir, touch, ln and chroot on PATH.';

/**
 * Run inside the new mount namespace as `sh -c ROOT_SCRIPT sh <chroot> <mount> <mkdir> <touch> <ln> <root>
 * <path>... -- <command>` (each tool by the path found on the service's PATH, as checked): a
 * fresh tmpfs over the (empty, host-side) root folder, each path bound read-only at the same
 * place inside it, the merged-/usr links, then the command chrooted there. The host's mounts are
 * not touched (the namespace's propagation is private), and they all go with the namespace.
 */
const ROOT_SCRIPT = [
  'set -e',
  'chroot=$1; mount=$2; mkdir=$3; touch=$4; ln=$5; root=$6; shift 6',
  '"$mount" -t tmpfs -o mode=755,size=1m tessera-runner "$root"',
  'while [ "$1" != -- ]; do',
  '  if [ -d "$1" ]; then "$mkdir" -p "$root$1"; else "$mkdir" -p "$root${1%/*}"; "$touch" "$root$1"; fi',
  '  "$mount" --bind "$1" "$root$1"',
  '  "$mount" -o remount,bind,ro "$root$1"',
  '  shift',
  'done',
  'shift',
  'for link in bin sbin lib lib64; do [ -e "$root/$link" ] || "$ln" -s "usr/$link" "$root/$link"; done',
  '"$mount" -o remount,ro "$root"',
  // The shell's own PWD would reach user code's environment: only PATH and LANG do.
  'unset PWD OLDPWD',
  'exec "$chroot" "$root" "$@"',
].join('\n');

let rootDir: string | undefined;
/** The empty folder each child's root is mounted over (inside its own namespace only); one per process. */
function childRootDir(): string {
  if (!rootDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-runner-root-'));
    chmodSync(dir, 0o755);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    rootDir = dir;
  }
  return rootDir;
}

/** What a child's root holds: /usr (with Node when it is Debian's), Node's own folder otherwise, Pyodide, the script's folder and the snapshot file. */
function childRootPaths(node: string, pyodide: string, script: string, snapshot: string | undefined): string[] {
  const paths = new Set(['/usr', '/etc/ld.so.cache']);
  if (!node.startsWith('/usr/')) paths.add(path.dirname(node));
  paths.add(pyodide);
  if (!script.startsWith(`${pyodide}/`)) paths.add(path.dirname(script));
  if (snapshot) paths.add(snapshot);
  return [...paths];
}

/** The child script: the same path from src/runner (tsx) and dist/runner (built). */
export const CHILD_SCRIPT = fileURLToPath(new URL('../../src/runner/child.mjs', import.meta.url));

/** Pyodide's folder, resolved through pnpm's symlinks: the permission model grants real paths. */
export function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return realpathSync(path.dirname(require.resolve('pyodide/package.json')));
}

/** Whether user nobody (not owner, not in the group) can reach and read `target`: the "others" bits all the way down. */
export function readableByOthers(target: string): boolean {
  let current = path.resolve(target);
  if (!(statSync(current).mode & (statSync(current).isDirectory() ? 0o005 : 0o004))) return false;
  while (current !== path.dirname(current)) {
    current = path.dirname(current);
    if (!(statSync(current).mode & 0o001)) return false;
  }
  return true;
}

let staged: { script: string; pyodide: string } | undefined;

/**
 * The child script and Pyodide where nobody can read them. A checkout under a private
 * folder (a mktemp -d of mode 0700, /root) is not: then both are copied once per process
 * into a fresh world-readable folder of the system's temp dir, removed at exit.
 */
export function childFiles(): { script: string; pyodide: string } {
  const script = realpathSync(CHILD_SCRIPT);
  const pyodide = pyodideDir();
  if (readableByOthers(script) && readableByOthers(pyodide)) return { script, pyodide };
  if (!staged) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-runner-'));
    chmodSync(dir, 0o755);
    cpSync(pyodide, path.join(dir, 'pyodide'), { recursive: true, dereference: true });
    cpSync(script, path.join(dir, 'child.mjs'));
    staged = { script: path.join(dir, 'child.mjs'), pyodide: path.join(dir, 'pyodide') };
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return staged;
}

/** The first executable `tool` in the folders of `searchPath` (a PATH value). */
export function findOnPath(tool: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, tool);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

export interface ChildCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * The command line of one child, or why this machine cannot confine one. The OS may
 * still refuse a layer at spawn (no namespaces in some containers): the pool reports
 * the child's own error then.
 */
export function confinedChildCommand(
  outputCapChars: number,
  timeoutMs: number,
  // Who and where this process is: the refusals depend on it (tests pass another identity).
  host: { platform: string; uid: number | undefined; path: string | undefined } = {
    platform: process.platform,
    uid: process.getuid?.(),
    path: process.env.PATH,
  },
  /** A Pyodide memory snapshot to start from (pyodide-snapshot.ts), read-only inside the child's root. */
  snapshot?: string,
): ChildCommand | { refused: string } {
  if (host.platform !== 'linux') return { refused: `${CONFINEMENT_REQUIREMENTS} This is ${host.platform}, not Linux.` };
  if (host.uid !== 0) return { refused: `${CONFINEMENT_REQUIREMENTS} This process runs as uid ${host.uid}.` };
  const searchPath = host.path ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  const tools: Record<string, string> = {};
  for (const tool of TOOLS) {
    const found = findOnPath(tool, searchPath);
    if (!found) return { refused: `${CONFINEMENT_REQUIREMENTS} ${tool} is not on PATH.` };
    tools[tool] = found;
  }
  const { script, pyodide } = childFiles();
  const node = realpathSync(process.execPath);
  // Inside the child's root only /usr and the bound folders exist: the tools run there by their real paths.
  const inside = (tool: string) => realpathSync(tool);
  return {
    command: tools.setsid,
    args: [
      // If the service dies, unshare gets SIGKILL and (--kill-child) takes the node child
      // with it: an endless loop must not outlive the parent that would have killed it.
      tools.setpriv, '--pdeathsig=KILL',
      tools.unshare, '--net', '--pid', '--mount', '--propagation=private', '--fork', '--kill-child',
      tools.sh, '-c', ROOT_SCRIPT, 'sh', tools.chroot, tools.mount, tools.mkdir, tools.touch, tools.ln, childRootDir(), ...childRootPaths(node, pyodide, script, snapshot), '--',
      // Changing the user clears --kill-child's parent-death signal: set it again after.
      inside(tools.setpriv), `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--no-new-privs', '--pdeathsig=KILL',
      // CPU seconds: a backstop only (the parent's wall-clock kill comes first); loading
      // Pyodide takes a few CPU seconds of its own, on several threads.
      inside(tools.prlimit), `--as=${ADDRESS_SPACE_LIMIT_BYTES}`, `--cpu=${Math.ceil(timeoutMs / 1000) + CPU_MARGIN_SECONDS}`,
      node, '--no-warnings', '--experimental-permission',
      // One flag per path: Node 20 refuses a comma list.
      `--allow-fs-read=${pyodide}`, `--allow-fs-read=${script}`, ...(snapshot ? [`--allow-fs-read=${snapshot}`] : []),
      '--disable-wasm-trap-handler',
      script, pyodide, String(outputCapChars), ...(snapshot ? [snapshot] : []),
    ],
    // Nothing of the service's environment (keys, database URLs) reaches user code.
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
  };
}
