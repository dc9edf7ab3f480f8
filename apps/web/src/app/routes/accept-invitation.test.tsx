import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { failEnvelope, fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../router';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const preview = {
  email: 'pat.doe@example.test',
  userFirstName: 'Pat',
  userLastName: 'Doe',
  companyName: 'Demo Company',
  suggestedUserName: 'pat.doe',
  expiresAt: '2026-12-03T07:00:00.000Z',
};

describe('accept invitation page', () => {
  it('suggests the user name, shows the password on request, and signs the invitee in', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${PORTAL}/users/invitations/lookup`, () => HttpResponse.json(okEnvelope(preview))),
      http.post(`${PORTAL}/users/invitations/accept`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          okEnvelope({
            _id: 'u1',
            userName: 'pat',
            email: preview.email,
            userFirstName: 'Pat',
            userLastName: 'Doe',
            companyId: 'c1',
            companyName: 'Demo Company',
            roles: [],
            permissions: [],
            accessToken: fakeJwt(900),
            refreshToken: 'refresh-1',
          }),
        );
      }),
    );
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/auth/accept-invitation?token=invite-1');
    expect(
      await screen.findByText(/Demo Company invited pat.doe@example.test/),
    ).toBeInTheDocument();
    const userName = screen.getByLabelText('User name');
    expect(userName).toHaveValue('pat.doe');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Show password' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await user.click(screen.getByRole('button', { name: 'Create account and sign in' }));
    expect(await screen.findByText('Password must be at least 12 characters')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.clear(userName);
    await user.type(userName, 'pat');
    await user.type(password, 'a fine invitee passphrase');
    await user.click(screen.getByRole('button', { name: 'Create account and sign in' }));
    await waitFor(() => expect(store.getState().auth.isAuthenticated).toBe(true));
    expect(bodies).toEqual([
      { token: 'invite-1', userName: 'pat', password: 'a fine invitee passphrase' },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
  });

  it('shows a taken user name under the field', async () => {
    server.use(
      http.post(`${PORTAL}/users/invitations/lookup`, () => HttpResponse.json(okEnvelope(preview))),
      http.post(`${PORTAL}/users/invitations/accept`, () =>
        HttpResponse.json(
          failEnvelope(
            409,
            'CONFLICT',
            'The user name "pat.doe" is already taken; choose another one.',
          ),
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp(routes, '/auth/accept-invitation?token=invite-2');
    await user.type(await screen.findByLabelText('Password'), 'a fine invitee passphrase');
    await user.click(screen.getByRole('button', { name: 'Create account and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('is already taken');
    expect(screen.getByLabelText('User name')).toHaveAttribute('aria-invalid', 'true');
  });

  it.each([
    [
      'INVITATION_EXPIRED',
      410,
      'Invitation expired',
      'This invitation has expired.',
      'Go to the home page',
    ],
    ['INVITATION_USED', 410, 'Invitation already accepted', 'already accepted.', 'Go to sign in'],
    ['INVITATION_REVOKED', 410, 'Invitation withdrawn', 'withdrawn', 'Go to the home page'],
    ['INVITATION_NOT_FOUND', 404, 'Invitation link not valid', 'not valid', 'Go to the home page'],
  ])(
    'gives a %s link its own page and drops the token',
    async (code, status, title, text, link) => {
      server.use(
        http.post(`${PORTAL}/users/invitations/lookup`, () =>
          HttpResponse.json(failEnvelope(status, code, `Server says: ${text}`), { status }),
        ),
      );
      const { router } = renderApp(routes, '/auth/accept-invitation?token=dead');
      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByText(`Server says: ${text}`)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: link })).toBeInTheDocument();
      expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
      await waitFor(() => expect(router.state.location.search).toBe(''));
    },
  );

  it('says when the link has no token', async () => {
    renderApp(routes, '/auth/accept-invitation');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation link is incomplete.',
    );
  });
});
