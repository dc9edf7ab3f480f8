import { describe, expect, it } from 'vitest';
import {
  changePasswordFormSchema,
  changePasswordSchema,
  resetPasswordSchema,
  signInFormSchema,
  signInSchema,
  toSignInBody,
  updateMeFormSchema,
  updateMeSchema,
} from './accounts';

describe('account schemas', () => {
  it('sends an email login as email and anything else as userName', () => {
    expect(toSignInBody({ login: ' admin@demo.local ', password: 'x' })).toEqual({
      email: 'admin@demo.local',
      password: 'x',
    });
    expect(toSignInBody({ login: 'admin', password: 'x' })).toEqual({
      userName: 'admin',
      password: 'x',
    });
    expect(signInSchema.safeParse({ userName: 'admin', password: 'p' }).success).toBe(true);
    expect(signInSchema.safeParse({ password: 'p' }).success).toBe(false);
    expect(signInFormSchema.safeParse({ login: '  ', password: 'p' }).success).toBe(false);
  });

  it('requires new passwords of 12 to 256 characters', () => {
    expect(resetPasswordSchema.safeParse({ token: 't', password: 'a'.repeat(11) }).success).toBe(
      false,
    );
    expect(resetPasswordSchema.safeParse({ token: 't', password: 'a'.repeat(12) }).success).toBe(
      true,
    );
    expect(
      changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'a'.repeat(257) })
        .success,
    ).toBe(false);
    const mismatch = changePasswordFormSchema.safeParse({
      currentPassword: 'old',
      newPassword: 'a'.repeat(12),
      confirmPassword: 'b'.repeat(12),
    });
    expect(mismatch.error?.issues[0]?.path).toEqual(['confirmPassword']);
  });

  it('lets a user change only names and email about themselves', () => {
    expect(updateMeSchema.parse({ userFirstName: ' Ada ', roles: ['x'] })).toEqual({
      userFirstName: 'Ada',
    });
    expect(updateMeSchema.safeParse({ email: 'nope' }).success).toBe(false);
  });

  it('asks the edit form for the current password only while the email differs', () => {
    const form = updateMeFormSchema('ada@demo.local');
    const issues = (value: object) =>
      form.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];
    expect(issues({ email: 'ADA@demo.local', currentPassword: '' })).toEqual([]);
    expect(issues({ userFirstName: 'Ada', currentPassword: '' })).toEqual([]);
    expect(issues({ email: 'new@demo.local', currentPassword: '' })).toEqual([
      ['currentPassword', 'Enter your current password to change your email'],
    ]);
    expect(issues({ email: 'new@demo.local', currentPassword: 'secret' })).toEqual([]);
  });
});
