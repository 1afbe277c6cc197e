import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GridCache, LOADED_CHUNKS_PER_SHEET, LoadedChunkCache } from './grid-cache.js';

describe('GridCache', () => {
  it('serves an entry only for its exact version', () => {
    const cache = new GridCache();
    cache.set('s', 3, ['[["a"]]']);
    assert.deepEqual(cache.get('s', 3), ['[["a"]]']);
    assert.equal(cache.get('s', 4), undefined);
  });

  it('applies a patch from the previous version, and drops the entry when a version was missed', () => {
    const cache = new GridCache();
    cache.set('s', 1, ['[["a"]]', '[["b"]]']);
    cache.patch('s', 2, new Map([[1, '[["B"]]'], [2, '[["c"]]']]));
    assert.deepEqual(cache.get('s', 2), ['[["a"]]', '[["B"]]', '[["c"]]']);
    cache.patch('s', 4, new Map());
    assert.equal(cache.get('s', 2), undefined);
    assert.equal(cache.get('s', 4), undefined);
  });

  it('evicts the least recently used entries beyond its size', () => {
    const cache = new GridCache(10);
    cache.set('a', 1, ['12345']);
    cache.set('b', 1, ['12345']);
    cache.get('a', 1);
    cache.set('c', 1, ['12345']);
    assert.ok(cache.get('a', 1));
    assert.equal(cache.get('b', 1), undefined);
    assert.ok(cache.get('c', 1));
    cache.set('huge', 1, ['x'.repeat(11)]);
    assert.equal(cache.get('huge', 1), undefined);
  });
});

describe('LoadedChunkCache', () => {
  it('gives a sheet\'s chunks once, and only at the version that wrote them', () => {
    const cache = new LoadedChunkCache();
    const chunks = new Map([[7, [['a', 'b']]]]);
    cache.set('s', 5, chunks);
    assert.equal(cache.take('s', 6), undefined);
    // A miss drops the entry too: that version will not come back.
    assert.equal(cache.take('s', 5), undefined);
    cache.set('s', 5, chunks);
    assert.equal(cache.take('s', 5), chunks);
    // Taken: the group that took it changes the arrays, and puts them back only once committed.
    assert.equal(cache.take('s', 5), undefined);
  });

  it('keeps nothing for a group that wrote more chunks than it keeps per sheet, and forgets the oldest sheet first', () => {
    const cache = new LoadedChunkCache(2);
    cache.set('wide', 1, new Map(Array.from({ length: LOADED_CHUNKS_PER_SHEET + 1 }, (_, id) => [id, [[id]]])));
    assert.equal(cache.take('wide', 1), undefined);
    for (const id of ['a', 'b', 'c']) cache.set(id, 1, new Map([[0, [[id]]]]));
    assert.equal(cache.take('a', 1), undefined);
    assert.ok(cache.take('b', 1));
    assert.ok(cache.take('c', 1));
  });
});
