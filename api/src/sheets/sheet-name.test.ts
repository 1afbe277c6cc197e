import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnLabel, deriveCategory, duplicateSheetName, normalizeHeaders, uniqueGroupName, uniqueSheetName } from '@tessera/contracts';

describe('sheet names, categories and headers (contracts)', () => {
  it("unique names: ' 1' for sheets, ' (1)' for groups, ' (Copy)' for duplicates", () => {
    assert.equal(uniqueSheetName('S', new Set()), 'S');
    assert.equal(uniqueSheetName('S', new Set(['S', 'S 1'])), 'S 2');
    assert.equal(uniqueGroupName('G', new Set(['G'])), 'G (1)');
    assert.equal(duplicateSheetName('S', new Set(['S'])), 'S (Copy)');
    assert.equal(duplicateSheetName('S', new Set(['S (Copy)'])), 'S (Copy) 1');
  });

  it('category from the first tag, else name keywords, else General', () => {
    assert.equal(deriveCategory('anything', ['Financial']), 'Financial');
    assert.equal(deriveCategory('Revenue', ['unknown tag']), 'Financial');
    assert.equal(deriveCategory('Project roadmap'), 'Project Management');
    assert.equal(deriveCategory('Notes'), 'General');
  });

  it('letter headers A..Z then AA', () => {
    assert.equal(columnLabel(0), 'A');
    assert.equal(columnLabel(25), 'Z');
    assert.equal(columnLabel(26), 'AA');
    assert.equal(columnLabel(701), 'ZZ');
    assert.equal(columnLabel(702), 'AAA');
    assert.deepEqual(normalizeHeaders(['x', 'y', 'z'], 2), ['x', 'y']);
    assert.deepEqual(normalizeHeaders([], 2), ['A', 'B']);
  });
});
