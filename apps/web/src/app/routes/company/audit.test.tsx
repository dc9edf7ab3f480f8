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

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(`${PORTAL}/accounts/verify`, () => HttpResponse.json(okEnvelope(auditor))),
    http.get(`${PORTAL}/audit-events`, () =>
      HttpResponse.json(okEnvelope({ items: [], page: 1, pageSize: 20, total: 0, totalPages: 0 })),
    ),
  );
});

describe('audit trail', () => {
  it('offers every action the portal records in its Action filter, two-step and invitations too', async () => {
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
    for (const action of AUDIT_ACTIONS) expect(offered).toContain(action);
    expect(offered).toContain('account.mfa-enrolled');
    expect(offered).toContain('invitation.accept');
  });
});
