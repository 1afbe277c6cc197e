// Pyodide children start from a snapshot of a freshly loaded Pyodide (pyodide-snapshot.ts):
// real confined children (root needed, as for the runner's other tests). What must hold: jobs
// give the same answers, nothing one job does to its interpreter reaches the next, user code
// cannot change the snapshot, and a snapshot that cannot be restored costs only the speed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CODE_RUN_OUTPUT_CAP_CHARS } from '@tessera/contracts';
import { type CodeRunner, createCodeRunner } from '../src/runner/code-runner.js';
import { childFiles, confinedChildCommand } from '../src/runner/confinement.js';
import { SHARED_SNAPSHOT_FOLDER, pyodideSnapshot } from '../src/runner/pyodide-snapshot.js';

const CONFIG = { engine: 'pyodide' as const, timeoutMs: 8000, memoryMb: 256, poolSize: 2 };
let snapshot: string;
let runner: CodeRunner;

before(async () => {
  // The same snapshot the runner uses (one per process): made before the runner starts, every child of it starts from it.
  const made = await pyodideSnapshot(childFiles().pyodide);
  assert.ok(made, 'the snapshot was made');
  snapshot = made;
  runner = createCodeRunner(CONFIG);
});
after(async () => {
  await runner?.close();
});

test("children start from the snapshot; what one job does to its Python does not reach the next job's", async () => {
  const first = await runner.run({
    headers: ['Amount'],
    rows: [[2], [3]],
    code: [
      'import builtins, sys',
      'total = sum(r[0] for r in rows)',
      'builtins.len = lambda x: -1',
      "sys.modules['json'] = None",
      "builtins.tessera_left_behind = 'marker'",
      'result = total',
    ].join('\n'),
  });
  assert.equal(first.error, undefined);
  assert.equal(first.result, 5);
  const second = await runner.run({
    headers: ['Amount'],
    rows: [[4]],
    code: "import builtins, json\nresult = [len([1, 2, 3]), json.dumps(rows), hasattr(builtins, 'tessera_left_behind')]",
  });
  assert.equal(second.error, undefined);
  assert.deepEqual(second.result, [3, '[[4]]', false]);
  const starts = runner.status().pyodideStarts;
  assert.equal(starts.fresh, 0);
  assert.ok(starts.snapshot >= 2, `children started from the snapshot: ${starts.snapshot}`);
});

test("children from the same snapshot draw different random numbers (and uuid4s)", async () => {
  const draws = [];
  for (let i = 0; i < 3; i++) {
    const out = await runner.run({ headers: [], rows: [], code: 'import random, uuid\nresult = [random.random(), random.randint(0, 10**9), str(uuid.uuid4())]' });
    assert.equal(out.error, undefined);
    draws.push(out.result as unknown[]);
  }
  assert.ok(runner.status().pyodideStarts.snapshot >= 3);
  for (const column of [0, 1, 2]) {
    assert.equal(new Set(draws.map((d) => d[column])).size, 3, `column ${column}: ${JSON.stringify(draws)}`);
  }
});

test('user code can read the snapshot file but not change it', async () => {
  const before = readFileSync(snapshot);
  const out = await runner.run({
    headers: [],
    rows: [],
    code: [
      'import js',
      "fs = js.process.getBuiltinModule('fs')",
      'out = {}',
      'try:',
      `    fs.writeFileSync(${JSON.stringify(snapshot)}, 'x')`,
      "    out['write'] = 'allowed'",
      'except Exception:',
      "    out['write'] = 'denied'",
      'try:',
      `    fs.renameSync(${JSON.stringify(snapshot)}, ${JSON.stringify(`${snapshot}.moved`)})`,
      "    out['rename'] = 'allowed'",
      'except Exception:',
      "    out['rename'] = 'denied'",
      'result = out',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  assert.deepEqual(out.result, { write: 'denied', rename: 'denied' });
  assert.ok(readFileSync(snapshot).equals(before), 'the snapshot is unchanged');
});

interface ProcessReport {
  result: unknown;
  snapshot: string | null;
  starts: { snapshot: number; fresh: number };
}

/** Another service process (test/support/snapshot-process.ts) with TMPDIR set: one job, and what its children started from. */
function serviceProcess(tmpdir = os.tmpdir()): Promise<ProcessReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'snapshot-process.ts')],
      { env: { ...process.env, TMPDIR: tmpdir }, timeout: 120_000 },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ProcessReport)),
    );
  });
}

test("the snapshot is kept for the service's next process: its first child starts from it, nothing is made again", async () => {
  assert.equal(path.dirname(snapshot), path.join(os.tmpdir(), SHARED_SNAPSHOT_FOLDER));
  const folder = statSync(path.dirname(snapshot));
  assert.equal(folder.mode & 0o777, 0o755);
  assert.equal(folder.uid, process.getuid?.());
  const madeAt = statSync(snapshot).mtimeMs;
  const next = await serviceProcess();
  assert.equal(next.result, 3);
  assert.equal(next.snapshot, snapshot);
  assert.deepEqual(next.starts, { snapshot: 1, fresh: 0 });
  assert.equal(statSync(snapshot).mtimeMs, madeAt, 'not made again');
});

test('a shared folder that others can write is not used: the process keeps a private snapshot', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tessera-unsafe-tmp-'));
  try {
    const unsafe = path.join(tmp, SHARED_SNAPSHOT_FOLDER);
    mkdirSync(unsafe);
    chmodSync(unsafe, 0o777);
    // What someone else left there for the service to load: never read.
    writeFileSync(path.join(unsafe, path.basename(snapshot)), 'planted', { mode: 0o644 });
    const report = await serviceProcess(tmp);
    assert.equal(report.result, 3);
    assert.ok(report.snapshot, 'a snapshot was made');
    assert.ok(!report.snapshot.startsWith(unsafe), report.snapshot);
    assert.equal(readFileSync(path.join(unsafe, path.basename(snapshot)), 'utf8'), 'planted');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a snapshot that cannot be restored: the child loads Pyodide fresh and the job runs', async () => {
  const broken = path.join(os.tmpdir(), `tessera-broken-snapshot-${process.pid}`);
  writeFileSync(broken, 'not a snapshot', { mode: 0o644 });
  const command = confinedChildCommand(CODE_RUN_OUTPUT_CAP_CHARS, CONFIG.timeoutMs, undefined, broken);
  assert.ok(!('refused' in command));
  const fallback = createCodeRunner({ ...CONFIG, poolSize: 1 }, { command });
  try {
    const out = await fallback.run({ headers: ['a'], rows: [[1], [2]], code: 'result = sum(r[0] for r in rows)' });
    assert.equal(out.error, undefined);
    assert.equal(out.result, 3);
    assert.equal(fallback.status().pyodideStarts.snapshot, 0);
    assert.ok(fallback.status().pyodideStarts.fresh >= 1);
  } finally {
    await fallback.close();
  }
});
