import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pa/server-kit/config';
import { loadPortalConfig, publicUrlForCommand, rememberPublicUrl } from './config';

describe('portal settings', () => {
  it('links point at the portal itself unless PUBLIC_URL says otherwise', () => {
    // a loopback IP address is named localhost: browsers refuse passkeys at an IP address (ADR 023)
    expect(loadPortalConfig({}).PUBLIC_URL).toBe('http://localhost:8000');
    expect(loadPortalConfig({ PORTAL_PORT: '18500' }).PUBLIC_URL).toBe('http://localhost:18500');
    expect(loadPortalConfig({ HOST: '127.0.0.2' }).PUBLIC_URL).toBe('http://localhost:8000');
    expect(loadPortalConfig({ HOST: '10.1.2.3' }).PUBLIC_URL).toBe('http://10.1.2.3:8000');
    expect(loadPortalConfig({ HOST: '0.0.0.0', PORTAL_PORT: '9000' }).PUBLIC_URL).toBe(
      'http://localhost:9000',
    );
    expect(loadPortalConfig({ HOST: '::1' }).PUBLIC_URL).toBe('http://localhost:8000');
    expect(loadPortalConfig({ HOST: 'fd00::5' }).PUBLIC_URL).toBe('http://[fd00::5]:8000');
    expect(
      loadPortalConfig({ PORTAL_PORT: '18500', PUBLIC_URL: 'https://analyzer.example.com' })
        .PUBLIC_URL,
    ).toBe('https://analyzer.example.com');
  });

  it('a PUBLIC_URL that is not a URL is refused by name', () => {
    expect(() => loadPortalConfig({ PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadPortalConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
  });

  it('a command from another shell names the address the server last served at', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-portal-url-'));
    try {
      const env = { DATA_DIR: dataDir };
      expect(publicUrlForCommand(loadPortalConfig(env), env)).toBe('http://localhost:8000');
      rememberPublicUrl(dataDir, 'http://localhost:38000');
      expect(publicUrlForCommand(loadPortalConfig(env), env)).toBe('http://localhost:38000');
      // What this shell sets wins over the note.
      const own = { ...env, PORTAL_PORT: '39000' };
      expect(publicUrlForCommand(loadPortalConfig(own), own)).toBe('http://localhost:39000');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
