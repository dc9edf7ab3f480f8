import { describe, expect, it } from 'vitest';
import { passkeysUnavailable } from './passkey-support';

const at = (href: string) => {
  const url = new URL(href);
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    pathname: url.pathname,
    search: url.search,
  };
};

describe('passkeysUnavailable', () => {
  it('is null at a site name in a secure context with WebAuthn', () => {
    expect(passkeysUnavailable(at('http://localhost:8000/auth/signin'), true, true)).toBeNull();
    expect(passkeysUnavailable(at('https://analyzer.example.com/'), true, true)).toBeNull();
  });

  it('says why and what to do at an IP address', () => {
    const loopback = passkeysUnavailable(at('http://127.0.0.1:8000/auth/signin?x=1'), true, true);
    expect(loopback).toContain('IP address 127.0.0.1');
    expect(loopback).toContain('Open http://localhost:8000/auth/signin?x=1 instead.');
    const lan = passkeysUnavailable(at('http://10.1.2.3:8000/auth/signin'), false, true);
    expect(lan).toContain('IP address 10.1.2.3');
    expect(lan).toContain('ask your administrator to give Power Analyzer a site name');
    expect(passkeysUnavailable(at('http://[fd00::5]:8000/'), false, true)).toContain(
      'IP address [fd00::5]',
    );
  });

  it('says a plain-http site name or an old browser cannot', () => {
    expect(passkeysUnavailable(at('http://analyzer.lan/'), false, true)).toContain(
      'secure connection',
    );
    expect(passkeysUnavailable(at('https://analyzer.example.com/'), true, false)).toContain(
      'does not offer passkeys',
    );
  });
});
