// One confined code-runner child: loads Pyodide, says it is ready, runs ONE job read
// from stdin, writes its outcome to stdout and exits. The parent (code-runner.ts) starts
// it inside namespaces, as nobody, under Node's permission model and an address-space
// limit, and kills it after the job: Pyodide itself is not a sandbox (FACTS.md § AI).
//
// Plain JavaScript on purpose: it runs under `node --experimental-permission` with read
// access to this file and the Pyodide folder only, so no loader (tsx) can run here.
//
// Protocol: every message is one line of JSON on stdout with `"tessera": 1`;
//   {tessera, type: 'ready', boot}                 once Pyodide is loaded (boot: 'snapshot' | 'fresh')
//   {tessera, type: 'done', output, truncated, result?, error?}   after the job
// stdin carries one line: {code, headers, rows, sheet_name}.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const pyodideDir = process.argv[2];
const outputCap = Number(process.argv[3]);
const snapshotFile = process.argv[4];

// Pyodide asks for process.binding("constants") at load, which the permission model
// refuses; hand out that one name and keep refusing every other one (FACTS.md).
process.binding = (name) => {
  if (name === 'constants') return { fs: fs.constants };
  throw new Error(`process.binding("${name}") is not available in the code runner`);
};

function send(message) {
  // One write per message: the parent splits on newlines.
  fs.writeSync(1, `${JSON.stringify({ tessera: 1, ...message })}\n`);
}

// What user code prints (stdout and stderr, interleaved as a terminal shows them),
// kept up to the cap; the parent adds the truncation marker.
let output = '';
let truncated = false;
const decoder = new TextDecoder();
function collect(bytes) {
  if (!truncated) {
    output += decoder.decode(bytes, { stream: true });
    if (output.length > outputCap) {
      output = output.slice(0, outputCap);
      truncated = true;
    }
  }
  return bytes.length;
}

// The Python side of a job: builds the sheet's values, runs the code as a script in its
// own namespace (the value of a final expression counts when `result` is not assigned),
// and turns the outcome into JSON. Tracebacks start at the user's code.
const DRIVER = String.raw`
import ast, inspect, json, linecache, math, sys, traceback

def _tessera_jsonable(value, depth=0):
    if depth > 64:
        return str(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**53 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _tessera_jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset, range)):
        return [_tessera_jsonable(v, depth + 1) for v in value]
    if hasattr(value, 'isoformat'):
        return value.isoformat()
    try:
        import decimal, fractions
        if isinstance(value, (decimal.Decimal, fractions.Fraction)):
            return float(value)
    except Exception:
        pass
    return str(value)

async def _tessera_run(code, sheet_json):
    sheet = json.loads(sheet_json)
    headers = [str(h) for h in sheet['headers']]
    rows = sheet['rows']
    width = len(headers)
    records = [dict(zip(headers, list(r[:width]) + [None] * (width - len(r)))) for r in rows]
    ns = {
        '__name__': '__main__',
        'headers': headers,
        'rows': rows,
        'records': records,
        'sheet': {'name': sheet.get('name'), 'headers': headers, 'rows': rows},
    }
    linecache.cache['<code>'] = (len(code), None, code.splitlines(True), '<code>')
    try:
        tree = ast.parse(code, '<code>', 'exec')
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        # Top-level await is allowed, as in Pyodide's own runPythonAsync.
        body = eval(compile(tree, '<code>', 'exec', flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT), ns)
        if inspect.iscoroutine(body):
            await body
        value = eval(compile(last, '<code>', 'eval', flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT), ns) if last is not None else None
        if inspect.iscoroutine(value):
            value = await value
        result = ns['result'] if 'result' in ns else value
        return json.dumps({'result': _tessera_jsonable(result)})
    except BaseException as e:
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != '<code>':
            tb = tb.tb_next
        text = ''.join(traceback.format_exception(type(e), e, tb))
        kind = 'memory' if isinstance(e, MemoryError) else 'python'
        return json.dumps({'error': {'kind': kind, 'message': text}})
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
`;

async function readJob() {
  const parts = [];
  process.stdin.setEncoding('utf8'); // characters split across chunks decode whole
  for await (const chunk of process.stdin) {
    // Look for the line end in the new chunk only: a sheet can be many megabytes.
    const end = chunk.indexOf('\n');
    if (end >= 0) return JSON.parse(parts.join('') + chunk.slice(0, end));
    parts.push(chunk);
  }
  throw new Error('stdin closed before a job arrived');
}

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, 'pyodide.mjs')).href);
const options = { indexURL: `${pyodideDir}/`, stdout: () => {}, stderr: () => {} };
// From the service's snapshot of a freshly loaded Pyodide when it names one (a quarter of the
// CPU of a load), else, or if it cannot be restored, a fresh load.
let boot = 'fresh';
let pyodide;
if (snapshotFile) {
  try {
    pyodide = await loadPyodide({ ...options, _loadSnapshot: fs.readFileSync(snapshotFile) });
    boot = 'snapshot';
  } catch {
    pyodide = undefined;
  }
}
pyodide ??= await loadPyodide(options);
// A snapshot carries the state `random` was seeded with when it was made: every child started
// from it would draw the same numbers. Seeded again here from the OS (crypto.getRandomValues).
pyodide.runPython('import random\nrandom.seed()');
pyodide.setStdout({ write: collect });
pyodide.setStderr({ write: collect });
pyodide.runPython(DRIVER);
const run = pyodide.globals.get('_tessera_run');
// One warm-up job through the same path before saying ready: without it the first job
// on a fresh child took 140–320 ms instead of about 10 ms (measured; bench/code-runner.mjs).
await run('result = sum(r[0] for r in rows)', JSON.stringify({ name: null, headers: ['a'], rows: [[1]] }));
output = '';
send({ type: 'ready', boot });

// A denied call kills that Pyodide instance (a "fatal error") and may surface as an
// unhandled rejection from the job's coroutine: it still ends the job with its message.
let finished = false;
function finish(outcome) {
  if (finished) return;
  finished = true;
  output += decoder.decode();
  send({ type: 'done', output, truncated, ...outcome });
  process.exit(0);
}
function failure(err) {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const kind = /out of memory|MemoryError|Cannot allocate|RangeError: .*[Mm]emory/.test(message) ? 'memory' : 'fatal';
  return { error: { kind, message } };
}
process.on('uncaughtException', (err) => finish(failure(err)));
process.on('unhandledRejection', (err) => finish(failure(err)));

const job = await readJob();
try {
  const sheetJson = JSON.stringify({ name: job.sheet_name ?? null, headers: job.headers, rows: job.rows });
  finish(JSON.parse(await run(job.code, sheetJson)));
} catch (err) {
  // Pyodide itself failed (a denied call, a fatal error, wasm out of memory): the message is all there is.
  finish(failure(err));
}
