import { describe, expect, it } from 'vitest';
import { BOOK_MAX_TICKETS } from '@pa/contracts/power7-books';
import { lineErrorText, lineOfField, parseTicketLines, withoutLines } from './ticket-lines';

describe('parseTicketLines', () => {
  it('reads numbers separated by spaces, tabs, commas or dashes, with an optional id and name', () => {
    const text = [
      '7 6 5 4 3 2 1',
      '1,2,3,4,5,6,8; C-104; Ana Díaz',
      '',
      '# a comment',
      '1-2-3-4-5-6-9 ;  ; only; a name',
      '1\t2\t3\t4\t5\t6\t10;C7',
      '  11, 12 ,13 - 14  15 16 17  ',
    ].join('\n');
    const { tickets, errors } = parseTicketLines(text, 35);
    expect(errors).toEqual([]);
    expect(tickets).toEqual([
      { line: 1, ticket: { numbers: [1, 2, 3, 4, 5, 6, 7] } },
      {
        line: 2,
        ticket: { numbers: [1, 2, 3, 4, 5, 6, 8], customerId: 'C-104', name: 'Ana Díaz' },
      },
      { line: 5, ticket: { numbers: [1, 2, 3, 4, 5, 6, 9], name: 'only; a name' } },
      { line: 6, ticket: { numbers: [1, 2, 3, 4, 5, 6, 10], customerId: 'C7' } },
      { line: 7, ticket: { numbers: [11, 12, 13, 14, 15, 16, 17] } },
    ]);
  });

  it('names every line that is not a ticket, by its line in the box, and keeps the good ones', () => {
    const text = [
      '1 2 3 4 5 6',
      '1 2 3 4 5 6 7',
      '1 2 3 4 5 6 x7',
      '1 2 3 4 5 6 36',
      '1 2 3 4 5 5 6',
      '0 1 2 3 4 5 6',
      '; C1',
      '1 2 3 4 5 6 7 8',
      '1.5 2 3 4 5 6 7',
      `1 2 3 4 5 6 7; ${'x'.repeat(101)}`,
      `1 2 3 4 5 6 7; C; ${'y'.repeat(201)}`,
    ].join('\r\n');
    const { tickets, errors } = parseTicketLines(text, 35);
    expect(tickets.map((t) => t.line)).toEqual([2]);
    expect(errors.map(lineErrorText)).toEqual([
      'Line 1: 6 numbers: a ticket has exactly 7.',
      'Line 3: “x7” is not a whole number.',
      'Line 4: 36 is not in the pool (1 to 35).',
      'Line 5: 5 is there twice: the 7 numbers must differ.',
      'Line 6: 0 is not in the pool (1 to 35).',
      'Line 7: No numbers: a ticket starts with its 7 numbers.',
      'Line 8: 8 numbers: a ticket has exactly 7.',
      'Line 9: “1.5” is not a whole number.',
      'Line 10: The customer id is longer than 100 characters.',
      'Line 11: The name is longer than 200 characters.',
    ]);
  });

  it('asks for a ticket when the box holds none, and refuses more than a request may carry', () => {
    expect(parseTicketLines('  \n# only a comment\n', 35).errors.map(lineErrorText)).toEqual([
      'Type or paste at least one ticket.',
    ]);
    const many = Array.from({ length: BOOK_MAX_TICKETS + 1 }, () => '1 2 3 4 5 6 7').join('\n');
    expect(parseTicketLines(many, 35).errors.map(lineErrorText)).toEqual([
      'At most 1,000 tickets at once; the box holds 1,001.',
    ]);
    const exact = Array.from({ length: BOOK_MAX_TICKETS }, () => '1 2 3 4 5 6 7').join('\n');
    expect(parseTicketLines(exact, 35).errors).toEqual([]);
  });
});

describe('lineOfField', () => {
  it('finds the box line of the ticket a service error names', () => {
    const { tickets } = parseTicketLines('1 2 3 4 5 6 7\n\n1 2 3 4 5 6 8\n1 2 3 4 5 6 9', 35);
    expect(lineOfField('tickets.0.numbers', tickets)).toBe(1);
    expect(lineOfField('tickets.2.numbers', tickets)).toBe(4);
    expect(lineOfField('tickets.1', tickets)).toBe(3);
    expect(lineOfField('tickets.3.numbers', tickets)).toBeUndefined();
    expect(lineOfField('tickets', tickets)).toBeUndefined();
    expect(lineOfField(undefined, tickets)).toBeUndefined();
  });
});

describe('withoutLines', () => {
  it('takes the sold lines out and keeps every other line as typed', () => {
    expect(withoutLines('a\nb\r\nc\n# d\ne', new Set([1, 3, 5]))).toBe('b\n# d');
    expect(withoutLines('a\nb', new Set([1, 2]))).toBe('');
  });
});
