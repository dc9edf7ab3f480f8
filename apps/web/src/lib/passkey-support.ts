/** What passkeys need of the page's address, read before the button offers one. */
export interface PageAddress {
  protocol: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\])$/;

/**
 * Why passkeys cannot work on this page, as a sentence saying what to do instead; null when they
 * can. Browsers refuse a passkey at an IP address (WebAuthn takes a site name as relying-party id)
 * and outside a secure context (https, or localhost); the portal moves a loopback IP's pages to
 * localhost (ADR 023), so this speaks mostly to an installation reached by IP address only.
 */
export function passkeysUnavailable(
  address: PageAddress = window.location,
  secureContext: boolean = window.isSecureContext,
  supported: boolean = typeof window.PublicKeyCredential === 'function',
): string | null {
  const { hostname } = address;
  if (IPV4.test(hostname) || hostname.startsWith('[')) {
    const why = `Passkeys do not work here: this page is open at the IP address ${hostname}, and browsers offer passkeys only to sites with a name.`;
    if (LOOPBACK.test(hostname)) {
      const port = address.port ? `:${address.port}` : '';
      return `${why} Open http://localhost${port}${address.pathname}${address.search} instead.`;
    }
    return `${why} Use your password and an authenticator app here, or ask your administrator to give Power Analyzer a site name (its PUBLIC_URL setting) and open it there.`;
  }
  if (!secureContext)
    return `Passkeys need a secure connection, and this page is open over plain http at ${hostname}. Ask your administrator to serve Power Analyzer over https, or sign in with your password.`;
  if (!supported)
    return 'This browser does not offer passkeys. Use a current browser, or sign in with your password.';
  return null;
}
