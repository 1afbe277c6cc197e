// Issue 19's escape suite, run against the REAL engines: Debian's CPython in gVisor (runsc) and
// the Pyodide fallback. Each case is an attempt to get out; it must fail (with the job's error
// text, or by failing inside so that the output shows it), leave the host untouched, and the
// next job must still run. No database here: this file runs once in CI.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CodeRunRequest, CodeRunResult } from '@tessera/contracts';
import { CODE_RUN_OUTPUT_TRUNCATED_MARKER } from '@tessera/contracts';
import type { RunnerEngineChoice } from '../src/config.js';
import { type CodeRunner, MEMORY_ERROR, createCodeRunner, timeoutError } from '../src/runner/code-runner.js';
import { gvisorHost } from '../src/runner/gvisor/gvisor-engine.js';
import { madeGvisorImage } from '../src/runner/gvisor/gvisor-image.js';
import { GvisorSandbox } from '../src/runner/gvisor/gvisor-sandbox.js';

const TIMEOUT_MS = 4000;
/** Names the files and sockets this test makes. */
const marker = `tessera-escape-${randomBytes(6).toString('hex')}`;
/** What the host holds and no job may ever show: DATA_DIR's key, the service's environment, the servers' answers. */
const secret = `secret-${randomBytes(8).toString('hex')}`;
process.env.TESSERA_ESCAPE_SECRET = secret;

// The service's data: a DATA_DIR with a secret, world-readable (so only the sandbox keeps it out).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-escape-data-'));
chmodSync(dataDir, 0o755);
const secretFile = path.join(dataDir, 'keys.json');
writeFileSync(secretFile, JSON.stringify({ key: secret }), { mode: 0o644 });
const socketDir = mkdtempSync(path.join(os.tmpdir(), 'tessera-escape-sock-'));
chmodSync(socketDir, 0o777);
const socketPath = path.join(socketDir, 's.sock');
const hostWrites = [`/usr/lib/${marker}`, `/${marker}`, `/tmp/${marker}`];

let tcpHits = 0;
const tcpServer = createHttpServer((_req, res) => {
  tcpHits += 1;
  res.end(secret);
});
let unixHits = 0;
const unixServer = createNetServer((socket) => {
  unixHits += 1;
  socket.end(secret);
});
let port = 0;
let bystander: ChildProcess;

before(async () => {
  await new Promise<void>((resolve) => tcpServer.listen(0, '127.0.0.1', resolve));
  port = (tcpServer.address() as AddressInfo).port;
  await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
  chmodSync(socketPath, 0o777);
  bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
});
after(() => {
  bystander.kill('SIGKILL');
  tcpServer.close();
  unixServer.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(socketDir, { recursive: true, force: true });
  for (const file of hostWrites) rmSync(file, { force: true });
});

/** Each attempt in a list, as Python: its outcome ('ok: ...' or 'failed: Error...') in `result`. */
function attempts(lines: Record<string, string>): string {
  const out = ['tried = {}'];
  for (const [name, code] of Object.entries(lines)) {
    out.push('try:', `    tried[${JSON.stringify(name)}] = 'ok: ' + str(${code})`, 'except BaseException as e:', `    tried[${JSON.stringify(name)}] = 'failed: ' + type(e).__name__ + ' ' + str(e)`);
  }
  out.push('result = tried');
  return out.join('\n');
}

const empty = { headers: [], rows: [] };

function assertNothingLeaked(out: CodeRunResult): void {
  const text = JSON.stringify(out);
  assert.ok(!text.includes(secret), `the host's secret leaked: ${text.slice(0, 500)}`);
  assert.ok(!text.includes('root:x:0:0'), 'the contents of /etc/passwd leaked');
}

function tried(out: CodeRunResult): Record<string, string> {
  assert.equal(out.error, undefined, `the job failed: ${out.error}`);
  return out.result as Record<string, string>;
}

interface EscapeCase {
  name: string;
  code: () => string;
  /** Engines it means something for (default both). */
  engines?: RunnerEngineChoice[];
  /** Whether the case could break the runner itself: the next job is run right after it. */
  destructive?: boolean;
  check: (out: CodeRunResult, engine: RunnerEngineChoice) => void;
}

