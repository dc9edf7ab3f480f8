import { screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Power7Status } from '@pa/contracts/power7';
import type { UserDetails } from '@pa/contracts/accounts';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { answerVerify, POWER7, power7User, signedInAs } from '@/testing/power7';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

let verified: Partial<UserDetails> | null = null;
/** A signed-in user holding `permissions` (the portal's verify call answers the same). */
const user = (permissions: string[]) => {
  const details = power7User(permissions);
  verified = details;
  return signedInAs(details);
};
const runner = () => user(['power7.run', 'power7.download', 'power7.sessions.clear']);

const session: Power7Status = {
  _id: 's1',
  status: 'running',
  phase: 'scanning',
  progress: 0.6,
  params: {
    budget_type: 'range',
    budget: null,
    budget_min: 100,
    budget_max: 2500.5,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    pool_size: 40,
  },
  originalName: 'customers.csv',
  fileBytes: 1024,
  counts: { rowsRead: 3000, accepted: 2990, rejected: 10 },
  timings: {},
  error: null,
  createdAt: '2026-11-24T01:00:00.000Z',
  startedAt: '2026-11-24T01:00:00.000Z',
  finishedAt: null,
  expiresAt: '2026-11-25T01:00:00.000Z',
  rejectedSample: [],
  rejectedReport: null,
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  answerVerify(() => verified);
});

describe('Power 7 parameters step', () => {
  it('offers the previous session parameters and shows the fields of the budget type', async () => {
    server.use(
      http.get(`${POWER7}/power7/sessions/`, () =>
        HttpResponse.json(
          okEnvelope({ items: [session], page: 1, pageSize: 1, total: 1, totalPages: 1 }),
        ),
      ),
    );
    renderApp(routes, '/app/power7/parameters', runner());
    expect(await screen.findByLabelText('Maximum budget')).toHaveValue('2500.5');
    expect(screen.getByLabelText('Minimum budget')).toHaveValue('100');
    expect(screen.getByLabelText('7 matches')).toHaveValue('5000');
    expect(screen.getByLabelText(/Pool size/)).toHaveValue('40');
    expect(screen.queryByLabelText('Budget')).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Fixed: at most an amount'));
    expect(screen.getByLabelText('Budget')).toBeInTheDocument();
    expect(screen.queryByLabelText('Maximum budget')).not.toBeInTheDocument();
  });

  it('validates with the shared schema before anything is sent', async () => {
    const uploads = vi.fn();
    server.use(
      http.get(`${POWER7}/power7/sessions/`, () =>
        HttpResponse.json(okEnvelope({ items: [], page: 1, pageSize: 1, total: 0, totalPages: 0 })),
      ),
      http.post(`${POWER7}/upload/`, () => {
        uploads();
        return HttpResponse.json(okEnvelope(null));
      }),
    );
    renderApp(routes, '/app/power7/parameters', runner());
    const submit = await screen.findByRole('button', { name: 'Upload and analyse' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.type(screen.getByLabelText('Budget'), '-3');
    for (const m of [3, 4, 5, 6, 7])
      await userEvent.type(screen.getByLabelText(`${m} matches`), '0');
    await userEvent.click(submit);
    expect(await screen.findByText('The budget must be a number ≥ 0.')).toBeInTheDocument();
    expect(screen.getByText('At least one payout must be greater than 0.')).toBeInTheDocument();
    expect(uploads).not.toHaveBeenCalled();
  });
});

describe('Power 7 upload when the token refresh gets no answer', () => {
  afterEach(() => Cookies.remove('refreshToken'));

  it('says the sign-in service cannot be reached and sends nothing', async () => {
    const uploads = vi.fn();
    Cookies.set('refreshToken', 'rt-0');
    server.use(
      http.get(`${POWER7}/power7/sessions/`, () =>
        HttpResponse.json(okEnvelope({ items: [], page: 1, pageSize: 1, total: 0, totalPages: 0 })),
      ),
      http.post(`${PORTAL}/accounts/rotate-token`, () => HttpResponse.error()),
      http.post(`${POWER7}/upload/`, () => {
        uploads();
        return HttpResponse.json(okEnvelope(null));
      }),
    );
    // signed in, the access token expired: the upload refreshes it first
    renderApp(routes, '/app/power7/parameters', { ...runner(), accessToken: fakeJwt(-60) });
    const submit = await screen.findByRole('button', { name: 'Upload and analyse' });
    await waitFor(() => expect(submit).toBeEnabled());
    const csv = 'customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7\n1,Ana,555,1,2,3,4,5,6,7\n';
    await userEvent.upload(
      document.querySelector<HTMLInputElement>('#customer_file')!,
      new File([csv], 'customers.csv', { type: 'text/csv' }),
    );
    await userEvent.type(screen.getByLabelText('Budget'), '2000');
    for (const m of [3, 4, 5, 6, 7])
      await userEvent.type(screen.getByLabelText(`${m} matches`), String(m));
    await userEvent.click(submit);
    expect(
      await screen.findByText(
        'Cannot reach the sign-in service. Check your connection and try again.',
      ),
    ).toBeInTheDocument();
    expect(uploads).not.toHaveBeenCalled();
  });
});

describe('Power 7 permissions and states', () => {
  it('says no session or no draw was chosen, with the ways on', async () => {
    const first = renderApp(routes, '/app/power7/process', runner());
    expect(await screen.findByText('No session chosen')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New analysis' })).toHaveAttribute(
      'href',
      '/app/power7/parameters',
    );
    expect(screen.getByRole('link', { name: 'Your sessions' })).toHaveAttribute(
      'href',
      '/app/power7',
    );
    first.unmount();
    renderApp(routes, '/app/power7/results?session=s1', runner());
    expect(await screen.findByText('No draw chosen')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your sessions' })).toHaveAttribute(
      'href',
      '/app/power7',
    );
  });

  it('shows the 403 state without power7.run, with the button disabled', async () => {
    renderApp(routes, '/app/power7', user(['users.read']));
    expect(await screen.findByText(/You cannot run Power 7 analyses/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New analysis' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear all sessions' })).toBeDisabled();
  });

  it('polls a running job and stops once it has failed', async () => {
    let calls = 0;
    server.use(
      http.get(`${POWER7}/power7/processing-status/`, () => {
        calls++;
        return HttpResponse.json(
          okEnvelope(
            calls < 3
              ? session
              : {
                  ...session,
                  status: 'failed',
                  phase: 'failed',
                  error: { code: 'NO_VALID_ROWS', message: 'No row holds a valid ticket.' },
                },
          ),
        );
      }),
    );
    renderApp(routes, '/app/power7/process?session=s1', runner());
    expect(await screen.findByText('Scanning every draw')).toBeInTheDocument();
    expect(
      await screen.findByText('No row holds a valid ticket.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: /New analysis with the same parameters/ }),
    ).toHaveAttribute('href', '/app/power7/parameters?from=s1');
    // the failure is said once, in its own card: no stalled progress card ("Failed · Failed · 0 %")
    expect(screen.queryByTestId('power7-progress')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed')).not.toBeInTheDocument();
    const settled = calls;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(calls).toBe(settled);
  });
});
