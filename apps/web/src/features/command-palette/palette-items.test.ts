import { describe, expect, it } from 'vitest';
import { pageItems } from './palette-items';

const labels = (query: string, permissions: string[]) =>
  pageItems(query, permissions).map((item) => item.label);

describe('the palette pages', () => {
  it('offers only pages the permissions open', () => {
    expect(labels('', [])).toEqual(['All', 'Power 7', 'My account', 'Change password']);
    expect(labels('', ['users.read'])).toContain('Users');
    expect(labels('', ['users.read'])).not.toContain('Import users');
    expect(labels('', ['users.read'])).not.toContain('Invite user');
    expect(labels('', ['users.read', 'users.create'])).toEqual(
      expect.arrayContaining(['Users', 'New user', 'Invite user', 'Import users']),
    );
    expect(pageItems('invite', ['users.create'])).toEqual([
      expect.objectContaining({ label: 'Invite user', url: '/app/company/users/invite' }),
    ]);
    expect(labels('audit', ['users.read'])).toEqual([]);
    expect(labels('audit', ['audit.read'])).toEqual(['Audit']);
  });

  it('matches every word of the query in the title or group, any case', () => {
    expect(labels('NEW company', ['users.create', 'roles.create'])).toEqual([
      'New user',
      'New role',
    ]);
    expect(labels('account', [])).toEqual(['My account', 'Change password']);
    expect(pageItems('roles', ['roles.read'])[0]).toMatchObject({ url: '/app/company/roles' });
  });
});
