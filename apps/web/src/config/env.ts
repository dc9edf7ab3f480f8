/**
 * Where the two APIs live. The portal serves the web app itself, so its API is same-origin (`''`).
 * The Power 7 API is a separate service (seed §7 "separate host"): unless the build sets
 * `VITE_POWER7_API_URL`, it is the current host on port 8001 (or 18001 when the page comes from 18000,
 * the browser suite's ports), so one build works on any machine.
 */
export const PORTAL_API_URL: string = import.meta.env.VITE_PORTAL_API_URL ?? '';

export function derivePower7Url(location: Pick<Location, 'protocol' | 'hostname' | 'port'>) {
  const port =
    location.port && location.port.startsWith('1800') && location.port.length === 5
      ? String(Number(location.port) + 1)
      : '8001';
  return `${location.protocol}//${location.hostname}:${port}`;
}

export const POWER7_API_URL: string =
  import.meta.env.VITE_POWER7_API_URL ??
  (typeof window === 'undefined' ? 'http://127.0.0.1:8001' : derivePower7Url(window.location));
