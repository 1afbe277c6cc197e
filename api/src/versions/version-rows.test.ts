import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RebuiltChunks } from './version-rebuild.js';
import { chunkedRowsText, rowsOfChunks, VersionRowsCache } from './version-rows.js';

/** A version of `rows` one-cell rows in chunks of `chunk` rows, as rebuildChunks gives it. */
function version(rows: number, chunk: number, tag = 'r'): RebuiltChunks {
  const chunks: string[] = [];
  const sizes: number[] = [];
  for (let first = 0; first < rows; first += chunk) {
    const n = Math.min(chunk, rows - first);
    chunks.push(JSON.stringify(Array.from({ length: n }, (_, i) => [`${tag}${first + i}`])));
    sizes.push(n);
  }
  return { headers: ['A'], rowCount: rows, colCount: 1, chunks, sizes };
}

test('a window of rows across chunk borders, and past the end', () => {
  const v = version(10, 4);
  assert.deepEqual(rowsOfChunks(v, 3, 3), [['r3'], ['r4'], ['r5']]);
  assert.deepEqual(rowsOfChunks(v, 8, 5), [['r8'], ['r9']]);
  assert.deepEqual(rowsOfChunks(v, 10, 5), []);
});

test('two windows asked at once rebuild the version once; a later ask rebuilds nothing', async () => {
  const cache = new VersionRowsCache();
  let rebuilds = 0;
  const rebuild = async () => {
    rebuilds++;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return version(10, 4);
  };
  const [a, b] = await Promise.all([cache.get('s', 3, rebuild), cache.get('s', 3, rebuild)]);
  assert.equal(a, b);
  await cache.get('s', 3, rebuild);
  assert.equal(rebuilds, 1);
  // A failed rebuild is not kept: the next ask tries again.
  await assert.rejects(cache.get('s', 4, async () => Promise.reject(new Error('gone'))));
  assert.equal((await cache.get('s', 4, async () => version(2, 4))).rowCount, 2);
});

test('over its size the least recently used version goes first; one larger than the whole bound is not kept', async () => {
  const one = version(10, 4);
  const chars = one.chunks.reduce((n, c) => n + c.length, 0);
  const cache = new VersionRowsCache(chars * 2);
  const asked: string[] = [];
  const get = (v: number, content = one) => cache.get('s', v, async () => (asked.push(`v${v}`), content));
  await get(1);
  await get(2);
  await get(1); // 1 is now the most recent
  await get(3); // over the bound: 2 goes
  await get(1);
  await get(2);
  assert.deepEqual(asked, ['v1', 'v2', 'v3', 'v2']);
  // Rows of random digits: neither their text nor their deflated chunks fit.
  const huge = version(100, 4, String(Math.random()).slice(2));
  await get(9, huge);
  await cache.settled();
  await get(9, huge);
  assert.deepEqual(asked.slice(-2), ['v9', 'v9']);
  assert.ok(cache.heldSize <= chars * 2);
});

test('a version whose text passes the bound is kept deflated within it: its windows read right, the version rebuilt once', async () => {
  // 2,000 rows of ten cells in chunks of 500, as a million-row sheet's stored rows are.
  const rows = 2_000;
  const big: RebuiltChunks = { ...version(rows, 500), colCount: 10 };
  big.chunks = big.chunks.map((text) => JSON.stringify((JSON.parse(text) as string[][]).map(([a]) => [a, ...Array.from({ length: 9 }, (_, c) => `cell${c}`)])));
  const chars = big.chunks.reduce((n, c) => n + c.length, 0);
  const cache = new VersionRowsCache(Math.floor(chars / 3));
  let rebuilds = 0;
  const get = () => cache.get('s', 7, async () => (rebuilds++, big));
  for (const start of [0, rows - 300, rows / 2, 10]) {
    const content = await get();
    const window = rowsOfChunks(content, start, 300);
    assert.equal(window.length, Math.min(300, rows - start));
    assert.deepEqual(window[0], [`r${start}`, ...Array.from({ length: 9 }, (_, c) => `cell${c}`)]);
    await cache.settled();
  }
  assert.equal(rebuilds, 1);
  assert.ok(cache.heldSize > 0 && cache.heldSize <= chars / 3, `held ${cache.heldSize} of ${chars} characters`);
});

test("a proposal's rows as text cut into chunks of 500 rows without parsing: the same rows, sizes and width, whatever the strings hold", () => {
  const tricky = ['a "quoted" ], [ cell', 'back\\slash\\', '[[', ', ,', '=SUM(A1:A2)', ''];
  const rows = Array.from({ length: 1_203 }, (_, r) => (r % 97 === 5 ? [] : r === 700 ? Array.from({ length: 14 }, (_, c) => c) : [tricky[r % tricky.length], r, r % 3 === 0 ? null : true, `${r}"]`]));
  // As JSON.stringify writes it, and as PostgreSQL writes jsonb (", " between elements).
  for (const text of [JSON.stringify(rows), JSON.stringify(rows).replace(/,(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, ', ')]) {
    const content = chunkedRowsText(['A', 'B'], text);
    assert.deepEqual(content.sizes, [500, 500, 203]);
    assert.equal(content.rowCount, 1_203);
    assert.equal(content.colCount, 14);
    assert.deepEqual(rowsOfChunks(content, 0, 1_203), rows);
  }
  assert.deepEqual(chunkedRowsText(['A', 'B', 'C'], '[]'), { headers: ['A', 'B', 'C'], rowCount: 0, colCount: 3, chunks: [], sizes: [] });
});
