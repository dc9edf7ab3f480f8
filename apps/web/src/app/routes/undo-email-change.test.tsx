import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, fieldFailEnvelope, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../router';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('undo email change page', () => {
  it('undoes only when asked, then says what happened and drops the token', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${PORTAL}/accounts/undo-email-change`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(okEnvelope({ email: 'owner@demo.local' }));
      }),
    );
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/auth/undo-email-change?token=undo-123', {
      // Open while signed in too (the owner's browser): the undo ends that session.
      accessToken: fakeJwt(900),
      isAuthenticated: true,
    });
    expect(
      await screen.findByRole('heading', { name: 'Undo the email change' }),
    ).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your email is owner@demo.local again.',
    );
    expect(bodies).toEqual([{ token: 'undo-123' }]);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(screen.getByRole('link', { name: 'No mail? Ask for a new reset link' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
  });

  it('shows why a used or expired link does nothing', async () => {
    server.use(
      http.post(`${PORTAL}/accounts/undo-email-change`, () =>
        HttpResponse.json(fieldFailEnvelope('token', 'This link is invalid, used or expired.'), {
          status: 400,
        }),
      ),
    );
    const user = userEvent.setup();
    renderApp(routes, '/auth/undo-email-change?token=spent');
    await user.click(await screen.findByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link is invalid, used or expired.',
    );
  });

  it('says when the link has no token', async () => {
    renderApp(routes, '/auth/undo-email-change');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete.');
    expect(screen.queryByRole('button', { name: 'Undo the change' })).not.toBeInTheDocument();
  });
});
