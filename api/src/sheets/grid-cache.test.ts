import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GridCache } from './grid-cache.js';

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
