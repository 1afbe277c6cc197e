import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPythonFunctions } from './python-functions.js';
import { findTypeScriptFunctions } from './typescript-functions.js';

test('python: defs with docstrings, comments, decorators, methods, multi-line signatures and one-liners', () => {
  const source = [
    'import math',
    '',
    '# Adds two numbers.',
    'def add(a, b):',
    '    return a + b',
    '',
    '@cache',
    'async def fetch(url: str,',
    '                timeout: int = 3) -> dict[str, int]:',
    '    """Fetch a URL.',
    '',
    '    Longer text that is not the summary.',
    '    """',
    '    if url:',
    '',
    '        return {}',
    '    return {"a": 1}',
    '',
    'class Shape:',
    "    def area(self): return 0",
    '',
    "    def name(self):",
    "        'The shape name.'",
    "        return 'shape'",
    'x = 1',
  ].join('\n');
  const found = findPythonFunctions(source);
  assert.deepEqual(
    found.map((f) => [f.name, f.line, f.description]),
    [
      ['add', 4, 'Adds two numbers.'],
      ['fetch', 8, 'Fetch a URL.'],
      ['area', 20, ''],
      ['name', 22, 'The shape name.'],
    ],
  );
  assert.equal(found[0].code, 'def add(a, b):\n    return a + b');
  assert.equal(found[1].code.split('\n')[0], '@cache');
  assert.equal(found[1].code.split('\n').at(-1), '    return {"a": 1}');
  assert.equal(found[2].code, '    def area(self): return 0');
  assert.equal(found[3].code.split('\n').length, 3);
});

test('typescript: declarations, arrows, JSDoc and // comments, braces inside strings, not plain expressions', () => {
  const source = [
    "import { x } from './x';",
    '',
    '/**',
    ' * Sums values.',
    ' *',
    ' * More detail.',
    ' * @param values the numbers',
    ' */',
    'export function sum(values: number[]): number {',
    "  const s = '}'; // a brace in a string",
    '  return values.reduce((a, b) => a + b, 0);',
    '}',
    '',
    '// Doubles a number.',
    'export const double = (n: number): number => n * 2;',
    '',
    'const shape = async <T,>(value: T): Promise<{ value: T }> => {',
    '  return { value: `${value}}` };',
    '};',
    '',
    'function typed(): { a: number } {',
    '  return { a: 1 };',
    '}',
    '',
    'const notAFunction = (1 + 2) * 3;',
    'const handler = function named() { return 1; };',
  ].join('\n');
  const found = findTypeScriptFunctions(source);
  assert.deepEqual(
    found.map((f) => [f.name, f.line, f.description]),
    [
      ['sum', 9, 'Sums values.'],
      ['double', 15, 'Doubles a number.'],
      ['shape', 17, ''],
      ['typed', 21, ''],
      ['handler', 26, ''],
    ],
  );
  assert.equal(found[0].code.split('\n').at(-1), '}');
  assert.equal(found[0].code.split('\n').length, 4);
  assert.equal(found[1].code, 'export const double = (n: number): number => n * 2;');
  assert.equal(found[2].code.split('\n').length, 3);
  assert.equal(found[3].code, 'function typed(): { a: number } {\n  return { a: 1 };\n}');
  assert.equal(found[4].code, 'const handler = function named() { return 1; }');
});