const cases: EscapeCase[] = [
  {
    name: 'read /etc/passwd',
    code: () => "open('/etc/passwd').read()",
    check: (out) => assert.match(out.error ?? '', /FileNotFoundError/),
  },
  {
    name: "read DATA_DIR's keys",
    code: () => `open(${JSON.stringify(secretFile)}).read()`,
    check: (out) => assert.match(out.error ?? '', /FileNotFoundError/),
  },
  {
    name: "/proc/1/environ shows nothing of the service's environment",
    engines: ['gvisor'], // Pyodide's env: test/runner-escapes.test.ts
    code: () => attempts({ environ: "open('/proc/1/environ').read()", self: "open('/proc/self/environ').read()" }),
    check: (out, engine) => {
      const t = tried(out);
      // Only the sandbox's own variables, set by the bundle.
      const names = t.environ.replace(/^ok: /, '').split('\0').filter(Boolean).map((v) => v.split('=')[0]).sort();
      assert.deepEqual(names, ['HOME', 'LANG', 'MATPLOTLIBRC', 'MPLBACKEND', 'MPLCONFIGDIR', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'PATH']);
    },
  },
  {
    name: 'connect to a TCP port of the host (127.0.0.1)',
    code: () => attempts({ tcp: `__import__('socket').create_connection(('127.0.0.1', ${port}), timeout=2).recv(100)` }),
    check: (out) => {
      assert.match(tried(out).tcp, /^failed: /);
      assert.equal(tcpHits, 0);
    },
  },
  {
    name: 'connect to a Unix socket of the host',
    code: () => attempts({ unix: `(lambda s: (s.connect(${JSON.stringify(socketPath)}), s.recv(100)))(__import__('socket').socket(__import__('socket').AF_UNIX))` }),
    check: (out) => {
      assert.match(tried(out).unix, /^failed: /);
      assert.equal(unixHits, 0);
    },
  },
  {
    // Pyodide's `js` reaches Node's net module, which neither the permission model nor the
    // network namespace guards for pathname sockets: only the child's own root hides them.
    name: "connect to a host Unix socket through `import js` (Node's net module)",
    engines: ['pyodide'],
    code: () =>
      [
        'import js',
        'from pyodide.ffi import create_once_callable, create_proxy',
        "net = js.process.getBuiltinModule('net')",
        'def attempt(resolve, reject):',
        `    s = net.connect(${JSON.stringify(socketPath)})`,
        "    s.on('connect', create_once_callable(lambda *a: resolve('connected')))",
        "    s.on('error', create_proxy(lambda e, *a: reject(e)))",
        'tried = {}',
        'try:',
        "    tried['unix'] = 'ok: ' + str(await js.Promise.new(create_once_callable(attempt)))",
        'except BaseException as e:',
        "    tried['unix'] = 'failed: ' + type(e).__name__ + ' ' + str(e)",
        'result = tried',
      ].join('\n'),
    check: (out) => {
      assert.match(tried(out).unix, /^failed: .*ENOENT/);
      assert.equal(unixHits, 0);
    },
  },
  {
    name: 'DNS lookup',
    engines: ['gvisor'], // Pyodide (Emscripten) makes up an address (172.29.x.x) without asking any server
    code: () => attempts({ dns: "__import__('socket').getaddrinfo('example.com', 80)" }),
    check: (out) => assert.match(tried(out).dns, /^failed: gaierror/),
  },
  {
    name: 'write outside /tmp (and /tmp is not the host\'s)',
    engines: ['gvisor'], // Pyodide writes to its in-memory files; its host writes: test/runner-escapes.test.ts
    code: () => attempts(Object.fromEntries(hostWrites.map((file) => [file, `open(${JSON.stringify(file)}, 'w').write('x')`]))),
    check: (out, engine) => {
      const t = tried(out);
      if (engine === 'gvisor') {
        assert.match(t[`/usr/lib/${marker}`], /^failed: PermissionError/);
        assert.match(t[`/${marker}`], /^failed: PermissionError/);
      }
      for (const file of hostWrites) assert.equal(existsSync(file), false, `${file} appeared on the host`);
    },
  },
  {
    name: 'fill /tmp',
    engines: ['gvisor'],
    code: () => attempts({ fill: "[open('/tmp/fill', 'ab').write(b'x' * 1_000_000) for _ in range(200)]" }),
    check: (out) => assert.match(tried(out).fill, /^failed: OSError \[Errno 28\] No space left on device/),
  },
  {
    name: 'fork bomb',
    engines: ['gvisor'], // Pyodide: test/runner-jobs.test.ts and test/runner-escapes.test.ts
    destructive: true,
    code: () =>
      [
        'import os, time',
        'n = 0',
        'try:',
        '    while n < 10_000:',
        '        if os.fork() == 0:',
        '            time.sleep(60)',
        '            os._exit(0)',
        '        n += 1',
        'except BaseException as e:',
        "    print('stopped:', type(e).__name__)",
        'result = n',
      ].join('\n'),
    // Stopped by the process limit, by the time limit (forking a process with pandas loaded is slow
    // in gVisor), or by the sandbox's memory limit (each fork holds its own copy of pandas' pages in
    // gVisor: on a quiet machine 30 forks reach the cgroup's limit before the clock does).
    // Never as the runner's process ended unexpectedly: the OOM killer's kill is read from the
    // memory cgroup the service keeps after the sandbox (a sandbox ended by it: below).
    check: (out) => {
      if (out.error !== undefined) return assert.ok([timeoutError(TIMEOUT_MS), MEMORY_ERROR].includes(out.error), out.error);
      assert.ok((out.result as number) < 64, `forked ${out.result} processes`);
      assert.match(out.execution_output, /^stopped: /);
    },
  },
  {
    name: 'allocate 4 GB',
    engines: ['gvisor'], // Pyodide: test/runner-jobs.test.ts and test/runner-escapes.test.ts
    destructive: true,
    code: () => 'x = bytearray(4 * 1024 ** 3)\nresult = len(x)',
    check: (out) => assert.equal(out.error, MEMORY_ERROR),
  },
  {
    name: 'loop forever',
    destructive: true,
    engines: ['gvisor'], // Pyodide's timeout: test/runner-jobs.test.ts
    code: () => 'while True:\n    pass',
    check: (out) => assert.equal(out.error, timeoutError(TIMEOUT_MS)),
  },
  {
    name: 'signal other processes (kill -9 -1, the service, a bystander)',
    engines: ['gvisor'], // Pyodide: test/runner-jobs.test.ts and test/runner-escapes.test.ts
    destructive: true,
    code: () =>
      attempts({
        all: "__import__('os').kill(-1, 9)",
        service: `__import__('os').kill(${process.pid}, 9)`,
        bystander: `__import__('os').kill(${bystander.pid}, 9)`,
      }),
    check: (out) => {
      // The job itself may be among what kill(-1) reaches: what matters is that nothing outside is.
      if (out.error === undefined) {
        const t = tried(out);
        assert.match(t.service, /^failed: /);
        assert.match(t.bystander, /^failed: /);
      }
      assert.equal(bystander.exitCode, null);
      assert.equal(bystander.signalCode, null);
    },
  },
  {
    name: 'ptrace a host process',
    engines: ['gvisor'], // no ctypes in Pyodide
    code: () => attempts({ ptrace: `__import__('ctypes').CDLL(None).ptrace(16, ${bystander.pid}, 0, 0)` }),
    check: (out, engine) => {
      const t = tried(out);
      if (engine === 'gvisor') assert.equal(t.ptrace, 'ok: -1'); // ESRCH: no such process in the sandbox
      else assert.match(t.ptrace, /^failed: /);
      const state = readFileSync(`/proc/${bystander.pid}/stat`, 'utf8').split(') ')[1]?.[0];
      assert.notEqual(state, 't', 'the bystander is being traced');
    },
  },
  {
    name: "read a previous job's /tmp files",
    code: () => `open('/tmp/${marker}-previous').read()`,
    check: (out) => assert.match(out.error ?? '', /FileNotFoundError/),
  },
];

