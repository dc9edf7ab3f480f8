import { describe, expect, it } from 'vitest';
import { cellLockReason, draftOf, isCellChanged, matrixChangeSet, type MatrixRole } from './matrix';

const roles: MatrixRole[] = [
  {
    _id: 'admin',
    name: 'Administrator',
    isSystem: true,
    permissionIds: ['p1', 'p2', 'p3'],
    version: 4,
  },
  { _id: 'sales', name: 'Sales', isSystem: false, permissionIds: ['p1'], version: 2 },
  { _id: 'ops', name: 'Ops', isSystem: false, permissionIds: ['p2', 'p3'], version: 7 },
];
const codes: Record<string, string> = { p1: 'users.read', p2: 'roles.update', p3: 'secret.read' };
const codeOf = (id: string) => codes[id];

describe('role–permission matrix', () => {
  it('no change, no change set', () => {
    expect(matrixChangeSet(roles, draftOf(roles))).toEqual([]);
  });

  it('one entry per changed role, with its version, full new list and the difference', () => {
    const draft = draftOf(roles);
    draft.sales!.add('p2');
    draft.ops!.delete('p3');
    draft.ops!.add('p1');
    expect(matrixChangeSet(roles, draft)).toEqual([
      {
        roleId: 'sales',
        name: 'Sales',
        version: 2,
        permissionIds: ['p1', 'p2'],
        added: ['p2'],
        removed: [],
      },
      {
        roleId: 'ops',
        name: 'Ops',
        version: 7,
        permissionIds: ['p1', 'p2'],
        added: ['p1'],
        removed: ['p3'],
      },
    ]);
    expect(isCellChanged(roles[1]!, 'p2', draft)).toBe(true);
    expect(isCellChanged(roles[1]!, 'p1', draft)).toBe(false);
  });

  it('ticking a box and unticking it again is no change', () => {
    const draft = draftOf(roles);
    draft.sales!.add('p3');
    draft.sales!.delete('p3');
    expect(matrixChangeSet(roles, draft)).toEqual([]);
  });

  it('locks cells by the portal rules, each with its reason', () => {
    const held = new Set(['roles.update', 'users.read', 'roles.read']);
    const p1 = { _id: 'p1', code: 'users.read' };
    const p3 = { _id: 'p3', code: 'secret.read' };
    expect(cellLockReason(roles[1]!, p1, held, codeOf)).toBeNull();
    expect(cellLockReason(roles[0]!, p1, held, codeOf)).toMatch(/Administrator role always holds/);
    expect(cellLockReason(roles[1]!, p3, held, codeOf)).toMatch(/do not hold “secret.read”/);
    // Ops holds secret.read, which the caller lacks: the whole role is out of reach.
    expect(cellLockReason(roles[2]!, p1, held, codeOf)).toMatch(/Ops holds “secret.read”/);
    expect(cellLockReason(roles[1]!, p1, new Set(['users.read']), codeOf)).toMatch(/roles.update/);
  });
});
