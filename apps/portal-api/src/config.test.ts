import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pa/server-kit/config';
import { loadPortalConfig } from './config';

describe('portal settings', () => {
  it('links point at the portal itself unless PUBLIC_URL says otherwise', () => {
    expect(loadPortalConfig({}).PUBLIC_URL).toBe('http://127.0.0.1:8000');
    expect(loadPortalConfig({ PORTAL_PORT: '18500' }).PUBLIC_URL).toBe('http://127.0.0.1:18500');
    expect(loadPortalConfig({ HOST: '0.0.0.0', PORTAL_PORT: '9000' }).PUBLIC_URL).toBe(
      'http://localhost:9000',
    );
    expect(loadPortalConfig({ HOST: '::1' }).PUBLIC_URL).toBe('http://[::1]:8000');
    expect(
      loadPortalConfig({ PORTAL_PORT: '18500', PUBLIC_URL: 'https://analyzer.example.com' })
        .PUBLIC_URL,
    ).toBe('https://analyzer.example.com');
  });

  it('a PUBLIC_URL that is not a URL is refused by name', () => {
    expect(() => loadPortalConfig({ PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadPortalConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
  });
});
