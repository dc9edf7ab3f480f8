import { BOOK_MAX_TICKETS, bookTicketSchema, type BookTicket } from '@pa/contracts/power7-books';

/**
 * The live book's ticket box (issue #41 part 5): one ticket per line, as a clerk types them or pastes
 * them from a sheet.
 *
 *     numbers ; customer id ; name
 *
 * - numbers: the ticket's 7 numbers, separated by spaces, tabs, commas or dashes
 *   ("1 2 3 4 5 6 7", "1,2,3,4,5,6,7", "1-2-3-4-5-6-7", a sheet row pasted with tabs);
 * - customer id and name: optional, after a semicolon each ("3 9 14 20 22 30 31; C-104; Ana Díaz");
 *   a name may hold further semicolons;
 * - empty lines and lines starting with "#" are skipped.
 *
 * Every line is checked before anything is sent, with the same bounds as the service
 * (`bookTicketSchema`, and the book's pool), so a clerk sees every mistake at once, by line.
 */
export const TICKET_LINE_FORMAT = 'numbers; customer id; name';

/** A ticket read from the box, with the line it came from. */
export interface TicketLine {
  line: number;
  ticket: BookTicket & { numbers: number[] };
}

/** A line that is not a ticket, in words (line 0: the box as a whole). */
export interface LineError {
  line: number;
  message: string;
}

export interface ParsedTickets {
  tickets: TicketLine[];
  errors: LineError[];
}

const count = (n: number) => n.toLocaleString('en-US');

/** One line's ticket, or what is wrong with it. */
function parseLine(text: string, pool: number): TicketLine['ticket'] | string {
  const [numbersPart = '', customerPart, ...nameParts] = text.split(';');
  const tokens = numbersPart.split(/[\s,\-–]+/).filter(Boolean);
  const notNumber = tokens.find((token) => !/^\d+$/.test(token));
  if (notNumber !== undefined) return `“${notNumber}” is not a whole number.`;
  const numbers = tokens.map(Number);
  if (numbers.length !== 7) {
    return numbers.length === 0
      ? 'No numbers: a ticket starts with its 7 numbers.'
      : `${numbers.length} ${numbers.length === 1 ? 'number' : 'numbers'}: a ticket has exactly 7.`;
  }
  const outside = numbers.find((n) => n < 1 || n > pool);
  if (outside !== undefined) return `${outside} is not in the pool (1 to ${pool}).`;
  const twice = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (twice !== undefined) return `${twice} is there twice: the 7 numbers must differ.`;
  const customerId = customerPart?.trim() || undefined;
  const name = nameParts.join(';').trim() || undefined;
  const ticket = {
    numbers: numbers.sort((a, b) => a - b),
    ...(customerId ? { customerId } : {}),
    ...(name ? { name } : {}),
  };
  // the service's own rules (lengths of the id and name) as the contract states them
  const checked = bookTicketSchema.safeParse(ticket);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const field = issue.path[0] === 'customerId' ? 'customer id' : String(issue.path[0]);
    return issue.code === 'too_big' && field !== 'numbers'
      ? `The ${field} is longer than ${String(issue.maximum)} characters.`
      : issue.message;
  }
  return ticket;
}

/** The box's tickets in order, and every line that is not one. */
export function parseTicketLines(text: string, pool: number): ParsedTickets {
  const tickets: TicketLine[] = [];
  const errors: LineError[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const content = raw.trim();
    if (!content || content.startsWith('#')) return;
    const parsed = parseLine(content, pool);
    if (typeof parsed === 'string') errors.push({ line: index + 1, message: parsed });
    else tickets.push({ line: index + 1, ticket: parsed });
  });
  if (tickets.length === 0 && errors.length === 0) {
    errors.push({ line: 0, message: 'Type or paste at least one ticket.' });
  }
  if (tickets.length > BOOK_MAX_TICKETS) {
    errors.unshift({
      line: 0,
      message: `At most ${count(BOOK_MAX_TICKETS)} tickets at once; the box holds ${count(tickets.length)}.`,
    });
  }
  return { tickets, errors };
}

/** An error as the list under the box says it: "Line 3: 6 numbers: a ticket has exactly 7." */
export const lineErrorText = (error: LineError) =>
  error.line > 0 ? `Line ${error.line}: ${error.message}` : error.message;

/**
 * The box line of the ticket a service error names (`tickets.2.numbers` → the third ticket's line),
 * or undefined when the field names no ticket.
 */
export function lineOfField(field: string | undefined, tickets: TicketLine[]): number | undefined {
  const match = /^tickets\.(\d+)(?:\.|$)/.exec(field ?? '');
  return match ? tickets[Number(match[1])]?.line : undefined;
}

/** The box without the given lines (the tickets just sold), keeping every other line as typed. */
export function withoutLines(text: string, lines: ReadonlySet<number>): string {
  return text
    .split(/\r\n|\r|\n/)
    .filter((_, index) => !lines.has(index + 1))
    .join('\n')
    .trim();
}
