/**
 * What a visitor started on a page rendered before the app's code (main.tsx: the first sign-in
 * page), for the app's own page to finish once it is loaded: the values typed and the button pressed.
 */
export const SIGN_IN_PATH = '/auth/signin';
export const FORGOT_PASSWORD_PATH = '/auth/forgot-password';

export interface FirstPageHandoff {
  path: string;
  values: Record<string, string>;
  action: 'submit' | 'passkey';
}

let pending: FirstPageHandoff | null = null;

export function handOver(handoff: FirstPageHandoff) {
  pending = handoff;
}

/** The handoff left for the page at `path`, if any (read when the page first renders). */
export function pendingHandoff(path: string): FirstPageHandoff | null {
  return pending?.path === path ? pending : null;
}

/**
 * True once per handoff: the first caller acts on it (submits), any later one — a re-run effect,
 * a later visit of the page — does not.
 */
export function finishHandoff(handoff: FirstPageHandoff): boolean {
  if (pending !== handoff) return false;
  pending = null;
  return true;
}
