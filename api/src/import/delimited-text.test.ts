import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type GridData, heldCells } from '@tessera/contracts';
import { detectDelimiter, gridOf, guessNewline, parseDelimited, ParseError, parseWithPapa, scanRows, TableBuilder, toTable } from './delimited-text.js';

/** A parsed table as headers and cells (its chunks parsed back). */
const read = (bytes: Uint8Array, maxCells?: number) => {
  const table = parseDelimited(bytes, maxCells);
  return { headers: table.headers, data: gridOf(table) };
};

describe('delimited text', () => {
  it('detects tab, pipe or comma from the first line, ignoring quoted text', () => {
    assert.equal(detectDelimiter('a\tb\tc\n'), '\t');
    assert.equal(detectDelimiter('a|b|c\n1,2|3|4'), '|');
    assert.equal(detectDelimiter('a,b\n'), ',');
    assert.equal(detectDelimiter('"x|y|z",b\n'), ',');
    assert.equal(detectDelimiter('single'), ',');
  });

  it('a header of fewer than 2 columns is no header', () => {
    assert.deepEqual(read(Buffer.from('one\ntwo\n')), { headers: [], data: [['one'], ['two']] });
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
    assert.equal(read(Buffer.from(rows(500)), 1000).data.length, 500);
    assert.deepEqual(refusal(() => parseDelimited(Buffer.from(rows(501)), 1000)), {
      status: 413,
      message: 'A sheet can hold at most 1,000 cells (this would be 1,002)',
    });
  });

  it('keeps §5 rules: rows padded or trimmed to the header, blank lines inside kept, trailing ones dropped', () => {
    assert.deepEqual(read(Buffer.from('a,b,c\n1\n\n1,2,3,4\n\n\n')), {
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

describe('the fast scanner reads what papaparse reads', () => {
  /** A reading of a text: the table (headers, size, cells) or the error's text. */
  const outcome = (fn: () => ReturnType<typeof parseWithPapa>) => {
    try {
      const t = fn();
      // Each chunk's held cells, as counted while parsing, are those of its rows (contracts heldCells).
      assert.deepEqual(t.held, t.chunks.map((c) => heldCells(JSON.parse(c.toString('utf8')) as GridData)));
      return { headers: t.headers, rows: t.rows, columns: t.columns, data: gridOf(t) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };

  it('agrees with papaparse on random delimited text, quotes and line breaks included', () => {
    let scanned = 0;
    const char = fc.constantFrom('a', 'b', ' ', ',', ';', '|', '\t', '"', '\n', '\r', '\\', 'é', '\u2028', '\u0001');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 60 }).map((cs) => cs.join('')), fc.integer({ min: 0, max: 50 }), (text, maxCells) => {
        if (text.trim() === '') return;
        const delimiter = detectDelimiter(text);
        const cap = maxCells === 0 ? undefined : maxCells;
        const fast = new TableBuilder(cap);
        let viaScanner: ReturnType<typeof outcome> | undefined;
        if (scanRows(Buffer.from(text), 0, delimiter, guessNewline(text), fast)) {
          scanned++;
          viaScanner = outcome(() => fast.finish());
        }
        const viaPapa = outcome(() => parseWithPapa(text, delimiter, cap));
        if (viaScanner) assert.deepEqual(viaScanner, viaPapa);
        assert.deepEqual(outcome(() => parseDelimited(Buffer.from(text), cap)), viaPapa);
      }),
      { numRuns: 5000, seed: 23 },
    );
    // Most random texts are read by the scanner itself (not all left to papaparse).
    assert.ok(scanned > 2500, `scanned ${scanned}`);
  });

  it('reads well-formed CSV of quoted fields, doubled quotes, CRLF and blank lines itself', () => {
    const text = 'id,"name, full",note\r\n1,"Ann ""A""",x\r\n\r\n2,"multi\r\nline",\r\n3,,"end"\r\n';
    const fast = new TableBuilder();
    assert.equal(scanRows(Buffer.from(text), 0, ',', guessNewline(text), fast), true);
    const table = fast.finish();
    assert.deepEqual(table.headers, ['id', 'name, full', 'note']);
    assert.deepEqual(gridOf(table), [
      ['1', 'Ann "A"', 'x'],
      ['', '', ''],
      ['2', 'multi\r\nline', ''],
      ['3', '', 'end'],
    ]);
    assert.deepEqual(outcome(() => table), outcome(() => parseWithPapa(text, ',')));
  });

  it('counts the cells each chunk gives the formula engine as it parses (rows ending in nulls, padded, trimmed)', () => {
    const table = toTable([['a', 'b', 'c'], [1, null], [null, null, 2, null], [1, 2, null, 4], [], [null, 'x', null], ...Array.from({ length: 600 }, (_, r) => [r, null, null])]);
    assert.deepEqual(table.held, table.chunks.map((c) => heldCells(JSON.parse(c.toString('utf8')) as GridData)));
    const bare = toTable([['only'], [null], ['x', null, null], [null, 3]]);
    assert.deepEqual(bare.held, [heldCells(gridOf(bare))]);
    // No header: rows keep their width; an empty row is stored as one empty string (held).
    assert.deepEqual(gridOf(bare), [['only'], [''], ['x', null, null], [null, 3]]);
    assert.deepEqual(bare.held, [5]);
  });

  it('keeps rows in chunks of 500, in order', () => {
    const text = `a,b\n${Array.from({ length: 1201 }, (_, i) => `${i},"v ${i}"`).join('\n')}\n`;
    const table = parseDelimited(Buffer.from(text));
    assert.equal(table.rows, 1201);
    assert.deepEqual(table.chunks.map((c) => (JSON.parse(c.toString('utf8')) as unknown[]).length), [500, 500, 201]);
    assert.deepEqual(gridOf(table)[1200], ['1200', 'v 1200']);
  });

  it('cuts rows where papaparse does when the first million characters are multi-byte (its line-break guess reads that many)', () => {
    // About 1.1 MB of 'é' rows broken by CRLF (5 of them), then rows broken by a lone CR (100): within papaparse's first
    // 1,048,576 characters, the CRs without LF are most, so CR is the line break for the whole file.
    const wide = 'é'.repeat(110_000);
    const text = `a,b\r\n${Array.from({ length: 5 }, (_, i) => `${i},${wide}`).join('\r\n')}\r\n${Array.from({ length: 100 }, (_, i) => `${i},x`).join('\r')}\r${Array.from({ length: 50_000 }, (_, i) => `${i},y`).join('\r')}\r`;
    assert.ok(Buffer.byteLength(text) > 1.1 * 1024 * 1024);
    assert.equal(guessNewline(text), '\r');
    const table = parseDelimited(Buffer.from(text));
    assert.deepEqual(outcome(() => table), outcome(() => parseWithPapa(text, ',')));
  });

  it('keeps each chunk as the UTF-8 bytes of its JSON text, as the database stores it, from the scanner and from papaparse alike', () => {
    // The second file has a quote inside an unquoted field: papaparse reads it, row by row.
    for (const [text, last] of [
      ['h1,h2\n"é, ""q""",tab\there\nshort\n', 'short'],
      ['h1,h2\n"é, ""q""",tab\there\nsh"ort\n', 'sh"ort'],
    ]) {
      const table = parseDelimited(Buffer.from(text));
      assert.equal(table.chunks.length, 1);
      assert.ok(Buffer.isBuffer(table.chunks[0]));
      assert.deepEqual(table.chunks[0], Buffer.from(JSON.stringify([['é, "q"', 'tab\there'], [last, '']]), 'utf8'));
    }
  });
});
