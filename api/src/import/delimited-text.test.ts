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

describe('counting against the cell cap while parsing', () => {
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return { status: (err as { statusCode?: number }).statusCode, message: (err as Error).message };
    }
    return null;
  };

  it('a first line wider than 16,384 columns is refused without padding the rows below to it', () => {
    const text = `${','.repeat(100_000)}\n${'x\n'.repeat(10_000)}`;
    assert.deepEqual(refusal(() => parseDelimited(Buffer.from(text), 10_000_000)), {
      status: 413,
      message: 'A sheet can hold at most 16,384 columns (this would be 100,001)',
    });
  });

  it('rows past the cap are refused with the exact size; a table exactly at the cap is kept', () => {
    const rows = (n: number) => `a,b\n${'1,2\n'.repeat(n)}`;
    assert.equal(parseDelimited(Buffer.from(rows(500)), 1000).data.length, 500);
    assert.deepEqual(refusal(() => parseDelimited(Buffer.from(rows(501)), 1000)), {
      status: 413,
      message: 'A sheet can hold at most 1,000 cells (this would be 1,002)',
    });
  });

  it('keeps §5 rules: rows padded or trimmed to the header, blank lines inside kept, trailing ones dropped', () => {
    assert.deepEqual(parseDelimited(Buffer.from('a,b,c\n1\n\n1,2,3,4\n\n\n')), {
      headers: ['a', 'b', 'c'],
      data: [
        ['1', '', ''],
        ['', '', ''],
        ['1', '2', '3'],
      ],
    });
    assert.throws(() => parseDelimited(Buffer.from(',,\n\n')), /The file contains no data/);
    assert.throws(() => parseDelimited(Buffer.from('a,b\n"open,1\n')), /Quoted field unterminated \(row 2\)/);
  });
});
