import { describe, expect, it } from 'vitest';
import { describeDevice } from './device-name';

describe('describeDevice', () => {
  it('names browser and system of common user agents', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 131', system: 'Windows 10', kind: 'desktop' });
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 17', system: 'iOS 17', kind: 'mobile' });
    expect(
      describeDevice(
        'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      ),
    ).toEqual({ browser: 'Firefox 133', system: 'Linux', kind: 'desktop' });
  });

  it('says "unknown" rather than failing on empty or odd strings', () => {
    expect(describeDevice('')).toEqual({
      browser: 'Unknown browser',
      system: 'unknown system',
      kind: 'other',
    });
    expect(describeDevice('curl/8.5.0').system).toBe('unknown system');
  });
});
