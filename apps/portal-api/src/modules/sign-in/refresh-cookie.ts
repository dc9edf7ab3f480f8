import type { FastifyReply, FastifyRequest } from 'fastify';

export const REFRESH_COOKIE = 'refreshToken';

/**
 * The refresh-token cookie as the seed fixes it: readable by the web app's scripts (not HttpOnly),
 * Secure, SameSite=Strict, 7 days, path /.
 */
export function setRefreshCookie(reply: FastifyReply, token: string, maxAgeSeconds: number) {
  void reply.setCookie(REFRESH_COOKIE, token, {
    path: '/',
    secure: true,
    sameSite: 'strict',
    httpOnly: false,
    maxAge: maxAgeSeconds,
  });
}

export function clearRefreshCookie(reply: FastifyReply) {
  void reply.clearCookie(REFRESH_COOKIE, { path: '/', secure: true, sameSite: 'strict' });
}

/** The refresh token from the body (`{ refreshToken }`) or else the cookie. */
export function refreshTokenOf(request: FastifyRequest): string | null {
  const body = request.body as { refreshToken?: unknown } | null | undefined;
  if (body && typeof body.refreshToken === 'string' && body.refreshToken) return body.refreshToken;
  const cookie = request.cookies[REFRESH_COOKIE];
  return cookie ? cookie : null;
}
