import { describe, expect, it } from 'vitest';
import { power7ConfigSchema } from '../src/config';

// The web app is served by the portal: Power 7 must accept its origin on whatever port it runs.
describe('Power 7 default CORS origins', () => {
  const origins = (env: Record<string, string>) => power7ConfigSchema.parse(env).CORS_ORIGINS;

  it('follow PORTAL_PORT and PUBLIC_URL', () => {
    expect(origins({})).toEqual(['http://127.0.0.1:8000', 'http://localhost:8000']);
    expect(origins({ PORTAL_PORT: '38000' })).toEqual([
      'http://127.0.0.1:38000',
      'http://localhost:38000',
    ]);
    expect(
      origins({ PORTAL_PORT: '38000', PUBLIC_URL: 'https://analyzer.example.com/app/' }),
    ).toEqual(['https://analyzer.example.com', 'http://127.0.0.1:38000', 'http://localhost:38000']);
  });

  it('are replaced, not extended, by CORS_ORIGINS', () => {
    expect(
      origins({ PORTAL_PORT: '38000', CORS_ORIGINS: 'https://a.test, https://b.test' }),
    ).toEqual(['https://a.test', 'https://b.test']);
  });
});