// One pool per engine and job limit, shared by every case (pool size 2, as the default).
const runners: Record<string, CodeRunner> = {};
function runnerOf(engine: 'gvisor' | 'pyodide', timeoutMs = TIMEOUT_MS): CodeRunner {
  return (runners[`${engine} ${timeoutMs}`] ??= createCodeRunner({ engine, timeoutMs, memoryMb: engine === 'gvisor' ? 512 : 256, poolSize: 2 }));
}
/** The pandas jobs' limit: importing scipy alone takes seconds on a loaded 2-core machine; no case here is meant to time out. */
const PANDAS_TIMEOUT_MS = 60_000;
after(async () => {
  for (const runner of Object.values(runners)) await runner.close();
});

function describeEngine(engine: 'gvisor' | 'pyodide'): void {
  describe(`escapes against the ${engine} engine`, () => {
    let runner: CodeRunner;
    before(async () => {
      runner = runnerOf(engine);
      assert.equal((await runner.engine())?.name, engine, runner.status().reason);
      // The job that the last case tries to read back.
      const first = await runner.run({ ...empty, code: `open('/tmp/${marker}-previous', 'w').write('x')\nresult = 'written'` });
      assert.equal(first.result, 'written');
    });
    after(async () => {
      if (engine === 'pyodide') await runner.close(); // the gVisor pool serves the tests below too
    });

    for (const c of cases) {
      if (c.engines && !c.engines.includes(engine)) continue;
      test(c.name, async () => {
        const out = await runner.run({ ...empty, code: c.code() } as CodeRunRequest);
        c.check(out, engine);
        assertNothingLeaked(out);
        // Every case runs on a fresh worker of the same pool, so each case is also the previous one's "next job".
        if (c.destructive) {
          const next = await runner.run({ ...empty, code: '6 * 7' });
          assert.equal(next.result, 42, `the next job failed: ${next.error}`);
        }
      });
    }
  });
}

