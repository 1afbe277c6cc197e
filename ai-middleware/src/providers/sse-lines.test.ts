import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sseData } from './sse-lines.js';

async function collect(parts: string[]): Promise<string[]> {
  const bytes = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(bytes.encode(part));
      controller.close();
    },
  });
  const out: string[] = [];
  for await (const data of sseData(body)) out.push(data);
  return out;
}

test('one payload per event, whatever the line endings and wherever the chunks split', async () => {
  const text = 'data: {"a":1}\r\n\r\n: a comment\n\ndata: line one\ndata: line two\n\nevent: x\ndata:{"b":2}\r\rdata: last';
  const expected = ['{"a":1}', 'line one\nline two', '{"b":2}', 'last'];
  assert.deepEqual(await collect([text]), expected);
  // Split at every position, including between '\r' and '\n'.
  for (let i = 1; i < text.length; i++) assert.deepEqual(await collect([text.slice(0, i), text.slice(i)]), expected, `split at ${i}`);
});
