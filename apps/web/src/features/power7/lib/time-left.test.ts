import { describe, expect, it } from 'vitest';
import { nextCountdown, timeLeftText } from './time-left';

describe('time left', () => {
  it('never rises: a slower phase does not push the countdown back up', () => {
    let shown = nextCountdown(null, 40, 0);
    expect(shown?.seconds).toBe(40);
    shown = nextCountdown(shown, 55, 2_000); // the raw estimate rose
    expect(shown?.seconds).toBe(38);
    shown = nextCountdown(shown, 20, 4_000); // it fell faster than the clock
    expect(shown?.seconds).toBe(20);
    shown = nextCountdown(shown, 90, 60_000);
    expect(shown?.seconds).toBe(0);
  });

  it('reads like a person would say it', () => {
    expect(timeLeftText(0.4)).toBe('a few seconds');
    expect(timeLeftText(42)).toBe('about 40 s');
    expect(timeLeftText(150)).toBe('about 3 min');
  });
});
