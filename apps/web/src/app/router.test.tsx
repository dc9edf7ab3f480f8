import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failEnvelope, fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { demoAdmin, signedInAs } from '@/testing/signed-in';
import { routes } from './router';

// The route table's tests need only the users list among the permissions.
const admin = demoAdmin({ roles: [], permissions: ['users.read'] });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'info').mockImplementation(() => {});
  server.use(http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(admin))));
});
afterEach(() => vi.restoreAllMocks());

describe('public routes', () => {
  it('shows the landing page with the tagline and a Sign In link', async () => {
    renderApp(routes, '/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Power Analyzer' }),
    ).toBeInTheDocument();
    expect(screen.getByText('The All in one tool for your business.')).toBeInTheDocument();
    expect(screen.getAllByAltText('Power Analyzer Logo').length).toBeGreaterThan(0);
    for (const link of screen.getAllByRole('link', { name: 'Sign In' })) {
      expect(link).toHaveAttribute('href', '/auth/signin');
    }
    expect(screen.getByText(`© ${new Date().getFullYear()} Power Analyzer`)).toBeInTheDocument();
  });

  it('shows the not-found page for About and unknown paths', async () => {
    renderApp(routes, '/about');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('guards and sign-in', () => {
  it('sends a guest from /app to sign-in, and signs in with user name', async () => {
    let body: unknown;
    server.use(
      http.post(`${PORTAL}/accounts/sign-in`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          okEnvelope({ ...admin, accessToken: fakeJwt(900), refreshToken: 'rt-1' }),
        );
      }),
    );
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/app');
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/signin');

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter your user name or email')).toBeInTheDocument();

    await user.type(screen.getByLabelText('User name or email'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret-passphrase');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(body).toEqual({ userName: 'admin', password: 'secret-passphrase' });
    expect(router.state.location.pathname).toBe('/app');
    expect(store.getState().auth.isAuthenticated).toBe(true);
    expect(Cookies.get('refreshToken')).toBe('rt-1');
    expect(screen.getByText('Welcome, Demo Admin — Demo Company.')).toBeInTheDocument();
  });

  it('shows the server message when sign-in is refused', async () => {
    server.use(
      http.post(`${PORTAL}/accounts/sign-in`, () =>
        HttpResponse.json(failEnvelope(401, 'UNAUTHORIZED', 'Invalid credentials'), {
          status: 401,
        }),
      ),
    );
    const user = userEvent.setup();
    renderApp(routes, '/auth/signin');
    await user.type(await screen.findByLabelText('User name or email'), 'admin@demo.local');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials');
  });

  it('redirects a signed-in user away from the guest pages', async () => {
    const { router } = renderApp(routes, '/auth/signin', signedInAs(admin));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app');
  });
});

describe('the signed-in state', () => {
  it('restores the session at startup from the refresh cookie', async () => {
    Cookies.set('refreshToken', 'rt-cookie');
    server.use(
      http.post(`${PORTAL}/accounts/rotate-token`, () =>
        HttpResponse.json(okEnvelope({ accessToken: fakeJwt(900), refreshToken: 'rt-next' })),
      ),
    );
    const { store } = renderApp(routes, '/app/account/view');
    expect(await screen.findByText('Demo Company', { selector: 'dd' })).toBeInTheDocument();
    expect(store.getState().auth.userDetails).toMatchObject({ userName: 'admin' });
    expect(Cookies.get('refreshToken')).toBe('rt-next');
  });

  it('ends the session when verification fails', async () => {
    server.use(
      http.get(`${PORTAL}/accounts/verify`, () =>
        HttpResponse.json(failEnvelope(404, 'NOT_FOUND', 'Gone'), { status: 404 }),
      ),
    );
    const { router } = renderApp(routes, '/app', signedInAs(admin));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/signin'));
  });

  it('signs out through the account menu even when the server fails, and clears storage', async () => {
    Cookies.set('refreshToken', 'rt-1');
    localStorage.setItem('persist:root', '{"auth":"{}"}');
    server.use(http.post(`${PORTAL}/accounts/signout`, () => HttpResponse.error()));
    const user = userEvent.setup();
    const { router, store } = renderApp(routes, '/app', signedInAs(admin));
    await user.click(await screen.findByRole('button', { name: 'Account menu for Demo Admin' }));
    expect(screen.getByText('@admin')).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/signin'));
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(Cookies.get('refreshToken')).toBeUndefined();
    expect(localStorage.getItem('persist:root')).toBeNull();
  });
});

describe('other pages', () => {
  it('always shows the same forgot-password confirmation', async () => {
    server.use(
      http.post(`${PORTAL}/accounts/forgot-password`, () =>
        HttpResponse.json(failEnvelope(429, 'RATE_LIMITED', 'Slow down'), { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    renderApp(routes, '/auth/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'nobody@demo.local');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('If an account exists');
  });

  it('highlights the current sidebar item and builds the breadcrumb', async () => {
    renderApp(routes, '/app/account/change-password', signedInAs(admin));
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs).toHaveTextContent('DashboardAccountChange Password');
    expect(screen.getByRole('link', { name: 'All' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Power 7' })).toHaveAttribute('href', '/app/power7');
    expect(screen.getByRole('link', { name: 'Alpha 5' })).toHaveAttribute('href', '/alpha5');
  });
});
