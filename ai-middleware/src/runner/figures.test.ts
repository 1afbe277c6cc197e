import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CODE_RUN_FIGURE_MAX_BYTES, CODE_RUN_MAX_FIGURES } from '@tessera/contracts';
import { checkedFigures } from './figures.js';

/** A PNG's signature and IHDR header of the given size (enough for the checks, which read no further). */
function pngHeader(width: number, height: number, padTo = 64): string {
  const png = Buffer.alloc(padTo);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
  png.writeUInt32BE(13, 8);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png.toString('base64');
}

test('figures a sandbox sends are checked as untrusted input: forged ones are left out and counted', () => {
  const good = pngHeader(640, 480);
  const out = checkedFigures([
    good,
    Buffer.from('<svg onload=alert(1)>').toString('base64'), // not a PNG
    'not base64 at all!',
    pngHeader(0, 10), // no size
    pngHeader(5000, 10), // past the side cap
    pngHeader(10, 10, CODE_RUN_FIGURE_MAX_BYTES + 1), // past the bytes cap
  ]);
  assert.deepEqual(out, { figures: [{ mime: 'image/png', data: good, width: 640, height: 480 }], figures_omitted: 5 });
});

test('past the count cap the rest are counted, with what the sandbox already left out', () => {
  const out = checkedFigures(Array.from({ length: CODE_RUN_MAX_FIGURES + 3 }, () => pngHeader(10, 10)), 2);
  assert.equal(out.figures?.length, CODE_RUN_MAX_FIGURES);
  assert.equal(out.figures_omitted, 5);
  assert.deepEqual(checkedFigures(undefined), {});
});
