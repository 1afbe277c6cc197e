import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { inflateExact } from './inflate.js';

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
