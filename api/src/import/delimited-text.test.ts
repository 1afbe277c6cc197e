import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDelimiter, parseDelimited, ParseError } from './delimited-text.js';

describe('delimited text', () => {
  it('detects tab, pipe or comma from the first line, ignoring quoted text', () => {
    assert.equal(detectDelimiter('a\tb\tc\n'), '\t');
    assert.equal(detectDelimiter('a|b|c\n1,2|3|4'), '|');
    assert.equal(detectDelimiter('a,b\n'), ',');
    assert.equal(detectDelimiter('"x|y|z",b\n'), ',');
    assert.equal(detectDelimiter('single'), ',');
  });

  it('a header of fewer than 2 columns is no header', () => {
    assert.deepEqual(parseDelimited(Buffer.from('one\ntwo\n')), { headers: [], data: [['one'], ['two']] });
  });

  it('drops a UTF-8 BOM and refuses other encodings', () => {
    assert.deepEqual(parseDelimited(Buffer.from('\ufeffa,b\n1,2')).headers, ['a', 'b']);
    assert.throws(() => parseDelimited(Buffer.from([0x61, 0x2c, 0xe9, 0x0a])), ParseError);
  });
});
