import { describe, expect, it } from 'vitest';
import { fakeJwt } from '@/testing/msw';
import { isTokenExpired } from './token';

describe('token expiry with the 30 s margin', () => {
  it('treats a token expiring within 30 s as expired and one beyond as valid', () => {
    expect(isTokenExpired(fakeJwt(29))).toBe(true);
    expect(isTokenExpired(fakeJwt(30))).toBe(true);
    expect(isTokenExpired(fakeJwt(32))).toBe(false);
    expect(isTokenExpired(fakeJwt(-5))).toBe(true);
  });

  it('judges against the given clock', () => {
    const token = fakeJwt(100);
    expect(isTokenExpired(token, Date.now())).toBe(false);
    expect(isTokenExpired(token, Date.now() + 75_000)).toBe(true);
  });

  it('treats missing, unreadable and exp-less tokens as expired', () => {
    expect(isTokenExpired(null)).toBe(true);
    expect(isTokenExpired('')).toBe(true);
    expect(isTokenExpired('garbage')).toBe(true);
    const noExp = `${Buffer.from('{}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.s`;
    expect(isTokenExpired(noExp)).toBe(true);
  });
});
