import { csvRow } from '@pa/contracts/csv';
import { keptAnswer } from './kept-answers';
import type { BookSeed } from '../analysis/book';
import type { ExposureBase, ExposureInput } from '../analysis/exposure';
import {
  capRun,
  firstCopiesMask,
  limitRun,
  type CapRun,
  type LimitRun,
} from '../analysis/liability';
import type { RowReader } from '../analysis/winners';
import { EngineError } from '../core/errors';
import { MAX_AMOUNT, ticketsWhere } from '../core/model';
import type { LimitAnswer, LimitJob, LimitProgress } from './session-types';

/** Limits whose runs an open session keeps (an answer and its refused-rows CSV share one). */
const KEPT_LIMITS = 2;

/** The liability-limit questions of one open session, the last limits' runs kept. */
export class SessionLiability {
  private readonly runs = new Map<number, Promise<LimitRun>>();
  /** The progress of each kept run (tickets decided so far), updated in place while it runs. */
  private readonly progress = new Map<number, LimitProgress>();
  private readonly caps = new Map<number, Promise<CapRun>>();

  constructor(
    private readonly input: ExposureInput,
    private readonly base: () => Promise<ExposureBase>,
    private readonly rows: RowReader,
    private readonly header: string[],
    private readonly lines: Uint32Array,
  ) {}

  async limit(limit: number): Promise<LimitAnswer> {
    const run = await this.run(limit);
    const { refusedTickets: _t, breaches: _b, refusedMask: _m, ...answer } = run;
    void [_t, _b, _m];
    return answer;
  }

  /** The limit's answer and its run's live progress (a run already asked for is joined). */
  limitJob(limit: number): LimitJob {
    const answer = this.limit(limit);
    const progress = this.progress.get(Math.round(limit * 100)) ?? {
      done: this.input.count,
      total: this.input.count,
    };
    return { answer, progress };
  }

  /**
   * Per ticket in file order, 1 when kept under `limit`: in sales order (the tickets the limit
   * accepts), or by the cap per combination (each combination's first `cap` copies).
   */
  async acceptedMask(limit: number, mode: 'sales-order' | 'cap'): Promise<Uint8Array> {
    if (mode === 'sales-order') return (await this.run(limit)).refusedMask.map((r) => 1 - r);
    const { cap } = await this.cap(limit);
    const { of } = (await this.base()).distinct;
    return firstCopiesMask(of, this.input.count, cap);
  }

  /** What a live book opened at `limit` starts from: every draw's total and the refused tickets. */
  async bookSeed(limit: number): Promise<BookSeed> {
    const run = await this.run(limit);
    const { totals, unit } = await this.base();
    return { totals, unit, refused: ticketsWhere(this.input.tickets, run.refusedMask) };
  }

  cap(limit: number): Promise<CapRun> {
    return keptAnswer(this.caps, KEPT_LIMITS, checkLimit(limit), (cents) =>
      capRun(this.input, cents / 100),
    );
  }

  /** Every refused row in file order: its columns, `line`, `breach_draw`, `would_be_total`. */
  async refusedCsv(limit: number): Promise<AsyncIterable<string>> {
    const run = await this.run(limit);
    const breaches = await run.breaches();
    const { rows, header, lines } = this;
    return (async function* () {
      yield csvRow([...header, 'line', 'breach_draw', 'would_be_total']);
      let k = 0;
      for await (const fields of rows.rows(run.refusedTickets)) {
        const t = run.refusedTickets[k]!;
        const cells = header.map((_, i) => fields[i] ?? '');
        yield csvRow([...cells, lines[t]!, breaches.draws[k]!, breaches.totals[k]!]);
        k++;
      }
    })();
  }

  clear(): void {
    this.runs.clear();
    this.progress.clear();
    this.caps.clear();
  }

  private run(limit: number): Promise<LimitRun> {
    const run = keptAnswer(this.runs, KEPT_LIMITS, checkLimit(limit), async (cents) => {
      const progress = { done: 0, total: this.input.count };
      this.progress.set(cents, progress);
      const report = (decided: number) => void (progress.done = decided);
      return limitRun(this.input, cents / 100, undefined, await this.base(), report);
    });
    // only the kept runs' progress is kept
    for (const cents of this.progress.keys())
      if (!this.runs.has(cents)) this.progress.delete(cents);
    return run;
  }
}

/** The limit in cents, once it is an amount the game can hold. */
function checkLimit(limit: number): number {
  if (
    typeof limit !== 'number' ||
    !Number.isFinite(limit) ||
    limit < 0 ||
    limit > MAX_AMOUNT ||
    Math.abs(Math.round(limit * 100) - limit * 100) > 1e-6
  ) {
    throw new EngineError(
      'INVALID_PARAMS',
      'The limit must be an amount ≥ 0 with at most two decimals.',
      'limit',
    );
  }
  return Math.round(limit * 100);
}
