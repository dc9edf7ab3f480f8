import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORT_KEYS, type FilterQuery } from '../src/core/draw-query';
import { closeWinnersThreads } from '../src/parallel/winners-pool';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import type { OpenSession } from '../src/store/session-types';
import { ticketArb } from './arbitraries';

// P = 20: 77,520 draws, all qualifying, so a query without a payout range scans more draws than a
// filter scans in the event loop's thread: its scan runs on the winners threads, in two parts.
const POOL = 20;
const TICKETS = 3000;

let dir: string;
let session: OpenSession;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-filter-threads-'));
  const tickets = fc.sample(ticketArb(POOL), { numRuns: TICKETS, seed: 42 });
  const source = join(dir, 'customers.csv');
  await writeFile(
    source,
    ['n1,n2,n3,n4,n5,n6,n7', ...tickets.map((t) => t.join(','))].join('\n') + '\n',
  );
  const sessionDir = join(dir, 'session');
  await ingestFile({ sourcePath: source, sessionDir, pool: POOL });
  await runAnalysis({
    sessionDir,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    budget: { type: 'fixed', budget: 1e9 },
    workers: 1,
  });
  session = await openSession(sessionDir);
}, 120_000);
afterAll(async () => {
  session?.close();
  await closeWinnersThreads();
  await rm(dir, { recursive: true, force: true });
});

const queryArb: fc.Arbitrary<FilterQuery> = fc.record(
  {
    page: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1000, max: 5000 })),
    pageSize: fc.integer({ min: 1, max: 60 }),
    sort: fc.record({
      by: fc.constantFrom(...SORT_KEYS),
      direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
    }),
    winners: fc.record(
      {
        3: fc.record({ min: fc.integer({ min: 0, max: 120 }) }),
        5: fc.record({ max: fc.integer({ min: 0, max: 3 }) }),
      },
      { requiredKeys: [] },
    ),
    totalPayout: fc.record({ min: fc.integer({ min: 0, max: 1000 }) }),
    mustInclude: fc.uniqueArray(fc.integer({ min: 1, max: POOL }), { maxLength: 2 }),
    mustExclude: fc.uniqueArray(fc.integer({ min: 1, max: POOL }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

describe("an open session's filters on the winners threads (filterAsync)", () => {
  it('answers what the scan of the qualifying draws answers', async () => {
    const queries = [
      {},
      { sort: { by: 'winners4', direction: 'desc' } },
      { sort: { by: 'combo', direction: 'desc' }, page: 3 },
      { winners: { 3: { min: 50 } } },
      ...fc.sample(queryArb, { numRuns: 40, seed: 7 }),
    ] satisfies FilterQuery[];
    // before any filterAsync, `filter` is the scan (queryDraws): the reference
    const scanned = queries.map((q) => session.filter(q));
    const threaded = await Promise.all(queries.map((q) => session.filterAsync(q)));
    expect(threaded).toEqual(scanned);
    // `filter` reads the index too once it is built
    expect(queries.map((q) => session.filter(q))).toEqual(scanned);
    expect(scanned[0]!.total).toBe(scanned[0]!.qualified);
  });

  it('refuses a bad query as the scan does, and stops when its client has gone', async () => {
    await expect(session.filterAsync({ pageSize: 0 })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'pageSize',
    });
    const gone = new AbortController();
    gone.abort();
    // a winners range over every draw: counted on the threads
    const query: FilterQuery = {
      winners: { 3: { min: 0 } },
      sort: { by: 'winners3', direction: 'asc' },
    };
    await expect(session.filterAsync(query, gone.signal)).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    // the threads are free afterwards
    const answer = await session.filterAsync(query);
    expect(answer.total).toBe(answer.qualified);
  });
});
