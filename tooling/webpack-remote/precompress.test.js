import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { precompress } from './index.js';

/** JavaScript-like text of about `bytes`: repetitive enough to compress, random enough to be real work. */
function script(bytes) {
  const lines = [];
  for (let size = 0; size < bytes; ) {
    const line = `export function f_${crypto.randomBytes(4).toString('hex')}(a, b) { return a + b * ${size}; }\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(''));
}

test('the .br copy of an asset, small or over 2 MB (compressed at a lower quality), decodes to the asset and is smaller than its .gz', async () => {
  const [gzipPlugin, brotliPlugin] = precompress();
  const brotli = promisify(brotliPlugin.options.algorithm);
  const gzip = promisify(zlib.gzip);
  for (const asset of [script(20 * 1024), script(2.1 * 1024 * 1024)]) {
    const br = await brotli(asset, brotliPlugin.options.compressionOptions);
    assert.deepEqual(zlib.brotliDecompressSync(br), asset);
    assert.ok(br.length < (await gzip(asset, gzipPlugin.options.compressionOptions)).length, `${asset.length} bytes: .br ${br.length}`);
  }
});
