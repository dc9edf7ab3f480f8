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
  /**
   * How the user proved who they are (RFC 8176): `pwd` password, `otp` authenticator-app or recovery
   * code, `hwk` passkey. Tokens signed before two-step sign-in carry none: read them as `['pwd']`.
   */
  amr: string[];
}

/** The `amr` claim of a verified payload: a list of strings, `['pwd']` when absent. */
export function amrOf(claim: unknown): string[] {
  return Array.isArray(claim) ? claim.filter((v): v is string => typeof v === 'string') : ['pwd'];
}
