import { describe, expect, it } from 'vitest';
import { displayName, handle, initials } from './user-display';

describe('account menu names', () => {
  it('falls back from full name to user name to "User", "Guest User" when signed out', () => {
    expect(
      displayName({ userFirstName: 'Ada', userLastName: 'Lovelace', userName: 'ada' }, true),
    ).toBe('Ada Lovelace');
    expect(displayName({ userFirstName: '', userLastName: '', userName: 'ada' }, true)).toBe('ada');
    expect(displayName({}, true)).toBe('User');
    expect(displayName({ userName: 'ada' }, false)).toBe('Guest User');
    expect(handle({ userName: 'ada' })).toBe('@ada');
    expect(handle(null)).toBe('guest');
    expect(initials({ userFirstName: 'Ada', userLastName: 'Lovelace' }, true)).toBe('AL');
    expect(initials(null, false)).toBe('GU');
  });
});
