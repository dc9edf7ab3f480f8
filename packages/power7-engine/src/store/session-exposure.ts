import { csvRow } from '@pa/contracts/csv';
import {
  combinationExposure,
  rankCombinations,
  rankCustomers,
  type CombinationExposure,
  type ExposureInput,
  type ExposureRanking,
} from '../analysis/exposure';
import type { RowReader } from '../analysis/winners';
import { EngineError } from '../core/errors';
import { keptAnswer } from './kept-answers';
import type { ExposureAnswer, ExposureQuery, IngestSummary } from './session-types';

/** Lines whose combination exposure an open session keeps (a page and its CSV download share one). */
const KEPT_LINES = 2;

/** Each ticket's customer id and name, in ticket order; null when the file has no id column. */
export type CustomerRows = () => AsyncIterable<{ id: string; name: string | null }> | null;

/** The exposure questions of one open session, the last lines' results kept. */
export class SessionExposures {
  /** By line in cents, least recently asked first. */
  private readonly byLine = new Map<number, Promise<CombinationExposure>>();
  private readonly customersByLine = new Map<number, Promise<ExposureRanking>>();

  constructor(private readonly input: ExposureInput & { customers: CustomerRows }) {}

  async answer(query: ExposureQuery): Promise<ExposureAnswer> {
    const { over, by } = checkQuery(query);
    const ranking =
      by === 'combination'
        ? rankCombinations(await this.combinations(over), query.limit)
        : await this.customers(over);
    const { rows, ...rest } = ranking;
    const items =
      by === 'customer' && query.limit !== undefined ? rows.slice(0, query.limit) : rows;
    return { over, by, ...rest, items };
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
    this.customersByLine.clear();
  }

  private combinations(over: number): Promise<CombinationExposure> {
    return keptAnswer(this.byLine, KEPT_LINES, Math.round(over * 100), (cents) =>
      combinationExposure(this.input, cents),
    );
  }

  private customers(over: number): Promise<ExposureRanking> {
    const rows = this.input.customers();
    if (!rows) {
      throw new EngineError(
        'NO_CUSTOMER_IDS',
        'This file has no customer id column, so its tickets cannot be grouped by customer. Rank by combination instead.',
        'by',
      );
    }
    return keptAnswer(this.customersByLine, KEPT_LINES, Math.round(over * 100), async (cents) =>
      rankCustomers(await this.combinations(cents / 100), rows),
    );
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
): AsyncIterable<{ id: string; name: string | null }> | null {
  if (ingest.idColumn === null) return null;
  const idAt = header.indexOf(ingest.idColumn);
  const nameAt = ingest.nameColumn === null ? -1 : header.indexOf(ingest.nameColumn);
  return (async function* () {
    for await (const [id, name] of rows.everyRow([idAt, nameAt]))
      yield { id: (id ?? '').trim(), name: name ?? null };
  })();
}
