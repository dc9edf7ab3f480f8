import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

const stamp = '2026-11-26T10:00:00.000Z';
const me = {
  _id: 'u1',
  userName: 'editor',
  email: 'editor@demo.local',
  userFirstName: 'Eddie',
  userLastName: 'Tor',
  phone: '',
  status: 'active',
  companyId: 'c1',
  companyName: 'Demo Company',
  roles: [],
  permissions: ['users.read', 'users.update'],
  lastSignInAt: stamp,
};
const record = (id: string, email: string) => ({
  _id: id,
  userName: id === 'u1' ? 'editor' : 'pat',
  email,
  userFirstName: 'Some',
  userLastName: 'One',
  phone: '',
  status: 'active',
  roleIds: [],
  roles: [],
  permissionIds: [],
  lastSignInAt: null,
  createdAt: stamp,
  updatedAt: stamp,
  version: 1,
});

function openEditForm(id: string) {
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(me))),
    http.get(`${PORTAL}/users/u1`, () =>
      HttpResponse.json(okEnvelope(record('u1', 'editor@demo.local'))),
    ),
    http.get(`${PORTAL}/users/u2`, () =>
      HttpResponse.json(okEnvelope(record('u2', 'pat@demo.local'))),
    ),
  );
  renderApp(routes, `/app/company/users/${id}/update`, {
    accessToken: fakeJwt(900),
    isAuthenticated: true,
    userDetails: me,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('the user form’s email (ADR 020)', () => {
  it('on one’s own record: read-only, with a link to the account page', async () => {
    openEditForm('u1');
    const email = await screen.findByLabelText('Email', {}, { timeout: 10_000 });
    expect(email).toHaveValue('editor@demo.local');
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription(/account page/);
    expect(
      screen.getByRole('link', { name: 'Change your email on your account page' }),
    ).toHaveAttribute('href', '/app/account/edit');
  });

  it('on someone else’s record: editable, no link', async () => {
    openEditForm('u2');
    const email = await screen.findByLabelText('Email', {}, { timeout: 10_000 });
    expect(email).toHaveValue('pat@demo.local');
    expect(email).not.toHaveAttribute('readonly');
    expect(
      screen.queryByRole('link', { name: 'Change your email on your account page' }),
    ).not.toBeInTheDocument();
  });
});
