import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvRow, isFormulaLike, numberListCell } from './csv';

describe('csvCell', () => {
  it('puts a single quote inside the quoted field before text a spreadsheet would run', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('+1 555 1234')).toBe(`"'+1 555 1234"`);
    expect(csvCell('-1+1')).toBe(`"'-1+1"`);
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('keeps plain numbers (negative or with a sign) and ordinary text as they are', () => {
    for (const plain of ['-5', '+15551234', '-0.25', '42', 'Anna', 'a=b', '']) {
      expect(isFormulaLike(plain), plain).toBe(false);
      expect(csvCell(plain)).toBe(plain);
    }
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('quotes delimiters, quotes and line breaks (RFC 4180) and ends a row with CRLF', () => {
    expect(csvRow(['a,b', 'say "hi"', 'two\nlines', '=1+1', 7])).toBe(
      `"a,b","say ""hi""","two\nlines","'=1+1",7\r\n`,
    );
  });
});

describe('CSV documents a spreadsheet opens cleanly', () => {
  it('starts with a BOM, keeps formulas neutralised and number lists out of dates', () => {
    const doc = csvDocument(['name', 'matched'], [['=cmd', numberListCell([3, 8, 12])]]);
    expect(doc).toBe('\uFEFFname,matched\r\n"\'=cmd",3 8 12\r\n');
  });
});
