import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { inflateExact, inflateLoose, looseSize } from './inflate.js';

// One zlib engine serves every call: each stream must come out whole and alone, whatever came before it.
const text = Buffer.from('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Ann <ann@x.test> 1700000000 +0000\n\nsome message\n');
const stream = deflateSync(text);

test('a stream inflates to its bytes, followed by anything (a pack holds the next entries after it)', () => {
  assert.ok(inflateExact(stream, text.length).equals(text));
  assert.ok(inflateExact(Buffer.concat([stream, Buffer.from('next entry')]), text.length).equals(text));
  assert.equal(inflateExact(deflateSync(Buffer.alloc(0)), 0).length, 0);
  const large = Buffer.alloc(300_000, 'abc');
  assert.ok(inflateExact(deflateSync(large), large.length).equals(large));
});

test('another size than announced, a damaged stream or a cut one is an error, and the next stream still inflates', () => {
  assert.throws(() => inflateExact(stream, text.length + 1), new RegExp(`inflates to ${text.length} bytes, its header says ${text.length + 1}`));
  assert.throws(() => inflateExact(stream, text.length - 1), new RegExp(`more than the ${text.length - 1} bytes`));
  const damaged = Buffer.from(stream);
  damaged[damaged.length - 2] ^= 0xff;
  assert.throws(() => inflateExact(damaged, text.length), /incorrect data check/);
  assert.ok(inflateExact(stream, text.length).equals(text));
  assert.throws(() => inflateExact(stream.subarray(0, stream.length - 8), text.length), /unexpected end of file/);
  assert.ok(inflateExact(stream, text.length).equals(text));
});

const loose = (type: string, content: Buffer, size = content.length) => deflateSync(Buffer.concat([Buffer.from(`${type} ${size}\0`), content]));

test('a loose object file: its type and content, whatever their size (the header inflates first, then the rest)', () => {
  for (const content of [Buffer.alloc(0), Buffer.from('hi\n'), Buffer.alloc(24, 'a'), Buffer.alloc(1000, 'xyz'), Buffer.alloc(200_000, 'big data ')]) {
    const object = inflateLoose(loose('blob', content));
    assert.equal(object?.type, 'blob');
    assert.ok(object.content.equals(content), `${content.length} bytes`);
  }
  assert.equal(inflateLoose(loose('commit', text))?.content.toString(), text.toString());
});

test('a loose object with another size than its header, a damaged stream, or no header is refused', () => {
  assert.throws(() => inflateLoose(loose('blob', Buffer.from('hello'), 3)), /more than the 3 bytes/);
  assert.throws(() => inflateLoose(loose('blob', Buffer.from('hello'), 9)), /inflates to 5 bytes, its header says 9/);
  const damaged = loose('blob', Buffer.alloc(1000, 'xyz'));
  damaged[damaged.length - 2] ^= 0xff;
  assert.throws(() => inflateLoose(damaged), /incorrect data check/);
  assert.throws(() => inflateLoose(Buffer.from('not zlib at all')), /incorrect header check/);
  assert.equal(inflateLoose(deflateSync(Buffer.alloc(100, 'a'))), null);
  // A size no deflate stream of these bytes can reach: not allocated.
  assert.equal(inflateLoose(deflateSync(Buffer.from(`blob ${2 ** 40}\0hello`))), null);
  assert.equal(inflateLoose(loose('tree', Buffer.from('x')))?.type, 'tree');
});

test('the size of a loose object comes from its header alone, and one its bytes cannot inflate to is none', () => {
  assert.equal(looseSize(loose('blob', Buffer.alloc(200_000, 'big data '))), 200_000);
  assert.equal(looseSize(loose('commit', text)), text.length);
  assert.equal(looseSize(deflateSync(Buffer.alloc(100, 'a'))), null);
  // As inflateLoose refuses it: a size beyond deflate's 1:1032 over the file's bytes.
  assert.equal(looseSize(deflateSync(Buffer.from(`blob ${2 ** 40}\0hello`))), null);
  assert.throws(() => looseSize(Buffer.from('not zlib at all')), /incorrect header check/);
});

test('a loose object larger than the first buffer comes out whole; a header announcing far more than its stream holds gets no buffer that size', () => {
  const large = Buffer.alloc(3 * 1024 * 1024 + 7, 'grow ');
  assert.ok(inflateLoose(loose('blob', large))?.content.equals(large));
  // 256 MB announced, within 1:1032 of the file's bytes (a short stream, then 300 KB of anything): only 5 bytes come out.
  const announced = 256 * 1024 * 1024;
  const file = Buffer.concat([deflateSync(Buffer.from(`blob ${announced}\0hello`)), Buffer.alloc(300_000)]);
  const before = process.memoryUsage().arrayBuffers;
  assert.throws(() => inflateLoose(file), new RegExp(`inflates to 5 bytes, its header says ${announced}`));
  assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024, 'not allocated at the announced size');
});
