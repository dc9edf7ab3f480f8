// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildBreadcrumbs } from './breadcrumb';

const labels = (path: string) => buildBreadcrumbs(path).map((c) => c.label);

describe('breadcrumb', () => {
  it('starts with Dashboard and links every crumb but the last', () => {
    expect(buildBreadcrumbs('/app')).toEqual([{ label: 'Dashboard' }]);
    expect(buildBreadcrumbs('/app/company/users')).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company', href: '/app/company' },
      { label: 'Users' },
    ]);
  });

  it('shows a record name for its id segment, linked to its view page', () => {
    const names = (segment: string) => (segment === 'u-1' ? 'ada' : undefined);
    expect(buildBreadcrumbs('/app/company/users/u-1/update', names)).toEqual([
      { label: 'Dashboard', href: '/app' },
      { label: 'Company', href: '/app/company' },
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
      '42',
      'View',
    ]);
    expect(labels('/app/company/roles/9/update')).toEqual([
      'Dashboard',
      'Company',
      'Roles',
      '9',
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

  it('capitalises other segments', () => {
    expect(labels('/app/power7/parameters')).toEqual(['Dashboard', 'Power7', 'Parameters']);
  });
});
