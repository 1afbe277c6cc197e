// Each test is an escape that must fail (issue 7; FACTS.md § Confining Pyodide):
// Pyodide alone is not a sandbox, so every path out of Python is tried for real
// against a confined child.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createCodeRunner } from '../src/runner/code-runner.js';

const runner = createCodeRunner({ engine: 'pyodide', timeoutMs: 8000, memoryMb: 256, poolSize: 2 });
const empty = { headers: [], rows: [] };
const passwd = readFileSync('/etc/passwd', 'utf8');
const hostname = readFileSync('/etc/hostname', 'utf8').trim();

let connections = 0;
const server = createServer((_req, res) => {
  connections += 1;
  res.end('reached');
});
let port = 0;
let bystander: ChildProcess;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
});
after(async () => {
  bystander.kill('SIGKILL');
  server.close();
  await runner.close();
});

/** Nothing of a host file may appear anywhere in what a job returns. */
function assertNoHostFile(out: object): void {
  const text = JSON.stringify(out);
  assert.ok(!text.includes('root:x:0:0'), 'the contents of /etc/passwd leaked');
  if (hostname.length > 3) assert.ok(!text.includes(hostname), 'the contents of /etc/hostname leaked');
  assert.ok(passwd.length > 0);
}

test("Python's open('/etc/passwd') sees Pyodide's in-memory file system, not the host's", async () => {
  const out = await runner.run({ ...empty, code: "open('/etc/passwd').read()" });
  assert.match(out.error ?? '', /FileNotFoundError/);
  assertNoHostFile(out);
});

test('the JS Function constructor (pyodide_js.runPython.constructor) cannot read /etc/passwd or /etc/hostname', async () => {
  const out = await runner.run({
    ...empty,
    code: [
      'import pyodide_js',
      'Fn = pyodide_js.runPython.constructor',
      'found = {}',
      "for path in ['/etc/passwd', '/etc/hostname']:",
      '    try:',
      "        found[path] = Fn('p', 'return process.getBuiltinModule(\"fs\").readFileSync(p, \"utf8\")')(path)",
      '    except Exception as e:',
      "        found[path] = 'denied: ' + str(e)",
      'result = found',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  assert.match(String((out.result as Record<string, string>)['/etc/passwd']), /^denied: .*Access to this API has been restricted/);
  assert.match(String((out.result as Record<string, string>)['/etc/hostname']), /^denied: /);
  assertNoHostFile(out);
});

test('`import js; js.process` runs as nobody, with no secrets in its env, and cannot write files or spawn', async () => {
  const out = await runner.run({
    ...empty,
    code: [
      'import js',
      'p = js.process',
      "out = {'uid': p.getuid(), 'env': sorted(js.Object.keys(p.env).to_py())}",
      'attempts = {',
      "    'write': lambda: p.getBuiltinModule('fs').writeFileSync('/tmp/tessera-escape', 'x'),",
      "    'spawn': lambda: p.getBuiltinModule('child_process').execSync('id'),",
      "    'worker': lambda: js.eval('new (process.getBuiltinModule(\"worker_threads\").Worker)(\"1\", {eval: true})'),",
      "    'binding': lambda: p.binding('spawn_sync'),",
      '}',
      'for name, attempt in attempts.items():',
      '    try:',
      '        attempt()',
      "        out[name] = 'allowed'",
      '    except Exception as e:',
      "        out[name] = 'denied'",
      'result = out',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  assert.deepEqual(out.result, { uid: 65534, env: ['LANG', 'PATH'], write: 'denied', spawn: 'denied', worker: 'denied', binding: 'denied' });
});

test("os.system('ls') is denied (that Pyodide dies), and a fresh child takes the next job", async () => {
  const out = await runner.run({ ...empty, code: "import os\nos.system('ls /')" });
  assert.match(out.error ?? '', /Access to this API has been restricted/);
  assert.doesNotMatch(out.execution_output, /\bbin\b.*\betc\b/s);
  const next = await runner.run({ ...empty, code: '6 * 7' });
  assert.equal(next.result, 42);
});

test('subprocess cannot start a process', async () => {
  const out = await runner.run({ ...empty, code: "import subprocess\nsubprocess.run(['id'], capture_output=True).stdout" });
  assert.match(out.error ?? '', /OSError|not supported|restricted/);
});

test('no network: a socket and fetch to a loopback server both fail, and the server sees nothing', async () => {
  const out = await runner.run({
    ...empty,
    code: [
      'import js, socket',
      'tried = {}',
      'try:',
      `    socket.create_connection(('127.0.0.1', ${port}), timeout=2).sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')`,
      "    tried['socket'] = 'connected'",
      'except OSError as e:',
      "    tried['socket'] = 'failed: ' + str(e)",
      'try:',
      `    tried['fetch'] = await (await js.fetch('http://127.0.0.1:${port}/')).text()`,
      'except Exception as e:',
      "    tried['fetch'] = 'failed: ' + str(e) + ' ' + str(e.js_error.cause.code if hasattr(e, 'js_error') else '')",
      'result = tried',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  const tried = out.result as Record<string, string>;
  assert.match(tried.socket, /^failed: /);
  assert.match(tried.fetch, /^failed: .*ENETUNREACH/);
  assert.equal(connections, 0);
});

test('process.kill cannot reach the parent or any other host process', async () => {
  const out = await runner.run({
    ...empty,
    code: [
      'import js',
      'tried = {}',
      `for name, pid in [('parent', ${process.pid}), ('bystander', ${bystander.pid})]:`,
      '    try:',
      "        js.process.kill(pid, 'SIGKILL')",
      "        tried[name] = 'killed'",
      '    except Exception as e:',
      "        tried[name] = 'failed: ' + str(e)",
      'result = tried',
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  const tried = out.result as Record<string, string>;
  assert.match(tried.parent, /^failed: .*ESRCH/); // its own PID namespace: no host PID exists there
  assert.match(tried.bystander, /^failed: .*ESRCH/);
  assert.equal(bystander.exitCode, null);
  assert.equal(bystander.signalCode, null);
});
