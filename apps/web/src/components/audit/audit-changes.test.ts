import { describe, expect, it } from 'vitest';
import { auditValue, fieldLabel } from './audit-changes';

const ADMINS = '7d1f0f8e-3c1a-4c55-9d3e-1a2b3c4d5e6f';
const GONE = '0b9e1c2d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('audit values in words', () => {
  it('names the ids of a list, and says when the record is gone', () => {
    expect(auditValue('roleIds', [ADMINS, GONE], { [ADMINS]: 'Admins' })).toBe(
      'Admins, a deleted role',
    );
  });

  it('never shows an id: an invitation by its email, or that it is gone', () => {
    expect(auditValue('invitationId', ADMINS, { [ADMINS]: 'ann@example.test' })).toBe(
      'ann@example.test',
    );
    expect(auditValue('invitationId', GONE, {})).toBe('an invitation no longer there');
    expect(auditValue('somethingId', GONE, {})).toBe('a record no longer there');
  });

  it('labels every field in words', () => {
    expect(fieldLabel('totp')).toBe('Authenticator app');
    expect(fieldLabel('expiresAt')).toBe('Expires');
    expect(fieldLabel('invitationId')).toBe('Invitation');
    expect(auditValue('method', 'totp', {})).toBe('authenticator app');
  });

  it('shows other values of a list as they are, never as deleted records', () => {
    expect(auditValue('tags', ['north', 'south'], {})).toBe('north, south');
  });

  it('says how a sign-in was proven in words', () => {
    expect(fieldLabel('amr')).toBe('Proven with');
    expect(auditValue('amr', ['pwd', 'otp'], {})).toBe('password, one-time code');
    expect(auditValue('amr', ['hwk'], {})).toBe('passkey');
  });

  it('says yes/no, "none" for an empty list and "—" for nothing', () => {
    expect(auditValue('isSystem', true, {})).toBe('Yes');
    expect(auditValue('roleIds', [], {})).toBe('none');
    expect(auditValue('phone', null, {})).toBe('—');
    expect(auditValue('phone', '', {})).toBe('—');
  });
});
