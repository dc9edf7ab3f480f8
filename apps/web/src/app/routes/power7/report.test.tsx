import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Power7Status } from '@pa/contracts/power7';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

const POWER7 = 'http://localhost:3001/api';
const userDetails = {
  _id: 'u1',
  userName: 'ana',
  companyName: 'Demo',
  permissions: ['power7.run'],
};
const signedIn = () => ({ accessToken: fakeJwt(900), isAuthenticated: true, userDetails });

const done: Power7Status = {
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
  originalName: 'week-48.csv',
  fileBytes: 1024,
  counts: { rowsRead: 3000, accepted: 2990, rejected: 10, draws: 6724520, drawsQualified: 6000000 },
  timings: {},
  error: null,
  createdAt: '2026-11-24T01:00:00.000Z',
  startedAt: '2026-11-24T01:00:00.000Z',
  finishedAt: '2026-11-24T01:01:00.000Z',
  expiresAt: '2026-11-25T01:00:00.000Z',
  rejectedSample: [],
  rejectedReport: null,
};

const answerStatus = (status: Power7Status) =>
  server.use(
    http.get(`${POWER7}/power7/processing-status/`, () => HttpResponse.json(okEnvelope(status))),
  );

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(userDetails))),
  );
});

describe('Power 7 report states', () => {
  it('says an unfinished analysis has no report yet, with a link back to it', async () => {
    answerStatus({ ...done, status: 'running', phase: 'scanning' });
    renderApp(routes, '/app/power7/report?session=s1', signedIn());
    expect(await screen.findByText('This analysis has not finished')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the analysis' })).toHaveAttribute(
      'href',
      '/app/power7/process?session=s1',
    );
  });

  it('says a session that is gone no longer exists', async () => {
    server.use(
      http.get(`${POWER7}/power7/processing-status/`, () =>
        HttpResponse.json(
          { error: { code: 'NOT_FOUND', message: 'No such session' } },
          { status: 404 },
        ),
      ),
    );
    renderApp(routes, '/app/power7/report?session=gone', signedIn());
    expect(await screen.findByText('This session no longer exists')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your sessions' })).toHaveAttribute(
      'href',
      '/app/power7',
    );
  });

  it('prints the parameters of a session analysed before insight and says why figures are missing', async () => {
    answerStatus(done);
    server.use(
      http.post(`${POWER7}/insight/`, () =>
        HttpResponse.json(
          { error: { code: 'NO_DISTRIBUTION', message: 'Too old' } },
          { status: 409 },
        ),
      ),
    );
    renderApp(routes, '/app/power7/report?session=s1', signedIn());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'week-48.csv' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('power7-report-parameters')).toHaveTextContent('at most 2,000.00');
    expect(
      await screen.findByText(/ran before the exact budget insight existed/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
  });
});
