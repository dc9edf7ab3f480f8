import { csvRow } from '@pa/contracts/csv';
import {
  combinationExposure,
  customerIndex,
  rankCombinations,
  rankCustomers,
  type CombinationExposure,
  type CustomerIndex,
  type ExposureBase,
  type ExposureInput,
} from '../analysis/exposure';
import type { RowReader } from '../analysis/winners';
import { EngineError } from '../core/errors';
import { keptAnswer } from './kept-answers';
import type { ExposureAnswer, ExposureQuery, IngestSummary } from './session-types';

/** Lines whose combination exposure an open session keeps (a page and its CSV download share one). */
const KEPT_LINES = 2;

/** Each ticket's customer id and name, in ticket order and batches; null without an id column. */
export type CustomerRows = () => AsyncIterable<{ id: string; name: string | null }[]> | null;

/**
 * The exposure questions of one open session. What every line shares — every draw's total, the
 * distinct combinations (`base`, shared with the liability limit) and the customer of each ticket —
 * is made on the first question and kept while the session is open; the last lines' results too.
 */
export class SessionExposures {
  /** By line in cents, least recently asked first. */
  private readonly byLine = new Map<number, Promise<CombinationExposure>>();
  private customerIndex: Promise<CustomerIndex> | null = null;

  constructor(
    private readonly input: ExposureInput & {
      base: () => Promise<ExposureBase>;
      customers: CustomerRows;
    },
  ) {}

  async answer(query: ExposureQuery): Promise<ExposureAnswer> {
    const { over, by } = checkQuery(query);
    const ranking =
      by === 'combination'
        ? rankCombinations(await this.combinations(over), query.limit)
        : rankCustomers(await this.combinations(over), await this.customers(), query.limit);
    const { rows, ...rest } = ranking;
    return { over, by, ...rest, items: rows };
  }

  async csv(query: Omit<ExposureQuery, 'limit'>): Promise<AsyncIterable<string>> {
    const answer = await this.answer(query);
    return (async function* () {
      if (answer.by === 'combination') {
        yield csvRow(['combo', 'tickets', 'draws_won', 'tail_payout', 'share']);
        for (const r of answer.items)
          yield csvRow([r.combo, r.tickets, r.drawsWon, r.tailPayout, r.share]);
      } else {
        yield csvRow(['customer_id', 'name', 'tickets', 'tail_payout', 'share']);
        for (const r of answer.items)
          yield csvRow([r.customerId, r.name ?? '', r.tickets, r.tailPayout, r.share]);
      }
    })();
  }

  clear(): void {
    this.byLine.clear();
    this.customerIndex = null;
  }

  private combinations(over: number): Promise<CombinationExposure> {
    return keptAnswer(this.byLine, KEPT_LINES, Math.round(over * 100), async (cents) =>
      combinationExposure(this.input, cents, await this.input.base()),
    );
  }

  private customers(): Promise<CustomerIndex> {
    const rows = this.input.customers();
    if (!rows) {
      throw new EngineError(
        'NO_CUSTOMER_IDS',
        'This file has no customer id column, so its tickets cannot be grouped by customer. Rank by combination instead.',
        'by',
      );
    }
    if (!this.customerIndex) {
      const made = customerIndex(rows, this.input.count);
      // a failed read is not kept: the next question reads again
      made.catch(() => this.customerIndex === made && (this.customerIndex = null));
      this.customerIndex = made;
    }
    return this.customerIndex;
  }
}

function checkQuery(query: ExposureQuery): ExposureQuery {
  const { over, by, limit } = query;
  if (typeof over !== 'number' || !Number.isFinite(over) || over < 0) {
    throw new EngineError('INVALID_PARAMS', 'The line must be an amount ≥ 0.', 'over');
  }
  if (by !== 'combination' && by !== 'customer') {
    throw new EngineError('INVALID_PARAMS', 'Rank by "combination" or by "customer".', 'by');
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new EngineError('INVALID_PARAMS', 'The limit must be a whole number ≥ 1.', 'limit');
  }
  return query;
}

/** Every ticket's customer id and name read back from the stored rows, in ticket order. */
export function customerColumns(
  rows: RowReader,
  header: string[],
  ingest: Pick<IngestSummary, 'idColumn' | 'nameColumn'>,
): AsyncIterable<{ id: string; name: string | null }[]> | null {
  if (ingest.idColumn === null) return null;
  const idAt = header.indexOf(ingest.idColumn);
  const nameAt = ingest.nameColumn === null ? -1 : header.indexOf(ingest.nameColumn);
  return (async function* () {
    for await (const batch of rows.everyRow([idAt, nameAt]))
      yield batch.map(([id, name]) => ({ id: (id ?? '').trim(), name: name ?? null }));
  })();
}
