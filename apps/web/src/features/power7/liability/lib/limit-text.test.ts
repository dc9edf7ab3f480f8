import { describe, expect, it } from 'vitest';
import { breachLink, capWords, headroomOf, parseLimit, refusedPage } from './limit-text';

describe('parseLimit', () => {
  it('reads digits, decimals and thousands separated by commas or spaces', () => {
    expect(parseLimit('1500000')).toEqual({ value: 1_500_000 });
    expect(parseLimit(' 1,500,000 ')).toEqual({ value: 1_500_000 });
    expect(parseLimit('1 500 000.5')).toEqual({ value: 1_500_000.5 });
    expect(parseLimit('12,345.67')).toEqual({ value: 12_345.67 });
    expect(parseLimit('0')).toEqual({ value: 0 });
    expect(parseLimit('.5')).toEqual({ value: 0.5 });
  });

  it('ignores a leading currency symbol or code', () => {
    expect(parseLimit('€2,000')).toEqual({ value: 2000 });
    expect(parseLimit('EUR 2000')).toEqual({ value: 2000 });
  });

  it('says in words what is wrong', () => {
    expect(parseLimit('')).toEqual({
      error: 'Type a limit: the most any one draw may pay in total.',
    });
    expect(parseLimit('-5')).toEqual({ error: 'The limit must be at least 0.' });
    expect(parseLimit('12,5')).toMatchObject({
      error: expect.stringContaining('Use a point for decimals'),
    });
    // a group that is not three digits is not a thousands separator
    expect(parseLimit('1,50,000')).toMatchObject({
      error: expect.stringContaining('“1,50,000” is not an amount.'),
    });
    expect(parseLimit('lots')).toMatchObject({
      error: expect.stringContaining('is not an amount'),
    });
    expect(parseLimit('10.123')).toEqual({ error: 'The limit may have at most two decimals.' });
    expect(parseLimit('1e9')).toMatchObject({ error: expect.stringContaining('not an amount') });
    expect(parseLimit('999999999999999')).toMatchObject({
      error: expect.stringMatching(/^The limit must be at most [\d,]+\.$/),
    });
  });
});

describe('headroomOf', () => {
  it('is the limit less the worst draw left, and the share of the limit used', () => {
    expect(headroomOf(1000, 250)).toEqual({ amount: 750, used: 0.25 });
    expect(headroomOf(1000, 1000)).toEqual({ amount: 0, used: 1 });
    expect(headroomOf(0.3, 0.1)).toEqual({ amount: 0.2, used: 0.1 / 0.3 });
  });

  it('fills the meter for a zero limit with a paying draw, empties it with none', () => {
    expect(headroomOf(0, 0)).toEqual({ amount: 0, used: 0 });
    expect(headroomOf(0, 5).used).toBe(1);
  });
});

describe('capWords', () => {
  it('says no cap fits when even one copy each is too many', () => {
    expect(capWords({ cap: 0, maxCopies: 20, refused: 100 })).toBe(
      'No cap fits: even one copy of each combination takes some draw past the limit.',
    );
  });
  it('names the cap and what it refuses', () => {
    expect(capWords({ cap: 1, maxCopies: 20, refused: 19 })).toBe(
      'Keeping the first 1 copy of each combination fits the limit and refuses 19 tickets.',
    );
    expect(capWords({ cap: 3, maxCopies: 20, refused: 1 })).toContain('3 copies');
    expect(capWords({ cap: 3, maxCopies: 20, refused: 1 })).toContain('refuses 1 ticket.');
  });
  it('says when no cap is needed', () => {
    expect(capWords({ cap: 20, maxCopies: 20, refused: 0 })).toBe(
      'No cap is needed: every ticket fits, up to 20 copies of one combination.',
    );
  });
});

describe('refusedPage', () => {
  const csv = [
    'customer_id,name,n1,n2,n3,n4,n5,n6,n7,line,breach_draw,would_be_total',
    'C1,"Smith, Ann",1,2,3,4,5,6,7,3,1-2-3-4-5-6-7,100011',
    'C2,Bob,1,2,3,4,5,6,8,4,1-2-3-4-5-6-7,1100',
    'C3,Cy,1,2,3,9,10,11,12,9,1-2-3-4-5-6-7,1001.5',
  ].join('\r\n');

  it('reads the line, numbers, breach draw and total of the first rows', () => {
    const page = refusedPage(csv, 2);
    expect(page.more).toBe(true);
    expect(page.rows).toEqual([
      {
        line: 3,
        numbers: [1, 2, 3, 4, 5, 6, 7],
        breachDraw: '1-2-3-4-5-6-7',
        wouldBe: 100011,
        customerId: 'C1',
      },
      {
        line: 4,
        numbers: [1, 2, 3, 4, 5, 6, 8],
        breachDraw: '1-2-3-4-5-6-7',
        wouldBe: 1100,
        customerId: 'C2',
      },
    ]);
    expect(refusedPage(csv).more).toBe(false);
    expect(refusedPage(csv).rows[2]!.wouldBe).toBe(1001.5);
  });

  it('reads a single numbers column and a byte-order mark', () => {
    const page = refusedPage(
      '\uFEFFnumbers,line,breach_draw,would_be_total\n"1 2 3 4 5 6 7",2,1-2-3-4-5-6-8,60\n',
    );
    expect(page.rows[0]).toMatchObject({ numbers: [1, 2, 3, 4, 5, 6, 7], customerId: '', line: 2 });
  });

  it('is empty for a CSV without the refused columns', () => {
    expect(refusedPage('a,b\n1,2\n')).toEqual({ rows: [], more: false });
    expect(refusedPage('')).toEqual({ rows: [], more: false });
  });
});

describe('breachLink', () => {
  it("opens the draw's winners on the match type the ticket would have had", () => {
    const row = {
      line: 4,
      numbers: [1, 2, 3, 4, 5, 6, 8],
      breachDraw: '1-2-3-4-5-6-7',
      wouldBe: 1100,
      customerId: 'C2',
    };
    expect(breachLink('s-1', row)).toBe(
      '/app/power7/results?session=s-1&combo=1-2-3-4-5-6-7&match=6',
    );
    expect(breachLink('s-1', { ...row, numbers: [] })).toBe(
      '/app/power7/results?session=s-1&combo=1-2-3-4-5-6-7',
    );
  });
});
