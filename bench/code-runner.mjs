// Figures for the code runner's two engines. gVisor (issue 19): cold start of one sandbox,
// memory of a warm one, a small job from a warm pool end to end, a pandas groupby over a
// 100,000 × 10 sheet end to end, a Matplotlib chart to PNG, and the pool's refill rate. Pyodide (issue 7): spawn-to-ready
// of one child, a small job on a ready child, jobs with a 10,000 × 10 sheet, and what the 5th
// of 5 concurrent jobs waits with the default pool of 2. For gVisor starts, the sandbox's own CPU
// (its cgroup's) is printed beside the wall time: it does not depend on what else loads the machine.
// Real sandboxes and confined children
// (needs root, and runsc for the gVisor part); needs ai-middleware built (`npm run build`).
// BENCH_RUNNER_ONLY=pyodide leaves gVisor out, BENCH_RUNNER_ONLY=gvisor Pyodide.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'ai-middleware/dist/runner');
if (!existsSync(path.join(dist, 'code-runner.js'))) {
  console.error('code-runner: build ai-middleware first (npm run build)');
  process.exit(1);
}
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const { createCodeRunner } = await load('code-runner.js');
const { RunnerChild } = await load('runner-child.js');
const { confinedChildCommand } = await load('confinement.js');
const { gvisorHost } = await load('gvisor/gvisor-engine.js');
const { GvisorSandbox } = await load('gvisor/gvisor-sandbox.js');
// Absent from builds before checkpoint/restore (then only cold starts are measured).
const { gvisorImage } = existsSync(path.join(dist, 'gvisor/gvisor-image.js')) ? await load('gvisor/gvisor-image.js') : {};

