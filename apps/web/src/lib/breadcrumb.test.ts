import { describe, expect, it } from 'vitest';
import { buildBreadcrumbs } from './breadcrumb';

const labels = (path: string) => buildBreadcrumbs(path).map((c) => c.label);

describe('breadcrumb', () => {
  it('starts with Dashboard and links every crumb but the last', () => {
    expect(buildBreadcrumbs('/app')).toEqual([{ label: 'Dashboard' }]);
    expect(buildBreadcrumbs('/app/company/users')).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company' },
      { label: 'Users' },
    ]);
  });

  it('links only middle crumbs that are pages; groups and ids are plain text', () => {
    expect(buildBreadcrumbs('/app/company/roles/42/update')).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company' },
      { label: 'Roles', href: '/app/company/roles' },
      { label: 'Record' },
      { label: 'Edit' },
    ]);
    expect(buildBreadcrumbs('/app/account/view')).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Account' },
      { label: 'View' },
    ]);
    expect(buildBreadcrumbs('/app/power7/results')[1]).toEqual({
      label: 'Power7',
      href: '/app/power7',
    });
  });

  it('shows a record id as the name its page registered, never the raw id', () => {
    const id = '0193b2c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
    const names = (segment: string) => (segment === id ? 'Ada Lovelace' : undefined);
    expect(labels(`/app/company/users/${id}/read`)).toEqual([
      'Dashboard',
      'Company',
      'Users',
      'Record',
      'View',
    ]);
    expect(buildBreadcrumbs(`/app/company/users/${id}/read`, names).map((c) => c.label)).toEqual([
      'Dashboard',
      'Company',
      'Users',
      'Ada Lovelace',
      'View',
    ]);
    // A bare id at the end of the path is a record too.
    expect(labels(`/app/company/users/${id}`).at(-1)).toBe('Record');
  });

  it('links a named record on its edit page to its view page', () => {
    const names = (segment: string) => (segment === 'u-1' ? 'ada' : undefined);
    expect(buildBreadcrumbs('/app/company/users/u-1/update', names)).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company' },
      { label: 'Users', href: '/app/company/users' },
      { label: 'ada', href: '/app/company/users/u-1/read' },
      { label: 'Edit' },
    ]);
  });

  it('maps read/update/delete/edit/create/change-password to the seed labels', () => {
    expect(labels('/app/company/permissions/42/read')).toEqual([
      'Dashboard',
      'Company',
      'Permissions',
      'Record',
      'View',
    ]);
    expect(labels('/app/company/roles/9/update')).toEqual([
      'Dashboard',
      'Company',
      'Roles',
      'Record',
      'Edit',
    ]);
    expect(labels('/app/company/users/9/delete').at(-1)).toBe('Delete');
    expect(labels('/app/company/users/create').at(-1)).toBe('Create');
    expect(labels('/app/account/edit')).toEqual(['Dashboard', 'Account', 'Edit']);
    expect(labels('/app/account/change-password').at(-1)).toBe('Change Password');
    expect(labels('/app/employees/attendance/tracking')).toEqual([
      'Dashboard',
      'Employees',
      'Attendance',
      'Tracking',
    ]);
  });

  it('files the two-step policy under Company, as the sidebar does (issue 43)', () => {
    expect(buildBreadcrumbs('/app/security')).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company' },
      { label: 'Two-step sign-in' },
    ]);
  });

  it('capitalises other segments', () => {
    expect(labels('/app/power7/parameters')).toEqual(['Dashboard', 'Power7', 'Parameters']);
  });
});
