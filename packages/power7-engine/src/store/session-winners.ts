import { EngineError } from '../core/errors';
import { formatCombo, MATCH_TYPES, parseCombo, PICK, type MatchType } from '../core/model';
import { matchedNumbers, ticketMasks, type RowReader } from '../analysis/winners';
import { lookupPays, type WinnerOrder, type WinnersSource } from '../analysis/winners-csv';
import type { AnalysisSummary, IngestSummary, WinnerRow, WinnersPage } from './session-types';
import {
  buildLookupOnThreads,
  findWinnersOnThreads,
  readRowsOnThreads,
  winnersCsvOnThreads,
} from '../parallel/winners-pool';

/** Winners of recent draws kept per open session (concurrent downloads of one draw walk once). */
const KEPT_WINNER_ORDERS = 8;

/** What an open session's winners are read from: its tickets, their rows and the analysis. */
export interface WinnersInput {
  sessionDir: string;
  ingest: IngestSummary;
  analysis: AnalysisSummary;
  /** `PICK` bytes a ticket, in shared memory (the winners threads read them without a copy). */
  tickets: Uint8Array;
  count: number;
  /** Per ticket: its row's byte offset in `rows.csv`, line number and length. */
  offsets: Float64Array;
  lines: Uint32Array;
  lengths: Uint32Array;
  rowsPath: string;
  /** The rows file read back by row (shared with the exposure and liability questions). */
  rows: RowReader;
}

/**
 * The winners of one open session's draws (`OpenSession.winners`, `winnersCsv`, `winnersCsvBytes`),
 * found on the winners threads: by a walk of the tickets, or by the ticket lookup built there when
 * winners it serves are first asked for; the last draws' winners kept.
 */
export class SessionWinners {
  private readonly source: WinnersSource;
  // built once, on a winners thread, when winners it serves are first asked for; walked until then
  private lookupBuilt: Promise<void> | null = null;
  // in flight or found, least recently asked first out: concurrent requests for a draw share a walk
  private readonly orders = new Map<string, Promise<WinnerOrder>>();
  private closed = false;

  constructor(
    private readonly input: WinnersInput,
    /** Throws once the session is closed. */
    private readonly ensureOpen: () => void,
  ) {
    const { sessionDir, ingest, analysis, tickets, count, offsets, lengths, rowsPath } = input;
    this.source = {
      key: sessionDir,
      tickets,
      masks: ticketMasks(tickets, count, true),
      offsets,
      lengths,
      rowsPath,
      delimiter: ingest.delimiter.charCodeAt(0),
      header: ingest.columns,
      payouts: analysis.payouts,
      pool: ingest.pool,
    };
  }

  /** One page of the winners of `combo` with `matchType` matches, their rows read back. */
  async page(combo: string, matchType: MatchType, page = 1, pageSize = 50): Promise<WinnersPage> {
    this.ensureOpen();
    const { ingest, analysis, tickets, lines } = this.input;
    const header = ingest.columns;
    const numbers = parseCombo(combo, ingest.pool);
    const m = checkMatch(matchType);
    if (!Number.isInteger(page) || page < 1) {
      throw new EngineError('INVALID_PARAMS', 'page must be a whole number ≥ 1.', 'page');
    }
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw new EngineError('INVALID_PARAMS', 'pageSize must be 1..1000.', 'pageSize');
    }
    const { index } = await this.winnerOrder(numbers, m);
    const slice = index.subarray((page - 1) * pageSize, page * pageSize);
    const items: WinnerRow[] = [];
    let k = 0;
    const col = (name: string | null, fields: string[]) =>
      name === null ? null : (fields[header.indexOf(name)] ?? null);
    // read on a winners thread: a page of scattered winners is a read per row
    for (const fields of await readRowsOnThreads(this.source, slice)) {
      const t = slice[k++]!;
      const columns: Record<string, string> = {};
      header.forEach((h, i) => (columns[h] = fields[i] ?? ''));
      items.push({
        line: lines[t]!,
        customerId: col(ingest.idColumn, fields),
        name: col(ingest.nameColumn, fields),
        phone: col(ingest.phoneColumn, fields),
        numbers: Array.from(tickets.subarray(t * PICK, t * PICK + PICK)),
        matchType: m,
        matched: matchedNumbers(tickets, t, numbers),
        payout: analysis.payouts[m],
        columns,
      });
    }
    return {
      combo: formatCombo(numbers),
      matchType: m,
      items,
      page,
      pageSize,
      total: index.length,
      totalPages: Math.ceil(index.length / pageSize),
    };
  }

  /** The winners CSV as text chunks. */
  csv(combo: string, matchType: MatchType | 'all'): AsyncIterable<string> {
    const bytes = this.csvBytes(combo, matchType);
    return (async function* () {
      // chunks end at a row's end: each one is whole UTF-8
      for await (const chunk of bytes)
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    })();
  }

  /** The CSV bytes, once the combo and match type are checked (they throw at once). */
  csvBytes(combo: string, matchType: MatchType | 'all'): AsyncIterable<Uint8Array> {
    this.ensureOpen();
    const numbers = parseCombo(combo, this.input.ingest.pool);
    const m = matchType === 'all' ? 'all' : checkMatch(matchType);
    const source = this.source;
    const order = () => this.winnerOrder(numbers, m);
    return (async function* () {
      yield* winnersCsvOnThreads(source, numbers, await order());
    })();
  }

  /** Drops the kept winners and the ticket lookup (the session closes). */
  clear(): void {
    this.closed = true;
    this.orders.clear();
    delete this.source.lookup;
  }

  private winnerOrder(numbers: number[], m: MatchType | 'all'): Promise<WinnerOrder> {
    const { source, orders } = this;
    const key = `${numbers.join('-')}/${m}`;
    if (lookupPays(source.pool, this.input.count, m)) {
      this.lookupBuilt ??= buildLookupOnThreads(source).then(
        (lookup) => void (this.closed || (source.lookup = lookup)),
        // a walk finds the same winners: a failed build only costs speed
        () => {},
      );
    }
    let order = orders.get(key);
    if (order) orders.delete(key);
    else {
      order = findWinnersOnThreads(source, numbers, m);
      order.catch(() => orders.get(key) === order && orders.delete(key));
    }
    orders.set(key, order);
    if (orders.size > KEPT_WINNER_ORDERS) orders.delete(orders.keys().next().value!);
    return order;
  }
}

function checkMatch(m: unknown): MatchType {
  if (!MATCH_TYPES.includes(m as MatchType)) {
    throw new EngineError('INVALID_PARAMS', 'The match type must be 3, 4, 5, 6 or 7.', 'matchType');
  }
  return m as MatchType;
}
