import { NoValidRowsError, type RejectedRow } from '../core/errors';
import { PICK } from '../core/model';
import type { BodySetup, ReadOptions, TicketFile, TicketPart } from './ticket-reader';

/**
 * The tickets of a file read in consecutive runs (one, or the byte ranges of a parallel read, in file
 * order; each part's line numbers counted from its own first line, the first part's from the file's).
 * Throws `NoValidRowsError` when no row was valid. `report`: tell `onRejected` of every rejected row,
 * with its line in the file (a parallel read); else the caller has already told it.
 */
export function joinParts(
  parts: TicketPart[],
  setup: BodySetup,
  opts: ReadOptions,
  report = false,
): TicketFile {
  const expectedTickets = parts.reduce((n, p) => n + p.count, 0);
  const joiner = new PartJoiner(setup, opts, { expectedTickets, report });
  for (const p of parts) joiner.add(p);
  return joiner.end();
}

/**
 * `joinParts` one part at a time, as the parts come (in file order), so a read that gets its parts
 * over time (a file still arriving) has them joined when the last one is in. A lone part is handed
 * over uncopied. `report`: also tell `opts.onRejected` of each part's rejected rows, with their line
 * in the file (a range reader has told no one).
 */
export class PartJoiner {
  private tickets = new Uint8Array(0);
  private lines = new Uint32Array(0);
  private offsets = new Float64Array(0);
  private lengths = new Uint32Array(0);
  /** Room for this many tickets in the joined arrays. */
  private cap = 0;
  /** Whether the tickets' lines, offsets and lengths are joined too (`ReadOptions.rows`). */
  private readonly rows: boolean;
  /** The first part, uncopied until a second one comes. */
  private first: TicketPart | null = null;
  private parts = 0;
  /** Tickets copied into the joined arrays. */
  private joined = 0;
  private rowsRead = 0;
  private rejectedCount = 0;
  private linesBefore = 0;
  private readonly rejected: RejectedRow[] = [];
  private readonly keepAll: boolean;
  private readonly expected: number;
  private readonly report: boolean;
  /** Parts given to `addAt` before an earlier one, by index, until it is in. */
  private readonly waiting = new Map<number, TicketPart>();
  private nextAt = 0;

  constructor(
    readonly setup: BodySetup,
    private readonly opts: ReadOptions,
    { expectedTickets = 0, report = false }: { expectedTickets?: number; report?: boolean } = {},
  ) {
    this.keepAll = opts.keepRejected ?? true;
    this.rows = opts.rows !== false;
    this.expected = expectedTickets;
    this.report = report;
  }

  /** The next part in file order. */
  add(p: TicketPart): void {
    const before = this.linesBefore;
    for (const r of p.rejected) {
      const inFile = before ? { ...r, line: r.line + before } : r;
      if (this.report) this.opts.onRejected?.(inFile);
      if (this.keepAll || this.rejected.length < 100) this.rejected.push(inFile);
    }
    if (this.parts === 0) this.first = p;
    else {
      const first = this.first;
      this.first = null;
      if (first) this.append(first, 0, p.count);
      this.append(p, before, 0);
    }
    this.parts++;
    this.rowsRead += p.rowsRead;
    this.rejectedCount += p.rejectedCount;
    this.linesBefore += p.linesRead;
  }

  /**
   * Part `index` (0-based, in file order) of parts read side by side, which may come in any order: it
   * is joined, after those given to `add` and those that waited for it, once every one before it is in.
   */
  addAt(index: number, part: TicketPart): void {
    this.waiting.set(index, part);
    for (let p = this.waiting.get(this.nextAt); p; p = this.waiting.get(this.nextAt)) {
      this.waiting.delete(this.nextAt++);
      this.add(p);
    }
  }

  /** Copies a part's tickets after those joined so far (`more`: room for what comes next). */
  private append(p: TicketPart, linesBefore: number, more: number): void {
    const at = this.joined;
    this.ensure(at + p.count + more);
    this.tickets.set(p.tickets, at * PICK);
    if (this.rows) {
      this.offsets.set(p.offsets, at);
      this.lengths.set(p.lengths, at);
      const lines = this.lines;
      for (let i = 0; i < p.count; i++) lines[at + i] = p.lines[i]! + linesBefore;
    }
    this.joined = at + p.count;
  }

  /** Room for `n` tickets: the expected count at once, else half as much again as now. */
  private ensure(n: number): void {
    if (n <= this.cap) return;
    const cap = Math.max(n, this.expected, Math.ceil(this.cap * 1.5));
    this.cap = cap;
    const used = this.joined;
    const moved = <A extends Uint8Array | Uint32Array | Float64Array>(
      into: A,
      from: A,
      per = 1,
    ) => {
      into.set(from.subarray(0, used * per));
      return into;
    };
    this.tickets = moved(new Uint8Array(cap * PICK), this.tickets, PICK);
    if (!this.rows) return;
    this.lines = moved(new Uint32Array(cap), this.lines);
    this.offsets = moved(new Float64Array(cap), this.offsets);
    this.lengths = moved(new Uint32Array(cap), this.lengths);
  }

  /** The joined file; `NoValidRowsError` when no row was valid. */
  end(): TicketFile {
    const { rowsRead, rejectedCount, rejected, opts } = this;
    const count = this.first ? this.first.count : this.joined;
    opts.onRows?.(rowsRead);
    if (count === 0) {
      const why =
        rowsRead === 0
          ? 'it has a header but no data rows'
          : `all ${rowsRead} rows were rejected (first: line ${rejected[0]?.line}: ${rejected[0]?.reason})`;
      throw new NoValidRowsError(
        `No valid ticket in the file: ${why}.`,
        rowsRead,
        rejectedCount,
        rejected.slice(0, 100),
      );
    }
    const one = this.first;
    const rows = this.rows ? count : 0;
    return {
      pool: opts.pool,
      delimiter: this.setup.delimiter,
      columns: this.setup.columns,
      tickets: one ? one.tickets : this.tickets.subarray(0, count * PICK),
      lines: one ? one.lines : this.lines.subarray(0, rows),
      offsets: one ? one.offsets : this.offsets.subarray(0, rows),
      lengths: one ? one.lengths : this.lengths.subarray(0, rows),
      count,
      rowsRead,
      rejectedCount,
      rejected,
    };
  }
}
