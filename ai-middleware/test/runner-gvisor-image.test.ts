// gVisor sandboxes restored from a checkpoint of a ready sandbox (gvisor-image.ts), on the real host
// (root, runsc). What must hold: the pool's sandboxes come from the image, each still draws its own
// random numbers, nothing one job does reaches the next job's sandbox, user code cannot reach the
// image, an image that cannot be restored costs only the speed, and a closed pool leaves nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type CodeRunner, createCodeRunner } from '../src/runner/code-runner.js';
import { gvisorHost } from '../src/runner/gvisor/gvisor-engine.js';
import { gvisorImage } from '../src/runner/gvisor/gvisor-image.js';
import { processesNaming } from '../src/runner/gvisor/gvisor-leftovers.js';
import type { GvisorHost } from '../src/runner/gvisor/gvisor-sandbox.js';

const CONFIG = { engine: 'gvisor' as const, timeoutMs: 20_000, memoryMb: 512, poolSize: 2 };
const CGROUPS = '/sys/fs/cgroup';
let host: GvisorHost;
let image: string;
let runner: CodeRunner;

before(async () => {
  const found = gvisorHost();
  assert.ok(!('refused' in found), 'refused' in found ? found.refused : '');
  host = found;
  runner = createCodeRunner(CONFIG);
  assert.equal((await runner.engine())?.name, 'gvisor', runner.status().reason);
  // The self-test made this process's image for this memory limit: the same promise, already settled.
  const made = await gvisorImage(host, CONFIG.memoryMb, 60_000);
  assert.ok(made, 'the image was made');
  image = made;
});
after(async () => {
  await runner?.close();
});

/** This process's sandbox cgroups, bundles, sandbox processes and runsc containers. */
function traces(): { cgroups: string[]; bundles: string[]; processes: number[]; containers: string[] } {
  const mine = new RegExp(`^tessera-${process.pid}-\\d+-[0-9a-f]{6}$`);
  const roots = [CGROUPS, ...readdirSync(CGROUPS).map((c) => path.join(CGROUPS, c))];
  const cgroups = roots.flatMap((dir) => {
    try {
      return readdirSync(dir).filter((name) => mine.test(name));
    } catch {
      return [];
    }
  });
  const list = execFileSync(host.runsc, ['--root', host.stateDir, 'list', '-quiet'], { encoding: 'utf8' });
  return { cgroups, bundles: readdirSync(host.bundlesDir), processes: processesNaming(host.bundlesDir), containers: list.split('\n').filter(Boolean) };
}

test('sandboxes restored from the same image draw different random numbers (random, numpy, uuid4)', async () => {
  const draws: unknown[] = [];
  for (let i = 0; i < 3; i++) {
    const out = await runner.run({
      headers: [],
      rows: [],
      code: 'import random, uuid\nresult = [random.random(), float(np.random.rand()), float(np.random.default_rng().random()), str(uuid.uuid4())]',
    });
    assert.equal(out.error, undefined);
    draws.push(out.result);
  }
  for (let k = 0; k < 4; k++) {
    const values = draws.map((d) => (d as unknown[])[k]);
    assert.equal(new Set(values).size, 3, `draw ${k} differs between sandboxes: ${JSON.stringify(values)}`);
  }
  const starts = runner.status().gvisorStarts;
  assert.equal(starts.fresh, 0, 'no sandbox of the pool started cold');
  assert.ok(starts.snapshot >= 3, `sandboxes restored from the image: ${starts.snapshot}`);
});

test("what one job does to its sandbox does not reach the next job's", async () => {
  const first = await runner.run({
    headers: ['Amount'],
    rows: [[2], [3]],
    code: [
      'import builtins, os, sys',
      "open('/tmp/left-behind', 'w').write('x')",
      "os.environ['LEFT_BEHIND'] = '1'",
      "builtins.tessera_left_behind = 'marker'",
      'pd.Series.sum = lambda self, *a, **k: -1',
      "sys.modules['json'] = None",
      'result = int(df["Amount"].sum())',
    ].join('\n'),
  });
  assert.equal(first.error, undefined);
  assert.equal(first.result, -1);
  const second = await runner.run({
    headers: ['Amount'],
    rows: [[4], [5]],
    code: [
      'import builtins, json, os',
      "result = [int(df['Amount'].sum()), os.path.exists('/tmp/left-behind'), 'LEFT_BEHIND' in os.environ,",
      "          hasattr(builtins, 'tessera_left_behind'), json.dumps([1])]",
    ].join('\n'),
  });
  assert.equal(second.error, undefined);
  assert.deepEqual(second.result, [9, false, false, false, '[1]']);
});

test('user code cannot reach the image: not seen inside, only root can enter its folder, unchanged after a job', async () => {
  const file = path.join(image, 'checkpoint.img');
  const before = readFileSync(file);
  assert.equal(statSync(host.imagesDir).mode & 0o777, 0o700);
  assert.equal(statSync(host.imagesDir).uid, 0);
  const out = await runner.run({
    headers: [],
    rows: [],
    code: [
      'import os',
      'tried = {}',
      `for what, path in [('write', ${JSON.stringify(file)}), ('folder', ${JSON.stringify(host.imagesDir)})]:`,
      '    try:',
      "        open(path, 'ab').write(b'x') if what == 'write' else os.listdir(path)",
      "        tried[what] = 'done'",
      '    except OSError as e:',
      '        tried[what] = type(e).__name__',
      'result = tried',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  // The sandbox's root is an empty read-only folder with /usr and /tmp: the host's /tmp is not there.
  assert.deepEqual(out.result, { write: 'FileNotFoundError', folder: 'FileNotFoundError' });
  assert.ok(readFileSync(file).equals(before), 'the image is unchanged');
});

test('an image that cannot be restored: the sandbox starts cold and the job runs; a closed pool leaves nothing', async () => {
  await runner.close();
  writeFileSync(path.join(image, 'checkpoint.img'), 'not an image');
  const fallback = createCodeRunner({ ...CONFIG, poolSize: 1 });
  try {
    const out = await fallback.run({ headers: ['a'], rows: [[1], [2]], code: 'result = int(df["a"].sum())' });
    assert.equal(out.error, undefined);
    assert.equal(out.result, 3);
    const starts = fallback.status().gvisorStarts;
    assert.equal(starts.snapshot, 0);
    assert.ok(starts.fresh >= 1);
  } finally {
    await fallback.close();
  }
  assert.deepEqual(traces(), { cgroups: [], bundles: [], processes: [], containers: [] });
});
