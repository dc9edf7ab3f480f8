import { describe, expect, it } from 'vitest';
import { returnPathAfterSignIn } from './return-path';

describe('returnPathAfterSignIn', () => {
  it('returns to pages of the app, with their query', () => {
    expect(returnPathAfterSignIn('/app')).toBe('/app');
    expect(returnPathAfterSignIn('/app/account/change-password')).toBe(
      '/app/account/change-password',
    );
    expect(returnPathAfterSignIn('/app/company/users?page=2')).toBe('/app/company/users?page=2');
  });

  it('falls back to the dashboard for anything else', () => {
    for (const from of [
      undefined,
      42,
      '',
      '/',
      '/application',
      '/auth/signin',
      '//evil.example/app',
      '/app//evil.example',
      '/app/\\evil.example',
      'https://evil.example/app',
    ]) {
      expect(returnPathAfterSignIn(from)).toBe('/app');
    }
  });
});
