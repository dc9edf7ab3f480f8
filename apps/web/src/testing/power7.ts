import { http, HttpResponse } from 'msw';
import type { InsightAnswer, Power7Status } from '@pa/contracts/power7';
import type { UserDetails } from '@pa/contracts/accounts';
import type { AuthState } from '@/lib/signed-in/auth-slice';
import { fakeJwt, okEnvelope, PORTAL, server } from './msw';

/** Where the web app finds the Power 7 service in tests (the dev default). */
export const POWER7 = 'http://localhost:3001/api';

/** A Power 7 user of the Demo company holding `permissions` (the portal's user details). */
export const power7User = (permissions: string[] = ['power7.run']): Partial<UserDetails> => ({
  _id: 'u1',
  userName: 'ana',
  companyName: 'Demo',
  permissions,
});

/** The signed-in state renderApp starts from, for `userDetails`. */
export const signedInAs = (userDetails: Partial<UserDetails>): Partial<AuthState> => ({
  accessToken: fakeJwt(900),
  isAuthenticated: true,
  userDetails,
});

/** The fake portal's verify call answers with `userDetails` (read at each call). */
export const answerVerify = (userDetails: () => unknown) =>
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(userDetails()))),
  );

/**
 * A finished session's status: a fixed budget of 2,000, payouts 1 / 5 / 50 / 500 / 5,000, a pool of
 * 35, 3,000 tickets of customers.csv; `over` replaces any field.
 */
export const doneStatus = (over: Partial<Power7Status> = {}): Power7Status => ({
  _id: 's1',
  status: 'done',
  phase: 'done',
  progress: 1,
  params: {
    budget_type: 'fixed',
    budget: 2000,
    budget_min: null,
    budget_max: null,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    pool_size: 35,
  },
  originalName: 'customers.csv',
  fileBytes: 2048,
  counts: { rowsRead: 3010, accepted: 3000, rejected: 10, draws: 6724520, drawsQualified: 6000000 },
  timings: {},
  error: null,
  createdAt: '2026-11-26T05:00:00Z',
  startedAt: null,
  finishedAt: null,
  expiresAt: '2026-11-27T05:00:00Z',
  rejectedSample: [],
  rejectedReport: null,
  ...over,
});

/**
 * What the service answers for `budgets` and `ranges` over a file whose draws pay `totals`, counted
 * exactly here (the quantiles and the jackpot draws are the test's to give).
 */
export function answerOverTotals(
  totals: number[],
  given: Pick<InsightAnswer, 'quantiles' | 'jackpotDraws'>,
  budgets: number[],
  ranges: { min: number; max: number }[] = [],
): InsightAnswer {
  const draws = totals.length;
  const max = Math.max(...totals);
  return {
    draws,
    min: Math.min(...totals),
    max,
    mean: totals.reduce((a, b) => a + b, 0) / draws,
    ...given,
    jackpotShare: given.jackpotDraws / draws,
    worst: {
      combo: '1-2-3-4-5-6-7',
      totalPayout: max,
      winners: { 3: 0, 4: 0, 5: 0, 6: 0, 7: 1 },
    },
    budgets: budgets.map((budget) => {
      const covered = totals.filter((t) => t <= budget).length;
      const excess = totals.reduce((s, t) => s + Math.max(0, t - budget), 0) / draws;
      return {
        budget,
        covered,
        share: covered / draws,
        exceedProbability: (draws - covered) / draws,
        expectedExcess: excess,
        exceeding: draws - covered,
        meanOvershoot: draws > covered ? (excess * draws) / (draws - covered) : null,
      };
    }),
    ranges: ranges.map(({ min, max: top }) => {
      const within = totals.filter((t) => t >= min && t <= top).length;
      const below = totals.filter((t) => t < min).length;
      return { min, max: top, within, share: within / draws, below, above: draws - within - below };
    }),
    limits: [],
    excessLimits: [],
    shortfall: [],
  };
}