describeEngine('gvisor');
describeEngine('pyodide');

test('after every case, the gVisor pool still runs a job', async () => {
  const out = await runnerOf('gvisor').run({ ...empty, code: 'len(df.columns) + 42' });
  assert.equal(out.result, 42);
});

/** Host processes whose command line names `text`. */
function hostProcessesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('a gVisor sandbox leaves nothing behind', () => {
  const host = gvisorHost();
  const runsc = (...args: string[]) => {
    assert.ok(!('refused' in host));
    return execFileSync(host.runsc, ['--root', host.stateDir, ...args], { encoding: 'utf8' });
  };

  for (const [name, code, timeoutMs] of [
    ['a background process started by the job', "import subprocess\nresult = subprocess.Popen(['/bin/sh', '-c', 'sleep 300']).pid", 10_000],
    ['a job killed at the time limit', 'import os\nos.fork()\nwhile True:\n    pass', 1500],
  ] as const) {
    test(`${name}: no host process, no runsc state, no bundle`, async () => {
      assert.ok(!('refused' in host), 'refused' in host ? host.refused : '');
      // Restored from the image the gVisor pool above made, as the pool's own sandboxes are (a cold
      // sandbox's clean-up is the same code, seen in runner-gvisor-image.test.ts): 1.6 s of CPU, not 10.
      const image = madeGvisorImage(512);
      const sandbox = new GvisorSandbox(host, { memoryMb: 512, readyTimeoutMs: 60_000, outputCapChars: 10_000, ...(image ? { image } : {}) });
      const bundle = path.join(host.bundlesDir, sandbox.id);
      await sandbox.ready;
      assert.ok(hostProcessesNaming(bundle).length > 0, "the sandbox's processes name its bundle");
      const outcome = await sandbox.run({ ...empty, code }, timeoutMs);
      assert.equal(outcome.kind, timeoutMs < 5000 ? 'timeout' : 'done');
      sandbox.kill();
      await sandbox.exited;
      assert.deepEqual(hostProcessesNaming(bundle), []);
      assert.equal(existsSync(bundle), false);
      assert.doesNotMatch(runsc('list'), new RegExp(sandbox.id));
    });
  }
});

describe('a gVisor sandbox the OOM killer ends', () => {
  test('is told as out of memory though the service looks only once it is gone, and its cgroups are removed', async () => {
    const host = gvisorHost();
    assert.ok(!('refused' in host), 'refused' in host ? host.refused : '');
    const image = madeGvisorImage(512);
    const sandbox = new GvisorSandbox(host, { memoryMb: 512, readyTimeoutMs: 60_000, outputCapChars: 10_000, ...(image ? { image } : {}) });
    const bundle = path.join(host.bundlesDir, sandbox.id);
    await sandbox.ready;
    // Eight processes each fill memory up to their own address-space limit: together past the cgroup's.
    const code = [
      'import os, time',
      'for _ in range(8):',
      '    if os.fork() == 0:',
      '        held = []',
      '        try:',
      '            while True:',
      "                held.append(bytearray(b'\\x01') * (32 * 1024 * 1024))",
      '        except MemoryError:',
      '            time.sleep(60)',
      '        os._exit(0)',
      'time.sleep(60)',
    ].join('\n');
    const outcome = sandbox.run({ ...empty, code }, 60_000);
    // The service is busy (its event loop blocked) until the sandbox and runsc have ended: runsc
    // has then removed every cgroup it made, and the service has not looked at any meanwhile.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 1200 && hostProcessesNaming(bundle).length > 0; i++) Atomics.wait(pause, 0, 0, 50);
    assert.deepEqual(hostProcessesNaming(bundle), [], 'the sandbox has ended within 60 s');
    assert.deepEqual(await outcome, { kind: 'memory' });
    await sandbox.exited;
    // cgroup v1: one folder per controller; v2: one at the root.
    const cgroups = ['', ...readdirSync('/sys/fs/cgroup')].filter((c) => existsSync(path.join('/sys/fs/cgroup', c, sandbox.id)));
    assert.deepEqual(cgroups, [], "no cgroup of the sandbox's is left");
  });
});

