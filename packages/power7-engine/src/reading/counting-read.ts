import { BINOM } from '../core/model';
import { tableBufferPool } from '../core/shared-buffers';
import { countWhileReading } from '../core/tables';
import type { CountedTickets } from '../core/table-types';
import type { TicketPart } from './ticket-reader';

/**
 * The count tables' first step (`CountedTickets`) done by the threads that read the ranges of a file
 * while it arrives (`ArrivingCsvRead`), on tickets they have just read: the threads are mostly idle
 * between ranges, so the analysis that follows the upload starts with its tickets counted. One
 * 6-subset table per range read at the same time (a range counts into a table no other range is
 * using), and each part's ticket ranks, put in file order at the end. The tables come from the
 * analyses' buffer pool, which takes them back after the analysis that uses them.
 */
export class CountingRead {
  /** One per range read at the same time; `tables[0]` also counts the head. */
  private readonly tables: Uint32Array[];
  private readonly free: Uint32Array[];
  /** Each part's ticket ranks, by part index in file order (0: the head). */
  private readonly ranks: Uint32Array[] = [];

  constructor(
    private readonly pool: number,
    threads: number,
  ) {
    const bytes = BINOM[pool]![6]! * 4;
    this.tables = Array.from(
      { length: Math.max(1, threads) },
      () => new Uint32Array(tableBufferPool.take(bytes, true)),
    );
    this.free = [...this.tables];
  }

  /** Counts the head's tickets, here, before any range is handed out. */
  countHead(head: TicketPart): void {
    const ranks = new Uint32Array(head.count);
    countWhileReading(head.tickets, head.count, this.tables[0]!, ranks);
    this.ranks[0] = ranks;
  }

  /** The head's ticket ranks, when its tickets were counted elsewhere (with a range: `countAlso`). */
  headCounted(ranks: Uint32Array): void {
    this.ranks[0] = ranks;
  }

  /** A table no range in flight counts into (at most `threads` ranges are read at once). */
  take(): Uint32Array {
    const table = this.free.pop();
    if (!table) throw new Error('more ranges counted at once than tables');
    return table;
  }

  /** Range `part`'s table is free again; `ranks` (its tickets', from the worker) are kept. */
  done(table: Uint32Array, part: number, ranks: Uint32Array | undefined): void {
    this.free.push(table);
    if (ranks) this.ranks[part] = ranks;
  }

  /** The counts of `parts` parts holding `count` tickets, or null when a part was not counted. */
  result(parts: number, count: number): CountedTickets | null {
    // every part counted (no hole: `some` would skip one), and holding exactly the file's tickets
    const kept = Array.from({ length: parts }, (_, i) => this.ranks[i]);
    if (!kept.every((r): r is Uint32Array => r !== undefined)) return null;
    if (kept.reduce((n, r) => n + r.length, 0) !== count) return null;
    // taken only for a result: a buffer from the pool that went unused would be lost to it
    const all = new Uint32Array(tableBufferPool.take(count * 4, false), 0, count);
    let at = 0;
    for (const ranks of kept) {
      all.set(ranks, at);
      at += ranks.length;
    }
    return { pool: this.pool, c6: this.tables, ranks: all };
  }
}
