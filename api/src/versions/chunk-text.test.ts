import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { patchChunkText, rowSpans } from './chunk-text.js';

describe('chunk text', () => {
  const rows = [['a', 'b]"[', 1], [], ['\\"x', null, true], ['[[', ']]', '\\']];
  const text = JSON.stringify(rows);

  it('finds every row without parsing, whatever the strings hold', () => {
    const spans = rowSpans(text);
    assert.deepEqual(
      spans.map(([s, e]) => JSON.parse(text.slice(s, e))),
      rows,
    );
  });

  it('replays deltas on the touched rows only, forwards and backwards', () => {
    const forward = patchChunkText(text, [[{ row: 502, col: 1, old: null, new: 'N' }], [{ row: 500, col: 3, old: null, new: 2 }]], 'forward', 500, 3);
    assert.deepEqual(JSON.parse(forward!), [['a', 'b]"[', 1], [], ['\\"x', 'N', true], ['[[', ']]', '\\']]);
    // Touched rows are cut to the version's width: the cell at col 3 lies beyond it.
    const back = patchChunkText(text, [[{ row: 501, col: 0, old: 'was', new: 'x' }]], 'backward', 500, 2);
    assert.deepEqual(JSON.parse(back!), [['a', 'b]"[', 1], ['was', ''], ['\\"x', null, true], ['[[', ']]', '\\']]);
  });

  it('leaves rows beyond the chunk to the caller', () => {
    assert.equal(patchChunkText(text, [[{ row: 9, col: 0, old: null, new: 'x' }]], 'forward', 0, 3), undefined);
  });
});
