import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeMessages, codeSystemPrompt } from './code-prompt.js';

const task = { instruction: 'totals by region', sheetName: 'S', headers: ['Region'], rows: [['North']], code: undefined, files: [], conversation: undefined };

test('the model is told what the live engine has: pandas & co. and df on gVisor, the standard library on Pyodide', () => {
  const gvisor = codeSystemPrompt({ name: 'gvisor', packages: { pandas: '1.5.3', numpy: '1.24.2', python: '3.11.2' } });
  assert.match(gvisor, /runs in CPython 3\.11\.2 with these packages: pandas, numpy/);
  assert.match(gvisor, /- df: a pandas DataFrame of the sheet/);
  assert.doesNotMatch(gvisor, /no numpy, no pandas/);
  assert.match(gvisor, /For a chart, draw it with matplotlib \(or seaborn\) and call plt\.show\(\): each figure is shown to the user as an image/);
  assert.doesNotMatch(codeSystemPrompt(), /plt\.show/);
  const pyodide = codeSystemPrompt({ name: 'pyodide', packages: {} });
  assert.match(pyodide, /Pyodide with the standard library only: no numpy, no pandas/);
  assert.doesNotMatch(pyodide, /DataFrame/);
  // Before the engine is chosen: the contract that runs on both.
  assert.equal(codeSystemPrompt(), pyodide);
  assert.match(codeMessages(task, { name: 'gvisor', packages: { pandas: '1.5.3' } })[0]!.content, /with these packages: pandas/);
});
