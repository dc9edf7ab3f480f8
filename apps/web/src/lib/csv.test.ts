import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, writeCsvPages } from './csv';

describe('CSV writer', () => {
  it('neutralises cells a spreadsheet would run as a formula (OWASP)', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    // Ordinary text and numbers stay as they are, negative numbers included.
    expect(csvCell('ada@example.test')).toBe('ada@example.test');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
  });

  it('quotes commas, quotes, line breaks and edge spaces; empty for null', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvRow(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
  });

  it('writes every page in order, one call per page, until the last', async () => {
    const pages = [[{ n: 'a' }, { n: 'b' }], [{ n: 'c' }], []];
    const asked: number[] = [];
    const parts: string[] = [];
    const rows = await writeCsvPages(
      [{ header: 'name', value: (r: { n: string }) => r.n }],
      async (page) => {
        asked.push(page);
        return { items: pages[page - 1]!, totalPages: 2 };
      },
      parts,
    );
    expect(asked).toEqual([1, 2]);
    expect(rows).toBe(3);
    expect(parts.join('')).toBe('name\r\na\r\nb\r\nc\r\n');
  });

  it('an empty list is just the header', async () => {
    const parts: string[] = [];
    await writeCsvPages(
      [{ header: 'x', value: () => 1 }],
      async () => ({ items: [], totalPages: 0 }),
      parts,
    );
    expect(parts.join('')).toBe('x\r\n');
  });
});
