import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Power7Status } from '@pa/contracts/power7';
import { okEnvelope, server } from '@/testing/msw';
import { answerVerify, doneStatus, POWER7, power7User, signedInAs } from '@/testing/power7';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

const signedIn = () => signedInAs(power7User());
const done = doneStatus({ originalName: 'week-48.csv' });

const answerStatus = (status: Power7Status) =>
  server.use(
    http.get(`${POWER7}/power7/processing-status/`, () => HttpResponse.json(okEnvelope(status))),
  );

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  answerVerify(() => power7User());
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