const command = confinedChildCommand(100 * 1024, 30_000);
if ('refused' in command) {
  console.error(`code-runner: ${command.refused}`);
  process.exit(1);
}
const ms = (t0) => Math.round(performance.now() - t0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${median(xs)} ms (${xs.join(', ')})`;

/** Proportional memory (Pss) of a process and all its descendants, in MB. */
function treePssMb(roots) {
  const procs = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  const parent = new Map();
  for (const pid of procs) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {}
  }
  const tree = new Set(roots.map(String));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) if (tree.has(ppid) && !tree.has(pid)) (tree.add(pid), (grew = true));
  }
  let kb = 0;
  for (const pid of tree) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return Math.round(kb / 1024);
}
const namingPids = (text) =>
  readdirSync('/proc').filter((n) => {
    try {
      return /^\d+$/.test(n) && readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(text);
    } catch {
      return false;
    }
  });
/** CPU a sandbox's cgroup has used so far, in ms (cgroup v1 cpuacct, or v2). */
function sandboxCpuMs(id) {
  try {
    return Math.round(Number(readFileSync(`/sys/fs/cgroup/cpuacct/${id}/cpuacct.usage`, 'utf8')) / 1e6);
  } catch {
    try {
      return Math.round(Number(/^usage_usec (\d+)/m.exec(readFileSync(`/sys/fs/cgroup/${id}/cpu.stat`, 'utf8'))?.[1]) / 1e3);
    } catch {
      return NaN;
    }
  }
}
const load1 = () => os.loadavg()[0].toFixed(1);
const untilReady = async (runner, n = 1) => {
  while (runner.status().ready < n) await new Promise((r) => setTimeout(r, 20));
};

const gvHost = gvisorHost();
if (process.env.BENCH_RUNNER_ONLY === 'pyodide') {
  console.log('gVisor: not measured (BENCH_RUNNER_ONLY=pyodide)');
} else if ('refused' in gvHost) {
  console.log(`gVisor: not measured (${gvHost.refused})`);
} else {
  // G1. One sandbox alone, from `runsc run` to pandas imported, three times; its memory when warm.
  //     Then the image made once per process (a cold start and `runsc checkpoint`), and three
  //     sandboxes restored from it, each alone, to ready.
  const startsOf = async (label, options) => {
    const wall = [];
    const cpu = [];
    const memory = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const sandbox = new GvisorSandbox(gvHost, { memoryMb: 512, readyTimeoutMs: 120_000, outputCapChars: 100 * 1024, ...options });
      await sandbox.ready;
      wall.push(ms(t0));
      cpu.push(sandboxCpuMs(sandbox.id));
      memory.push(treePssMb(namingPids(path.join(gvHost.bundlesDir, sandbox.id))));
      sandbox.kill();
      await sandbox.exited;
    }
    console.log(`gVisor ${label}: wall ${fmt(wall)}; sandbox CPU ${fmt(cpu)} (load ${load1()})`);
    return memory;
  };
  const memory = await startsOf('cold start of one sandbox        ', {});
  console.log(`gVisor memory per warm sandbox (Pss): median ${median(memory)} MB (${memory.join(', ')})`);
  if (gvisorImage) {
    const t0 = performance.now();
    const image = await gvisorImage(gvHost, 512, 120_000);
    console.log(`gVisor image made once per process:  ${image ? `${ms(t0)} ms (load ${load1()})` : 'FAILED'}`);
    if (image) await startsOf('restore of one sandbox from image', { image });
  }

  const gv = createCodeRunner({ engine: 'gvisor', timeoutMs: 60_000, memoryMb: 1024, poolSize: 2 });
  try {
    // G2. A small job from a warm pool, end to end (its replacement starts warming meanwhile, as in use).
    const small = [];
    for (let i = 0; i < 5; i++) {
      await untilReady(gv, 2);
      const t0 = performance.now();
      const r = await gv.run({ code: 'result = sum(r[1] for r in rows)', headers: ['a', 'b'], rows: [['x', 1], ['y', 2]] });
      small.push(ms(t0));
      if (r.result !== 3) throw new Error(`gVisor small job: ${JSON.stringify(r)}`);
    }
    console.log(`gVisor small job from a warm pool:    ${fmt(small)}`);

    // G3. pandas groupby over a 100,000 × 10 sheet (a text key, 9 numbers), end to end: the sheet
    //     as JSON in, df built, the grouped table back as the grid.
    const headers = ['key', ...Array.from({ length: 9 }, (_, c) => `n${c}`)];
    const rows = Array.from({ length: 100_000 }, (_, r) => [`group ${r % 20}`, ...Array.from({ length: 9 }, (_, c) => r * 10 + c)]);
    const groupby = [];
    for (let i = 0; i < 3; i++) {
      await untilReady(gv, 2);
      const t0 = performance.now();
      const r = await gv.run({ code: "result = df.groupby('key').sum()", headers, rows });
      groupby.push(ms(t0));
      if (r.error || r.grid?.rows.length !== 20) throw new Error(`gVisor groupby: ${r.error}`);
    }
    console.log(`gVisor groupby, 100,000 × 10 sheet:   ${fmt(groupby)}`);

    // G3b. A Matplotlib bar chart of a small sheet, end to end: drawn, a 640 × 480 PNG back.
    const chart = [];
    let pngBytes = 0;
    for (let i = 0; i < 3; i++) {
      await untilReady(gv, 2);
      const t0 = performance.now();
      const r = await gv.run({
        code: "import matplotlib.pyplot as plt\ndf.groupby('key')['n0'].sum().plot.bar()\nplt.show()",
        headers,
        rows: rows.slice(0, 1000),
      });
      chart.push(ms(t0));
      if (r.error || r.figures?.length !== 1) throw new Error(`gVisor chart: ${r.error}`);
      pngBytes = Buffer.from(r.figures[0].data, 'base64').length;
    }
    console.log(`gVisor bar chart to PNG (1,000 rows): ${fmt(chart)}, ${Math.round(pngBytes / 1024)} KB`);

    // G4. Refill: both warm sandboxes taken at once; the time until two are warm again.
    await untilReady(gv, 2);
    await Promise.all([0, 1].map(() => gv.run({ code: '1', headers: [], rows: [] })));
    const t0 = performance.now();
    await untilReady(gv, 2);
    const refill = ms(t0);
    console.log(`gVisor pool refill, 2 sandboxes:      ${refill} ms (${(2000 / refill).toFixed(2)} sandboxes/s on ${os.cpus().length} cores, load ${load1()})`);
    if (gv.status().gvisorStarts) console.log(`gVisor pool starts: ${JSON.stringify(gv.status().gvisorStarts)}`);
  } finally {
    await gv.close();
  }
}

if (process.env.BENCH_RUNNER_ONLY === 'gvisor') process.exit(0);

// 1. One child alone, from spawn to Pyodide loaded, three times in a row, loading Pyodide fresh and
//    then from the runner's snapshot; then a small job on it while nothing else starts (the pool
//    below refills while a job runs).
async function oneChildAlone(childCommand) {
  const spawnTimes = [];
  const bare = [];
  const boots = new Set();
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const child = new RunnerChild(childCommand, { memoryMb: 256, readyTimeoutMs: 60_000 });
    await child.ready;
    spawnTimes.push(ms(t0));
    boots.add(child.boot);
    const t1 = performance.now();
    const outcome = await child.run({ code: 'result = sum(r[1] for r in rows)', headers: ['a', 'b'], rows: [['x', 1], ['y', 2]] }, 30_000);
    bare.push(ms(t1));
    if (outcome.kind !== 'done' || outcome.message.result !== 3) throw new Error(`bare job: ${JSON.stringify(outcome)}`);
    child.kill();
    await child.exited;
  }
  return { spawnTimes, bare, boots: [...boots].join(', ') };
}
const { pyodideSnapshot, SHARED_SNAPSHOT_FOLDER } = await load('pyodide-snapshot.js');
const { childFiles } = await load('confinement.js');
// Kept across processes (a restart, the next test file): made here only when no earlier process made it.
const sharedFolder = path.join(os.tmpdir(), SHARED_SNAPSHOT_FOLDER);
const wasKept = existsSync(sharedFolder) && readdirSync(sharedFolder).some((f) => f.endsWith('.snapshot'));
const tSnapshot = performance.now();
const snapshot = await pyodideSnapshot(childFiles().pyodide);
console.log(`Pyodide snapshot: ${snapshot ? `${wasKept ? 'kept by an earlier process, found' : 'made'} in ${ms(tSnapshot)} ms` : 'FAILED'}`);
const freshChild = await oneChildAlone(command);
console.log(`spawn to ready, one child, fresh load:  ${fmt(freshChild.spawnTimes)} (boot: ${freshChild.boots})`);
if (snapshot) {
  const fromSnapshot = await oneChildAlone(confinedChildCommand(100 * 1024, 30_000, undefined, snapshot));
  console.log(`spawn to ready, one child, snapshot:    ${fmt(fromSnapshot.spawnTimes)} (boot: ${fromSnapshot.boots})`);
}
console.log(`small job, one child, no refill:      ${fmt(freshChild.bare)}`);

// Waits until the pool has a child ready, so the next job measures the job only.
async function whenReady(runner) {
  while (runner.status().ready === 0) await new Promise((r) => setTimeout(r, 20));
}

const runner = createCodeRunner({ engine: 'pyodide', timeoutMs: 30_000, memoryMb: 256, poolSize: 1 });
try {
  // 2. A small job from a warm pool (its replacement starts warming meanwhile, as in use).
  const small = [];
  for (let i = 0; i < 5; i++) {
    await whenReady(runner);
    const t0 = performance.now();
    const r = await runner.run({ code: 'result = sum(r[1] for r in rows)', headers: ['a', 'b'], rows: [['x', 1], ['y', 2]] });
    small.push(ms(t0));
    if (r.result !== 3) throw new Error(`small job: ${JSON.stringify(r)}`);
  }
  console.log(`Pyodide small job from a warm pool:   ${fmt(small)}`);

  // 3. A 10,000 × 10 sheet in, a scalar out; and the same sheet in and back out as a grid.
  const headers = Array.from({ length: 10 }, (_, c) => `col${c}`);
  const rows = Array.from({ length: 10_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c === 0 ? `row ${r}` : r * 10 + c)));
  const sum = [];
  const echo = [];
  for (let i = 0; i < 3; i++) {
    await whenReady(runner);
    let t0 = performance.now();
    const a = await runner.run({ code: "result = sum(r['col1'] for r in records)", headers, rows });
    sum.push(ms(t0));
    if (a.error || typeof a.result !== 'number') throw new Error(`10k sum: ${a.error}`);
    await whenReady(runner);
    t0 = performance.now();
    const b = await runner.run({ code: 'result = {"headers": headers, "rows": rows}', headers, rows });
    echo.push(ms(t0));
    if (b.error || b.grid?.rows.length !== 10_000) throw new Error(`10k grid: ${b.error}`);
  }
  console.log(`10,000 × 10 sheet in, a sum out:      ${fmt(sum)}`);
  console.log(`10,000 × 10 sheet in, same grid out:  ${fmt(echo)}`);
} finally {
  await runner.close();
}

// 4. Five jobs at once on the default pool of 2 (warm): each one's time to its result.
const pool = createCodeRunner({ engine: 'pyodide', timeoutMs: 30_000, memoryMb: 256, poolSize: 2 });
try {
  while (pool.status().ready < 2) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const done = await Promise.all(
    Array.from({ length: 5 }, (_, i) => pool.run({ code: `result = ${i}`, headers: [], rows: [] }).then(() => ms(t0))),
  );
  console.log(`5 concurrent jobs, pool of 2 (warm):  ${done.sort((a, b) => a - b).join(', ')} ms (the 5th waits ${done[4]} ms)`);
} finally {
  await pool.close();
}
