import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiteralDict, literalToJson, readLiteral } from './python-literal.js';

const read = (text: string) => {
  const out = readLiteral(text, 0);
  return 'value' in out ? literalToJson(out.value) : undefined;
};

test("what print() shows of lists, tuples and dicts reads as their values", () => {
  assert.deepEqual(read("[['a', 1], ('b', 2.5,), [None, True, False]]"), [['a', 1], ['b', 2.5], [null, true, false]]);
  assert.deepEqual(read("{'k': [1, -2, 3e2], 2: 'two'}"), { k: [1, -2, 300], '2': 'two' });
  assert.deepEqual(read('[{"a": null, "b": true}]'), [{ a: null, b: true }]);
  assert.deepEqual(read('[inf, -inf, nan]'), [null, null, null]);
});

test("string escapes as Python writes them: quotes, \\n, \\x, \\u, \\U", () => {
  assert.deepEqual(read(`["it's", 'say "hi"', 'a\\'b', 'tab\\there', '\\xe9\\u00e9\\U0001F600']`), [
    "it's",
    'say "hi"',
    "a'b",
    'tab\there',
    'éé😀',
  ]);
});

test('a dict keeps its keys in printed order, numbers included', () => {
  const out = readLiteral("{'Doctor ID': 'D1', 1: 'M', 2: 'N'}", 0);
  assert.ok('value' in out && out.value instanceof LiteralDict);
  assert.deepEqual(
    out.value.entries.map(([k]) => k),
    ['Doctor ID', '1', '2'],
  );
});

test('pprint over several lines reads whole, and says where it ends', () => {
  const text = "[['Doctor ID', 1],\n ['D1', 'M']]\nafter";
  const out = readLiteral(text, 0);
  assert.ok('value' in out);
  assert.equal(text.slice(out.end), '\nafter');
});

test('calls, sets, expressions and unclosed text are no literal (nothing is evaluated)', () => {
  for (const text of ['[datetime.date(2024, 1, 1)]', '{1, 2}', '[1 + 2]', "[__import__('os')]", '[1, 2', "['open", '[INFO] solving']) {
    const out = readLiteral(text, 0);
    assert.ok('failedAt' in out, text);
  }
  assert.ok('failedAt' in readLiteral('['.repeat(100) + ']'.repeat(100), 0), 'nesting past 64 levels');
});
