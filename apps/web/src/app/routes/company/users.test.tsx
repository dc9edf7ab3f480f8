import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { okEnvelope, PORTAL } from '@/testing/msw';
import { companyUser, openAs } from './signed-in-as';

const stamp = '2026-11-26T10:00:00.000Z';
const me = companyUser(['users.read', 'users.update'], { lastSignInAt: stamp });
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

const openEditForm = (id: string) =>
  openAs(
    me,
    `/app/company/users/${id}/update`,
    http.get(`${PORTAL}/users/u1`, () =>
      HttpResponse.json(okEnvelope(record('u1', 'editor@demo.local'))),
    ),
    http.get(`${PORTAL}/users/u2`, () =>
      HttpResponse.json(okEnvelope(record('u2', 'pat@demo.local'))),
    ),
  );

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
