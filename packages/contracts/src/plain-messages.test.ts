import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import './plain-messages';

const messageOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('plain validation messages', () => {
  it('say what the value must be, in words, for the defaults zod would otherwise print', () => {
    expect(messageOf(z.number().min(0), -1)).toBe('Must be at least 0.');
    expect(messageOf(z.number().gt(0), 0)).toBe('Must be more than 0.');
    expect(messageOf(z.number().max(1_000_000), 2_000_000)).toBe('Must be at most 1,000,000.');
    expect(messageOf(z.string().max(3), 'abcd')).toBe('Must be at most 3 characters long.');
    expect(messageOf(z.array(z.number()).max(2), [1, 2, 3])).toBe('Give at most 2 items.');
    expect(messageOf(z.number(), 'x')).toBe('Must be a number.');
    expect(messageOf(z.object({ a: z.number() }), {})).toBe('Required.');
    expect(messageOf(z.enum(['active', 'inactive', 'locked']), 'gone')).toBe(
      'Must be one of "active", "inactive", "locked".',
    );
    expect(messageOf(z.email(), 'nope')).toBe('Must be an email address.');
    expect(messageOf(z.strictObject({}), { extra: 1 })).toBe('Unknown key: extra.');
  });

  it('leave a schema’s own message as it is', () => {
    expect(messageOf(z.number().min(0, 'A line is never negative.'), -1)).toBe(
      'A line is never negative.',
    );
  });
});
