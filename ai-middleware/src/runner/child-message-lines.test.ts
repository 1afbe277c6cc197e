import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChildMessageLines } from './child-message-lines.js';
import type { ChildMessage } from './child-message.schema.js';

function reader(maxBytes?: number) {
  const messages: ChildMessage[] = [];
  let tooLarge = 0;
  const lines = new ChildMessageLines((m) => messages.push(m), () => tooLarge++, maxBytes);
  return { lines, messages, tooLarge: () => tooLarge };
}

const done = (output: string) => JSON.stringify({ tessera: 1, type: 'done', output, truncated: false });

test("a child's messages are read whole across chunks; what user code prints around them is passed over", () => {
  const { lines, messages } = reader();
  const line = done('héllo');
  lines.push('print from user code\n{"tessera":1,"type":"ready","boot":"fresh"}\n{not json}\n');
  lines.push(line.slice(0, 10));
  lines.push(line.slice(10, 25));
  lines.push(`${line.slice(25)}\n{"tessera":1,"type":"done"}\n`);
  assert.deepEqual(messages, [
    { tessera: 1, type: 'ready', boot: 'fresh' },
    { tessera: 1, type: 'done', output: 'héllo', truncated: false },
  ]);
});

test('a line not ended yet is not read', () => {
  const { lines, messages } = reader();
  lines.push(done('x'));
  assert.equal(messages.length, 0);
  lines.push('\n');
  assert.equal(messages.length, 1);
});

test('past the byte bound nothing more is read and the job is told', () => {
  const { lines, messages, tooLarge } = reader(100);
  lines.push('x'.repeat(60));
  assert.equal(tooLarge(), 0);
  // The result line that crosses the bound is never parsed, even once it ends.
  lines.push(`${done('y'.repeat(30))}\n`);
  assert.equal(tooLarge(), 1);
  assert.deepEqual(messages, []);
});
