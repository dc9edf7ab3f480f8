import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fieldFailEnvelope, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { demoAdmin, signedInAs } from '@/testing/signed-in';
import { routes } from '../router';

const admin = demoAdmin();
const signedIn = signedInAs(admin);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(admin))),
    http.get(`${PORTAL}/accounts/sessions`, () =>
      HttpResponse.json(
        okEnvelope({
          items: [
            {
              _id: 's1',
              createdAt: '2026-11-22T10:00:00.000Z',
              lastUsedAt: '2026-11-22T10:05:00.000Z',
              expiresAt: '2026-11-29T10:00:00.000Z',
              userAgent: 'Chromium',
              ip: '127.0.0.1',
              current: true,
            },
          ],
        }),
      ),
    ),
  );
});

describe('account pages', () => {
  it('shows the account details, roles and this device', async () => {
    renderApp(routes, '/app/account/view', signedIn);
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    expect(screen.getByText('admin@demo.local')).toBeInTheDocument();
    expect(screen.getByText('power7.run')).toBeInTheDocument();
    expect(await screen.findByText('This device')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });
});

describe('editing the account', () => {
  it('edits the name and updates the account menu', async () => {
    let body: unknown;
    server.use(
      http.patch(`${PORTAL}/accounts/me`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(okEnvelope({ ...admin, userFirstName: 'Ada' }));
      }),
    );
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/app/account/edit', signedIn);
    const first = await screen.findByLabelText('First name');
    await waitFor(() => expect(first).toHaveValue('Demo'));
    await user.clear(first);
    await user.type(first, 'Ada');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/account/view'));
    expect(body).toEqual({
      userFirstName: 'Ada',
      userLastName: 'Admin',
      email: 'admin@demo.local',
      phone: '',
    });
    expect(store.getState().auth.userDetails?.userFirstName).toBe('Ada');
    expect(screen.getByRole('button', { name: 'Account menu for Ada Admin' })).toBeInTheDocument();
  });

  it('asks for the current password only while the email changes, and says when it is wrong', async () => {
    const bodies: unknown[] = [];
    let answer: 'wrong' | 'ok' = 'wrong';
    server.use(
      http.patch(`${PORTAL}/accounts/me`, async ({ request }) => {
        bodies.push(await request.json());
        if (answer === 'wrong') {
          return HttpResponse.json(
            fieldFailEnvelope('currentPassword', 'The current password is not correct.'),
            { status: 400 },
          );
        }
        // The email waits for the new address to confirm it (ADR 026): the answer keeps the old one.
        return HttpResponse.json(okEnvelope(admin));
      }),
      http.get(`${PORTAL}/accounts/me/email-change`, () =>
        HttpResponse.json(
          okEnvelope({
            pending:
              answer === 'ok' && bodies.length > 0
                ? { newEmail: 'ada@demo.local', expiresAt: '2026-11-30T06:00:00.000Z' }
                : null,
          }),
        ),
      ),
    );
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/app/account/edit', signedIn);
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveValue('admin@demo.local'));
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();

    // The same address in capitals is no change: no password asked.
    await user.clear(email);
    await user.type(email, 'ADMIN@demo.local');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();

    await user.clear(email);
    await user.type(email, 'ada@demo.local');
    const password = await screen.findByLabelText('Current password');
    expect(
      screen.getByText(/your email changes when you open it, so a typo moves nothing/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/a notice with a\s+link to undo the change goes to admin@demo.local/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('Enter your current password to change your email'),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.type(password, 'not-my-password');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('The current password is not correct.')).toBeInTheDocument();
    // Shown once, under the field.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/app/account/edit');

    answer = 'ok';
    await user.clear(password);
    await user.type(password, 'the-right-password');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/account/view'));
    expect(bodies.at(-1)).toEqual({
      userFirstName: 'Demo',
      userLastName: 'Admin',
      email: 'ada@demo.local',
      phone: '',
      currentPassword: 'the-right-password',
    });
    // Still the old address, and the account page says the change is pending.
    expect(store.getState().auth.userDetails?.email).toBe('admin@demo.local');
    const pending = await screen.findByRole('region', { name: 'Email change pending' });
    expect(pending).toHaveTextContent('Your email changes to ada@demo.local');
    expect(pending).toHaveTextContent('Until then it stays admin@demo.local');
  });

  it('hides the password field again when the email goes back', async () => {
    const user = userEvent.setup();
    renderApp(routes, '/app/account/edit', signedIn);
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveValue('admin@demo.local'));
    await user.type(email, 'x');
    expect(await screen.findByLabelText('Current password')).toBeInTheDocument();
    await user.type(email, '{Backspace}');
    await waitFor(() =>
      expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument(),
    );
  });
});

describe('changing the password', () => {
  it('checks the new password locally and shows the server field error', async () => {
    server.use(
      http.post(`${PORTAL}/accounts/change-password`, () =>
        HttpResponse.json(
          fieldFailEnvelope(
            'currentPassword',
            'The current password is not correct.',
            'Validation failed',
          ),
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp(routes, '/app/account/change-password', signedIn);
    await user.type(await screen.findByLabelText('Current password'), 'old-one');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 12 characters')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'long-enough-passphrase');
    await user.type(screen.getByLabelText('Confirm new password'), 'long-enough-passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not correct.')).toBeInTheDocument();
  });
});
