import type { FastifyRequest } from 'fastify';

/** The longest user agent the portal stores (sign-ins, audit events); longer ones are cut. */
export const USER_AGENT_MAX = 512;

export interface ClientInfo {
  /** The socket's address (never a header a client can forge; see `trustProxy` in app.ts). */
  ip: string;
  userAgent: string;
}

/** Who made a request, as sign-ins and audit events record it. */
export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: trimUserAgent(request.headers['user-agent']) };
}

export function trimUserAgent(userAgent: string | undefined): string {
  return (userAgent ?? '').slice(0, USER_AGENT_MAX);
}
