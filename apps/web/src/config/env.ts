/**
 * Where the two APIs live. The portal serves the web app itself, so its API is same-origin (`''`).
 * The Power 7 API is a separate service (docs/product/web.md §7 "separate host"): unless the build sets
 * `VITE_POWER7_API_URL`, it is the current host on the port after the portal's (8000 → 8001, the
 * browser suite's 18000 → 18001), or 8001 when the page has no explicit port or comes from Vite's
 * dev server, so one build works on any machine.
 */
export const PORTAL_API_URL: string = import.meta.env.VITE_PORTAL_API_URL ?? '';

const VITE_DEV_PORT = '5173';

export function derivePower7Url(location: Pick<Location, 'protocol' | 'hostname' | 'port'>) {
  const { port } = location;
  const power7Port = !port || port === VITE_DEV_PORT ? 8001 : Number(port) + 1;
  return `${location.protocol}//${location.hostname}:${power7Port}`;
}

export const POWER7_API_URL: string =
  import.meta.env.VITE_POWER7_API_URL ??
  (typeof window === 'undefined' ? 'http://127.0.0.1:8001' : derivePower7Url(window.location));
