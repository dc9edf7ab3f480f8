import { describe, expect, it } from 'vitest';
import { codeBeyond, missingPermissions, missingPermissionText } from './permission-gate';

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

  it('finds the first permission of a role the user does not hold, skipping unknown ids', () => {
    const codeOf = (id: string) => ({ p1: 'users.read', p2: 'secret.read', p3: 'audit.read' })[id];
    const held = new Set(['users.read']);
    expect(codeBeyond(['p1', 'gone', 'p2', 'p3'], codeOf, held)).toBe('secret.read');
    expect(codeBeyond(['p1', 'gone'], codeOf, held)).toBeUndefined();
    expect(codeBeyond([], codeOf, held)).toBeUndefined();
  });
});
