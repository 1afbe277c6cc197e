// The parent enforces the time limit; if the service itself dies mid-job, its children
// must die with it rather than run user code (an endless loop) with nobody to kill them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const codeRunner = fileURLToPath(new URL('../src/runner/code-runner.ts', import.meta.url));

function parentOf(pid: number): number | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function descendants(root: number): number[] {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const found = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const pid of pids) {
      const ppid = parentOf(pid);
      if (ppid !== undefined && found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(root);
  return [...found];
}

const alive = (pid: number): boolean => parentOf(pid) !== undefined;

// Both engines: a Pyodide child (setsid, unshare, node) and a gVisor sandbox (runsc, its gofer, its kernel and stubs).
for (const engine of ['pyodide', 'gvisor'] as const) {
  test(`${engine}: when the service is killed mid-job, the child running the endless loop dies too`, { timeout: 180_000 }, async () => {
    const script = [
      `import { createCodeRunner } from ${JSON.stringify(codeRunner)};`,
      `const runner = createCodeRunner({ engine: "${engine}", timeoutMs: 600000, memoryMb: ${engine === 'gvisor' ? 512 : 256}, poolSize: 1 });`,
      // A child that cannot start must fail the test, not hang it.
      'for (let i = 0; runner.status().ready === 0; i++) { if (i > 1200) { console.log(JSON.stringify(runner.status())); process.exit(1); } await new Promise((r) => setTimeout(r, 50)); }',
      "void runner.run({ code: 'while True:\\n    pass', headers: [], rows: [] });",
      "setTimeout(() => console.log('running'), 500);",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const service = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [chunk] = (await once(service.stdout!, 'data')) as [Buffer];
      assert.equal(chunk.toString().trim(), 'running');
      const children = descendants(service.pid!);
      // setsid→unshare and the node inside, for the busy child and its warming replacement.
      assert.ok(children.length >= 2, `expected the runner's children, found ${children.length}`);
      service.kill('SIGKILL');
      await once(service, 'exit');
      for (let i = 0; i < 100 && children.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(children.filter(alive), []);
    } finally {
      service.kill('SIGKILL');
    }
  });
}
