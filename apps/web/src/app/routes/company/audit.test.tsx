import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS } from '@pa/contracts/audit';
import { fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import { renderApp } from '@/testing/render';
import { routes } from '../../router';

const auditor = {
  _id: 'u1',
  userName: 'auditor',
  email: 'auditor@demo.local',
  userFirstName: 'Ada',
  userLastName: 'Audit',
  phone: '',
  status: 'active',
  companyId: 'c1',
  companyName: 'Demo Company',
  roles: [{ _id: 'r1', name: 'Auditor' }],
  permissions: ['audit.read'],
  lastSignInAt: '2026-11-22T10:00:00.000Z',
};

const event = {
  _id: 'e1',
  actorId: 'u2',
  actorName: 'admin',
  action: 'role.update',
  entityType: 'role',
  entityId: 'r9',
  before: { name: 'Clerks' },
  after: { name: 'Senior clerks' },
  ip: '127.0.0.1',
  userAgent: 'Chromium',
  createdAt: '2026-11-26T10:00:00.000Z',
  entityName: 'Senior clerks',
  names: {},
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(auditor))),
    http.get(`${PORTAL}/audit-events`, () =>
      HttpResponse.json(
        okEnvelope({ items: [event], page: 1, pageSize: 20, total: 1, totalPages: 1 }),
      ),
    ),
  );
});

describe('audit trail', () => {
  it('shows an action in words with its code', async () => {
    renderApp(routes, '/app/company/audit', {
      accessToken: fakeJwt(900),
      isAuthenticated: true,
      userDetails: auditor,
    });
    const trail = await screen.findByRole('table', { name: 'Audit trail' });
    const row = within(trail).getByRole('button', { name: /^Details of role.update by admin/ });
    expect(row).toBeInTheDocument();
    expect(within(trail).getByText('Role changed')).toBeInTheDocument();
    expect(within(trail).getByText('role.update')).toBeInTheDocument();
  });

  it('offers every action the portal records in its Action filter, in words, two-step and invitations too', async () => {
    renderApp(routes, '/app/company/audit', {
      accessToken: fakeJwt(900),
      isAuthenticated: true,
      userDetails: auditor,
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Filter by Action/ }));
    const menu = await screen.findByRole('menu');
    const offered = within(menu)
      .getAllByRole('menuitemcheckbox')
      .map((option) => option.textContent?.trim());
    // in words, with the code the trail's exports carry
    expect(offered).toHaveLength(AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS)
      expect(offered.some((text) => text?.endsWith(`(${action})`))).toBe(true);
    expect(offered).toContain('Authenticator app turned on (account.mfa-enrolled)');
    expect(offered).toContain('Invitation accepted (invitation.accept)');
    // under a named heading per kind, each action under its own kind
    const groups = within(menu).getAllByRole('group');
    expect(groups).toHaveLength(8);
    for (const group of groups) expect(group).toHaveAccessibleName();
    const roles = within(menu).getByRole('group', { name: 'Roles' });
    expect(
      within(roles)
        .getAllByRole('menuitemcheckbox')
        .map((option) => option.textContent?.trim()),
    ).toEqual([
      'Role created (role.create)',
      'Role changed (role.update)',
      'Role deleted (role.delete)',
      'Role restored (role.restore)',
    ]);
    const invitations = within(menu).getByRole('group', { name: 'Invitations' });
    expect(within(invitations).getAllByRole('menuitemcheckbox')).toHaveLength(4);
  });
});
