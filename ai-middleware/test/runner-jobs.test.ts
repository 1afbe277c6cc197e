// The code runner as Direct Exec uses it: real confined children (root needed, as on
// this machine and in the test run), one per job, from a pool of 2.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CODE_RUN_OUTPUT_CAP_CHARS, CODE_RUN_OUTPUT_TRUNCATED_MARKER } from '@tessera/contracts';
import { MEMORY_ERROR, createCodeRunner } from '../src/runner/code-runner.js';

const runner = createCodeRunner({ engine: 'pyodide', timeoutMs: 4000, memoryMb: 256, poolSize: 2 });
after(() => runner.close());

const sheet = {
  headers: ['Region', 'Amount'],
  rows: [
    ['North', 10],
    ['South', 5.5],
    ['North', 2],
  ],
};

test('a sum over a column: the code sees headers, rows and records', async () => {
  const out = await runner.run({
    ...sheet,
    code: "i = headers.index('Amount')\nresult = (sum(r[i] for r in rows), sum(r['Amount'] for r in records))",
  });
  assert.equal(out.error, undefined);
  assert.deepEqual(out.result, [17.5, 17.5]);
  assert.equal(out.grid, undefined); // a list of scalars stays a value
});

test('a returned list of dicts comes back as a grid with headers (the final expression counts)', async () => {
  const out = await runner.run({
    ...sheet,
    sheet_name: 'Ventes – Zürich',
    code: [
      'totals = {}',
      'for r in records:',
      "    totals[r['Region']] = totals.get(r['Region'], 0) + r['Amount']",
      "[{'Region': k, 'Total': v, 'Sheet': sheet['name']} for k, v in sorted(totals.items())]",
    ].join('\n'),
  });
  assert.equal(out.error, undefined);
  assert.deepEqual(out.grid, {
    headers: ['Region', 'Total', 'Sheet'],
    rows: [
      ['North', 12, 'Ventes – Zürich'],
      ['South', 5.5, 'Ventes – Zürich'],
    ],
    source: 'list_of_objects',
  });
});

test('prints become execution_output, cut with the marker past 100 KB', async () => {
  const out = await runner.run({ ...sheet, code: "print('rows:', len(rows), 'Zürich ✓')\nprint('x' * 200_000)\nresult = 'done'" });
  assert.equal(out.result, 'done');
  assert.ok(out.execution_output.startsWith('rows: 3 Zürich ✓\nxxx'));
  assert.ok(out.execution_output.endsWith(CODE_RUN_OUTPUT_TRUNCATED_MARKER));
  assert.equal(out.execution_output.length, CODE_RUN_OUTPUT_CAP_CHARS + CODE_RUN_OUTPUT_TRUNCATED_MARKER.length);
});

test("a Python exception: the traceback's last lines point into the user's code, prints kept", async () => {
  const out = await runner.run({ ...sheet, code: "print('before')\ndef f(x):\n    return x / 0\nf(1)" });
  assert.equal(out.execution_output, 'before\n');
  assert.equal(out.result, null);
  assert.match(out.error ?? '', /File "<code>", line 3, in f\n\s+return x \/ 0/);
  assert.match(out.error ?? '', /ZeroDivisionError: division by zero$/);
  assert.doesNotMatch(out.error ?? '', /_tessera_run/); // the runner's own frames are left out
});

test('an endless loop is killed at the time limit, and the next job still runs', async () => {
  const out = await runner.run({ ...sheet, code: 'while True:\n    pass' });
  assert.equal(out.error, 'Execution timed out after 4 s');
  const next = await runner.run({ ...sheet, code: 'len(rows)' });
  assert.equal(next.result, 3);
});

test('a memory bomb is stopped with a clear error', async () => {
  const out = await runner.run({ ...sheet, code: 'chunks = []\nwhile True:\n    chunks.append(bytearray(10_000_000))' });
  assert.equal(out.error, MEMORY_ERROR);
});

test('under a higher memory limit the address-space limit still ends a bomb in a clean MemoryError', async () => {
  // The RSS watchdog is set above what the 1280 MiB address space lets Pyodide reach.
  const roomy = createCodeRunner({ engine: 'pyodide', timeoutMs: 20_000, memoryMb: 1024, poolSize: 1 });
  try {
    const out = await roomy.run({
      ...sheet,
      code: 'chunks = []\ntry:\n    while True:\n        chunks.append(bytearray(10_000_000))\nexcept MemoryError:\n    print(\'MemoryError raised\')\n    raise',
    });
    assert.equal(out.execution_output, 'MemoryError raised\n');
    assert.equal(out.error, MEMORY_ERROR);
  } finally {
    await roomy.close();
  }
});

test('a child that dies mid-job gives a clear error, and the pool recovers', async () => {
  const out = await runner.run({ ...sheet, code: 'import js\njs.process.exit(3)' });
  assert.match(out.error ?? '', /^The code runner's process ended unexpectedly \(exit code 3\)/);
  const next = await runner.run({ ...sheet, code: "'alive'" });
  assert.equal(next.result, 'alive');
});

test("one job's monkeypatching does not leak into the next", async () => {
  const first = await runner.run({
    ...sheet,
    code: [
      'import builtins, json, pyodide_js, js',
      'builtins.sum = lambda *a, **k: -1',
      'json.dumps = lambda *a, **k: "{\\"result\\": \\"forged\\"}"',
      'js.globalThis.leaked = 1',
    ].join('\n'),
  });
  // json.dumps was patched inside that job: it forged only its own result.
  assert.equal(first.result, 'forged');
  const second = await runner.run({
    ...sheet,
    code: "import js\nresult = {'sum': sum([1, 2]), 'leaked': hasattr(js.globalThis, 'leaked')}",
  });
  assert.deepEqual(second.result, { sum: 3, leaked: false });
});

test('a malformed request is refused before it reaches a child', async () => {
  await assert.rejects(runner.run({ code: 1 } as never));
});
