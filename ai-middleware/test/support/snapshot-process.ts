// A service process of its own for test/runner-snapshot.test.ts: starts a Pyodide runner, runs
// one job, and prints which snapshot its children used and how they started, as one JSON line.
import { createCodeRunner } from '../../src/runner/code-runner.js';
import { childFiles } from '../../src/runner/confinement.js';
import { pyodideSnapshot } from '../../src/runner/pyodide-snapshot.js';

const runner = createCodeRunner({ engine: 'pyodide', timeoutMs: 8000, memoryMb: 256, poolSize: 1 });
const out = await runner.run({ headers: ['a'], rows: [[1], [2]], code: 'result = sum(r[0] for r in rows)' });
// The pool does not wait for a snapshot being made; the report does: under load the job ends first.
const snapshot = (await pyodideSnapshot(childFiles().pyodide)) ?? null;
const starts = runner.status().pyodideStarts;
await runner.close();
process.stdout.write(`${JSON.stringify({ result: out.result ?? out.error, snapshot, starts })}\n`);
