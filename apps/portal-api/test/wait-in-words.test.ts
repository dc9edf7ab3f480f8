import { describe, expect, it } from 'vitest';
import { waitInWords } from '../src/modules/sign-in/guard';

describe('waitInWords (the 429 message of the sign-in limits)', () => {
  it('says a wait the way people do, rounded up', () => {
    expect(waitInWords(1)).toBe('1 second');
    expect(waitInWords(45)).toBe('45 seconds');
    expect(waitInWords(60)).toBe('1 minute');
    expect(waitInWords(894)).toBe('15 minutes');
    expect(waitInWords(3600)).toBe('1 hour');
    expect(waitInWords(5000)).toBe('2 hours');
  });
});
