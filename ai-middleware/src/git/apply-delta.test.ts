import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDelta } from './object-reader.js';

// Git's delta: base size, result size (varints), then copy (0x80 | which offset/size bytes follow) and insert (length 1–127) instructions.
const base = Buffer.from('0123456789'.repeat(20)); // 200 bytes: a long copy goes through the block path, a short one byte by byte

test('a delta rebuilds the object from copies of its base and inserted bytes', () => {
  const delta = Buffer.from([
    200, 1, // base size 200 (varint: 0xc8 0x01)
    3 + 100 + 4, // result size 107
    0x80 | 0x01 | 0x10, 2, 3, // copy 3 bytes from offset 2
    4, ...Buffer.from('abcd'), // insert 4 bytes
    0x80 | 0x01 | 0x10, 10, 100, // copy 100 bytes from offset 10
  ]);
  assert.equal(applyDelta(base, delta).toString(), `234abcd${base.toString('latin1', 10, 110)}`);
});

test('a delta that reads past its base or writes past its announced size is refused', () => {
  assert.throws(() => applyDelta(base, Buffer.from([200, 1, 5, 0x80 | 0x01 | 0x10, 198, 5])), /out of bounds/);
  assert.throws(() => applyDelta(base, Buffer.from([200, 1, 2, 3, 0x61, 0x62, 0x63])), /out of bounds/);
  assert.throws(() => applyDelta(base, Buffer.from([199, 1, 0])), /base size/);
});
