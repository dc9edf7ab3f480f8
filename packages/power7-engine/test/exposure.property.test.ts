import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { naiveAnalysis } from './reference';
import { moneyArb, ticketArb } from './arbitraries';

/**
 * The exposure rankings (by combination and by customer) equal a count done the obvious way: every
 * draw's total, the draws above the line, and for each combination and customer the payouts of its
 * tickets in those draws — on flat files and on files with a hot combination, at lines anywhere from
 * zero (every paying draw) to the worst draw (none), on both sides of the engine's choice of which
 * side of the line to count.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p7-exposure-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const caseArb = fc.integer({ min: 9, max: 12 }).chain((pool) =>
  fc.record({
    pool: fc.constant(pool),
    distinct: fc.array(ticketArb(pool), { minLength: 1, maxLength: 25 }),
    picks: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 5 })), {
      minLength: 1,
      maxLength: 120,
    }),
    hot: fc.oneof(fc.constant(0), fc.integer({ min: 20, max: 200 })),
    payouts: fc.record({ 3: moneyArb, 4: moneyArb, 5: moneyArb, 6: moneyArb, 7: moneyArb }),
    linePick: fc.double({ min: 0, max: 1, noNaN: true }),
    limit: fc.integer({ min: 1, max: 30 }),
  }),
);

const key = (numbers: number[]) => numbers.map((n) => String(n).padStart(2, '0')).join('');
const matches = (a: number[], b: number[]) => a.filter((n) => b.includes(n)).length;

describe('exposure', () => {
  it('ranks combinations and customers as an all-draws count does, at any line', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const tickets = c.picks.map(([p, customer]) => ({
          numbers: c.distinct[p % c.distinct.length]!,
          customer: `C${customer}`,
        }));
        for (let i = 0; i < c.hot; i++) tickets.push({ numbers: c.distinct[0]!, customer: 'HOT' });
        const payouts = c.payouts;
        if (![3, 4, 5, 6, 7].some((m) => payouts[m as 3] > 0)) return;
        const draws = naiveAnalysis(
          tickets.map((t) => t.numbers),
          c.pool,
          payouts,
        );
        const sorted = draws.map((d) => d.totalCents).sort((a, b) => a - b);
        const lineCents =
          sorted[Math.min(sorted.length - 1, Math.floor(c.linePick * sorted.length))]!;
        const over = draws.filter((d) => d.totalCents > lineCents);
        const tailCents = over.reduce((s, d) => s + d.totalCents, 0);
        const payCents = (m: number) => (m >= 3 ? Math.round(payouts[m as 3] * 100) : 0);

        // by combination: copies × Σ over the draws above the line of its payout
        const combos = new Map<string, { numbers: number[]; tickets: number }>();
        for (const t of tickets) {
          const k = key(t.numbers);
          const entry = combos.get(k) ?? { numbers: t.numbers, tickets: 0 };
          entry.tickets++;
          combos.set(k, entry);
        }
        const perCopy = new Map<string, { cents: number; won: number }>();
        for (const [k, { numbers }] of combos) {
          let cents = 0;
          let won = 0;
          for (const d of over) {
            const m = matches(numbers, d.numbers);
            if (m >= 3) won++;
            cents += payCents(m);
          }
          perCopy.set(k, { cents, won });
        }
        const expectedCombos = [...combos.entries()]
          .map(([k, v]) => ({
            k,
            ...v,
            cents: perCopy.get(k)!.cents * v.tickets,
            won: perCopy.get(k)!.won,
          }))
          .filter((v) => v.cents > 0)
          .sort((a, b) => b.cents - a.cents || (a.k < b.k ? -1 : 1))
          .map((v) => ({
            combo: v.numbers.join('-'),
            tickets: v.tickets,
            drawsWon: v.won,
            tailPayout: v.cents / 100,
            share: v.cents / tailCents,
          }));
        // by customer: Σ over its tickets
        const customers = new Map<string, { tickets: number; cents: number }>();
        for (const t of tickets) {
          const entry = customers.get(t.customer) ?? { tickets: 0, cents: 0 };
          entry.tickets++;
          entry.cents += perCopy.get(key(t.numbers))!.cents;
          customers.set(t.customer, entry);
        }
        const expectedCustomers = [...customers.entries()]
          .filter(([, v]) => v.cents > 0)
          .sort(([a, x], [b, y]) => y.cents - x.cents || (a < b ? -1 : 1))
          .map(([customerId, v]) => ({
            customerId,
            name: `Name ${customerId}`,
            tickets: v.tickets,
            tailPayout: v.cents / 100,
            share: v.cents / tailCents,
          }));

        const caseDir = await mkdtemp(join(dir, 'case-'));
        const csv = `customer_id,name,numbers\n${tickets
          .map((t) => `${t.customer},Name ${t.customer},${t.numbers.join(' ')}`)
          .join('\n')}\n`;
        await writeFile(join(caseDir, 'upload.csv'), csv);
        const sessionDir = join(caseDir, 's');
        await ingestFile({ sourcePath: join(caseDir, 'upload.csv'), sessionDir, pool: c.pool });
        await runAnalysis({
          sessionDir,
          payouts,
          budget: { type: 'fixed', budget: 0 },
          workers: 1,
        });
        const session = await openSession(sessionDir);
        const over$ = lineCents / 100;
        const byCombo = await session.exposure({ over: over$, by: 'combination' });
        const top = await session.exposure({ over: over$, by: 'combination', limit: c.limit });
        const byCustomer = await session.exposure({ over: over$, by: 'customer' });
        session.close();
        await rm(caseDir, { recursive: true, force: true });

        const head = { over: over$, draws: over.length, tailTotal: tailCents / 100 };
        expect(byCombo).toMatchObject({
          ...head,
          by: 'combination',
          ranked: expectedCombos.length,
        });
        expect(byCombo.items).toEqual(expectedCombos);
        expect(top.items).toEqual(expectedCombos.slice(0, c.limit));
        expect(byCustomer).toMatchObject({ ...head, ranked: expectedCustomers.length });
        expect(byCustomer.items).toEqual(expectedCustomers);
        // every payout above the line belongs to one combination: the shares add up to the whole
        const summed = expectedCombos.reduce((s, v) => s + Math.round(v.tailPayout * 100), 0);
        expect(summed).toBe(tailCents);
      }),
      { numRuns: 40 },
    );
  }, 300_000);

  it('refuses a ranking by customer of a file without customer ids, in words', async () => {
    const caseDir = await mkdtemp(join(dir, 'no-ids-'));
    await writeFile(join(caseDir, 'upload.csv'), 'numbers\n1 2 3 4 5 6 7\n2 3 4 5 6 7 8\n');
    const sessionDir = join(caseDir, 's');
    await ingestFile({ sourcePath: join(caseDir, 'upload.csv'), sessionDir, pool: 10 });
    const payouts = { 3: 1, 4: 2, 5: 3, 6: 4, 7: 5 };
    await runAnalysis({ sessionDir, payouts, budget: { type: 'fixed', budget: 0 }, workers: 1 });
    const session = await openSession(sessionDir);
    await expect(session.exposure({ over: 0, by: 'customer' })).rejects.toMatchObject({
      code: 'NO_CUSTOMER_IDS',
    });
    session.close();
  }, 60_000);
});
