import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LimitAnswerView, LimitJobView } from '@pa/contracts/power7';
import { failEnvelope, okEnvelope, server } from '@/testing/msw';
import { answerVerify, POWER7, power7User, signedInAs } from '@/testing/power7';
import { renderApp } from '@/testing/render';
import { LiabilitySection } from './liability-section';

/**
 * The liability limit when its run outlasts the service's wait (issue #41 "any limit works"): the
 * POST answers 202 with the run's address, the tab shows the tickets decided as a progress bar while
 * it polls that address, then the figures; a run that failed says so, as a failed POST does.
 */

const userDetails = power7User(['power7.run']);
const RESULT_URL = '/api/power7/sessions/s1/limit/?limit=1500000';

const ANSWER: LimitAnswerView = {
  limit: 1_500_000,
  tickets: 3_000,
  accepted: 2_944,
  refused: 56,
  worstBefore: { combo: '1-2-3-4-5-6-7', totalPayout: 40_010_370 },
  worstAfter: { combo: '2-3-4-5-6-7-8', totalPayout: 1_499_950 },
};

const running = (done: number): LimitJobView => ({
  resultUrl: RESULT_URL,
  progress: { done, total: 3_000 },
});
const accepted = (data: LimitJobView) =>
  HttpResponse.json({ ...okEnvelope(data), code: 'ACCEPTED', status: 202 }, { status: 202 });

let polls = 0;

beforeEach(() => {
  polls = 0;
  answerVerify(() => userDetails);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.post(`${POWER7}/power7/sessions/s1/limit/`, () => accepted(running(0))),
    http.post(`${POWER7}/power7/sessions/s1/cap/`, () =>
      HttpResponse.json(
        okEnvelope({ limit: 1_500_000, maxCopies: 40, cap: 2, worstAtCap: null, refused: 52 }),
      ),
    ),
  );
});

function renderSection() {
  return renderApp(
    [{ path: '/limit', element: <LiabilitySection session="s1" /> }],
    '/limit',
    signedInAs(userDetails),
  );
}

async function checkLimit() {
  await userEvent.type(await screen.findByLabelText('Limit per draw'), '1500000');
  await userEvent.click(screen.getByRole('button', { name: 'Check the limit' }));
}

describe('liability limit run as a job', () => {
  it('shows the tickets decided as a progress bar while it polls the run, then the figures', async () => {
    let finished = false;
    server.use(
      http.get(`${POWER7}/power7/sessions/s1/limit/`, ({ request }) => {
        expect(new URL(request.url).searchParams.get('limit')).toBe('1500000');
        polls++;
        return finished ? HttpResponse.json(okEnvelope(ANSWER)) : accepted(running(1_500));
      }),
    );
    renderSection();
    await checkLimit();

    const bar = await screen.findByRole('progressbar', { name: 'Limit check progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(bar).toHaveAttribute('aria-valuetext', '1,500 of 3,000 tickets decided (50 %)');
    expect(screen.getByTestId('power7-limit-progress')).toHaveTextContent(
      'Checking every draw against 1,500,000.00: 1,500 of 3,000 tickets decided (50 %).',
    );
    // nothing that needs the answer is asked meanwhile (the refused rows, the new session's counts)
    expect(screen.queryByTestId('power7-limit-run')).not.toBeInTheDocument();

    finished = true;
    const figures = await screen.findByTestId('power7-limit-run');
    expect(figures).toHaveTextContent(
      '56 of 3,000 tickets are refused in sales order to keep every draw within 1,500,000.00.',
    );
    expect(within(figures).getByText('2,944')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Limit check progress' })).toBeNull();
    // the answer stops the polling
    const asked = polls;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(polls).toBe(asked);
  });

  it('says a run that failed could not be checked, and asks again on Try again', async () => {
    let posts = 0;
    server.use(
      http.post(`${POWER7}/power7/sessions/s1/limit/`, () => {
        posts++;
        return accepted(running(0));
      }),
      http.get(`${POWER7}/power7/sessions/s1/limit/`, () => {
        polls++;
        return polls === 1
          ? HttpResponse.json(
              failEnvelope(500, 'INTERNAL_ERROR', 'The limit run stopped. Try again.'),
              { status: 500 },
            )
          : HttpResponse.json(okEnvelope(ANSWER));
      }),
    );
    renderSection();
    await checkLimit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The limit could not be checked');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('power7-limit-run')).toHaveTextContent('56 of 3,000');
    expect(posts).toBe(2);
  });
});
