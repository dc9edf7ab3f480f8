// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { missingPermissions, missingPermissionText } from './permission-gate';

describe('permission gate', () => {
  it('names what is missing, in the order asked', () => {
    const held = ['users.read', 'roles.read'];
    expect(missingPermissions(held, 'users.read')).toEqual([]);
    expect(missingPermissions(held, 'users.delete')).toEqual(['users.delete']);
    expect(missingPermissions(held, ['roles.update', 'roles.read', 'audit.read'])).toEqual([
      'roles.update',
      'audit.read',
    ]);
  });

  it('a session without details holds nothing', () => {
    expect(missingPermissions(undefined, 'users.read')).toEqual(['users.read']);
    expect(missingPermissions(null, ['users.read'])).toEqual(['users.read']);
  });

  it('says which permission a disabled control needs', () => {
    expect(missingPermissionText(['users.create'])).toBe(
      'You need the “users.create” permission to do this.',
    );
    expect(missingPermissionText(['a.b', 'c.d'])).toBe(
      'You need the “a.b” and “c.d” permissions to do this.',
    );
    expect(missingPermissionText([])).toBe('');
  });
});
