/**
 * The access-token contract between the portal (which signs) and the Power 7 API (which verifies
 * locally): EdDSA JWTs with this issuer, audience and `typ`, carrying these claims (ADR 002).
 */
export const TOKEN_ISSUER = 'power-analyzer-portal';
export const TOKEN_AUDIENCE = 'power-analyzer';
export const TOKEN_TYPE = 'access';

export interface AccessClaims {
  /** The user's id. */
  sub: string;
  /** The user's company. */
  cid: string;
  /** The sign-in (refresh-token family) the token belongs to. */
  sid: string;
  /** The user name. */
  name: string;
  /** Effective permission codes when the token was issued. */
  perms: string[];
}
