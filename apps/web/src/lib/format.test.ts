import { describe, expect, it } from 'vitest';
import { formatRelative } from './format';

describe('formatRelative', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says how long ago in the largest whole unit', () => {
    expect(formatRelative(ago(0), now, 'en')).toBe('now');
    expect(formatRelative(ago(30), now, 'en')).toBe('30 sec. ago');
    expect(formatRelative(ago(180), now, 'en')).toBe('3 min. ago');
    expect(formatRelative(ago(2 * 3600), now, 'en')).toBe('2 hr. ago');
    expect(formatRelative(ago(86_400), now, 'en')).toBe('yesterday');
    expect(formatRelative(ago(3 * 86_400), now, 'en')).toBe('3 days ago');
    expect(formatRelative(ago(400 * 86_400), now, 'en')).toBe('last yr.');
  });

  it('handles the future and missing values', () => {
    expect(formatRelative(new Date(now + 2 * 86_400_000).toISOString(), now, 'en')).toBe(
      'in 2 days',
    );
    expect(formatRelative(null, now)).toBe('—');
    expect(formatRelative('not a date', now)).toBe('—');
  });
});
