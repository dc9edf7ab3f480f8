/** The WebAuthn relying party: its id (a host name) and the origins a passkey answer may come from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

const LOOPBACK_IP = /^(127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Whether a URL's host name (IPv6 in brackets) is a loopback IP address. */
export const isLoopbackIp = (hostname: string) => LOOPBACK_IP.test(hostname);

/**
 * From `PUBLIC_URL`: its host name and origin. Browsers refuse an IP address as relying-party id, so
 * an installation on a loopback address (`http://127.0.0.1:3000`) uses `localhost`, and passkeys
 * then work at `http://localhost:<port>` (a secure context without TLS).
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  if (!isLoopbackIp(url.hostname))
    return { id: url.hostname, name: 'Power Analyzer', origins: [url.origin] };
  const local = new URL(url.href);
  local.hostname = 'localhost';
  return { id: 'localhost', name: 'Power Analyzer', origins: [local.origin] };
}