describe('Python with pandas in gVisor: the sheet as df, a DataFrame as the grid', () => {
  let runner: CodeRunner;
  before(() => {
    runner = runnerOf('gvisor', PANDAS_TIMEOUT_MS);
  });
  const sales = {
    headers: ['Region', 'Amount', 'Units'],
    rows: [
      ['North', 10, '1,200'],
      ['South', 5.5, '3'],
      ['North', 2, ''],
    ],
  };

  test('df.groupby(...).sum() comes back as a grid: the keys a column, numbers (also "1,200") as numbers', async () => {
    const out = await runner.run({ ...sales, code: "result = df.groupby('Region')[['Amount', 'Units']].sum()" });
    assert.equal(out.error, undefined);
    assert.deepEqual(out.grid, {
      headers: ['Region', 'Amount', 'Units'],
      rows: [
        ['North', 12, 1200],
        ['South', 5.5, 3],
      ],
      source: 'headers_and_rows',
    });
  });

  test('result = df keeps the column order; the old variables are still there', async () => {
    const out = await runner.run({
      headers: ['Zeta', 'Alpha', 'Mid'],
      rows: [['z', 1, true], ['y', 2, false]],
      code: "assert headers == ['Zeta', 'Alpha', 'Mid'] and rows[0][0] == 'z' and records[1]['Alpha'] == 2\nresult = df",
    });
    assert.equal(out.error, undefined);
    assert.deepEqual(out.grid?.headers, ['Zeta', 'Alpha', 'Mid']);
    assert.deepEqual(out.grid?.rows, [['z', 1, true], ['y', 2, false]]);
  });

  test('df has the same types and values whether the code names rows or not (the sheet then goes as columns)', async () => {
    const mixed = {
      headers: ['Int', 'IntBlank', 'TextNumber', 'Flag', 'Mixed', 'Blank', 'Short'],
      rows: [
        [1, 1, '1,200', true, 1, null, 'a'],
        [2, null, '3.5', false, 'x', null],
        [3, 7, '', true, 2.5, null, 'b'],
      ],
    };
    const show = "print([str(t) for t in df.dtypes])\nprint(df.to_dict('list'))";
    const withColumns = await runner.run({ ...mixed, code: show });
    const withRows = await runner.run({ ...mixed, code: `n = len(rows)\n${show}` });
    assert.equal(withColumns.error, undefined);
    assert.equal(withRows.error, undefined);
    assert.equal(withColumns.execution_output, withRows.execution_output);
    assert.equal(
      withColumns.execution_output.split('\n')[0],
      "['int64', 'float64', 'float64', 'bool', 'object', 'object', 'object']",
    );
    assert.match(withColumns.execution_output, /'IntBlank': \[1\.0, nan, 7\.0\], 'TextNumber': \[1200\.0, 3\.5, nan\]/);
    assert.match(withColumns.execution_output, /'Short': \['a', None, 'b'\]/);
  });

  test("a traceback is trimmed to the user's code", async () => {
    const out = await runner.run({ ...sales, code: "print('before')\ndef total(frame):\n    return frame['Missing'].sum()\ntotal(df)" });
    assert.equal(out.execution_output, 'before\n');
    assert.match(out.error ?? '', /^Traceback \(most recent call last\):\n {2}File "<code>", line 4, in <module>\n/);
    assert.match(out.error ?? '', /File "<code>", line 3, in total\n\s+return frame\['Missing'\]\.sum\(\)/);
    assert.match(out.error ?? '', /KeyError: 'Missing'$/);
    assert.doesNotMatch(out.error ?? '', /pandas|bootstrap|<string>/);
  });

  test('prints are cut with the marker past the cap, numpy and scipy import', async () => {
    const out = await runner.run({ ...sales, code: "import numpy, scipy.stats\nprint('x' * 200_000)\nresult = float(numpy.mean(df['Amount']))" });
    assert.ok(out.execution_output.endsWith(CODE_RUN_OUTPUT_TRUNCATED_MARKER));
    assert.ok(Math.abs((out.result as number) - 17.5 / 3) < 1e-9);
  });
});
