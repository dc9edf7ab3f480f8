import { describe, expect, it } from 'vitest';
import { changedFields, fieldsChangedBetween } from './record-diff';

describe('record diff', () => {
  it('keeps only changed fields; arrays compare as sets', () => {
    expect(
      changedFields(
        { name: 'Sales', description: 'x', permissionIds: ['b', 'a'] },
        { name: 'Sales', description: 'y', permissionIds: ['a', 'b'] },
      ),
    ).toEqual({ description: 'x' });
  });

  it('lists the fields someone else changed', () => {
    expect(
      fieldsChangedBetween(
        { name: 'A', roleIds: ['1'], phone: '' },
        { name: 'A', roleIds: ['1', '2'], phone: '5' },
        ['name', 'roleIds', 'phone'],
      ),
    ).toEqual(['roleIds', 'phone']);
  });
});
