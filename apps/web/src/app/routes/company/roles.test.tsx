import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failEnvelope, okEnvelope, PORTAL, server } from '@/testing/msw';
import { companyUser, openAs } from './signed-in-as';

const stamp = '2026-11-26T10:00:00.000Z';
const role = {
  _id: 'r9',
  name: 'Clerks',
  description: 'Front desk',
  permissionIds: ['p1'],
  isSystem: false,
  userCount: 2,
  version: 1,
  createdAt: stamp,
  updatedAt: stamp,
};
const permission = {
  _id: 'p1',
  code: 'users.read',
  name: 'Read users',
  description: '',
  group: 'Users',
  isSystem: true,
  roleCount: 1,
  version: 1,
  createdAt: stamp,
  updatedAt: stamp,
};

/** Signs `editor` in with these permissions and opens the role's edit form. */
const openEditForm = (permissions: string[]) =>
  openAs(
    companyUser(permissions, { roles: [{ _id: 'r0', name: 'Role editors' }] }),
    '/app/company/roles/r9/update',
    http.get(`${PORTAL}/roles/r9`, () => HttpResponse.json(okEnvelope(role))),
  );

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  // jsdom has no ResizeObserver; the picker's Radix checkboxes measure themselves with one
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the role form and the permissions it offers', () => {
  it('appears once the permissions answered; a failed list says so and Retry loads it', async () => {
    let calls = 0;
    server.use(
      http.get(`${PORTAL}/permissions`, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json(failEnvelope(503, 'UNAVAILABLE', 'Down for a moment.'), {
              status: 503,
            })
          : HttpResponse.json(
              okEnvelope({ items: [permission], page: 1, pageSize: 100, total: 1, totalPages: 1 }),
            );
      }),
    );
    openEditForm(['roles.read', 'roles.update', 'permissions.read', 'users.read']);
    const alert = await screen.findByText(
      /Could not load the permissions to choose from/,
      {},
      {
        timeout: 10_000,
      },
    );
    expect(alert.closest('[role=alert]')).toHaveTextContent('Down for a moment.');
    // no half form: nothing to type into while a list is missing
    expect(screen.queryByLabelText('Description')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Description', {}, { timeout: 10_000 })).toHaveValue(
      'Front desk',
    );
    expect(screen.getByRole('checkbox', { name: /users\.read/ })).toBeChecked();
    expect(calls).toBe(2);
  });

  it('without permissions.read: no list asked for, the form says what choosing needs', async () => {
    let asked = false;
    server.use(
      http.get(`${PORTAL}/permissions`, () => {
        asked = true;
        return HttpResponse.json(failEnvelope(403, 'FORBIDDEN', 'No.'), { status: 403 });
      }),
    );
    openEditForm(['roles.read', 'roles.update']);
    expect(await screen.findByLabelText('Description', {}, { timeout: 10_000 })).toHaveValue(
      'Front desk',
    );
    expect(
      screen.getByText('Choosing permissions needs the permissions.read permission', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading permissions…')).not.toBeInTheDocument();
    expect(asked).toBe(false);
  });
});
