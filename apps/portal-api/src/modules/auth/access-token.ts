import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { SigningKeys } from './keys';

import {
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  TOKEN_TYPE,
  amrOf,
  type AccessClaims,
} from '@pa/contracts/access-token';

// The token contract shared with the Power 7 API lives in @pa/contracts/access-token.
export { TOKEN_AUDIENCE, TOKEN_ISSUER, type AccessClaims };

/** Claims of a verified token: the signed ones plus its expiry (seconds since the epoch). */
export interface VerifiedClaims extends AccessClaims {
  exp: number;
}

/**
 * Signs an access token (EdDSA) valid for `ttlSeconds`, with an id of its own (`jti`, as RFC 9068
 * §2.2 asks of JWT access tokens): without it, two tokens for one sign-in signed in the same second
 * (a rotation right after a sign-in) were byte for byte the same — whole-second claims, and an EdDSA
 * signature is deterministic.
 */
export async function signAccessToken(
  keys: SigningKeys,
  claims: AccessClaims,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({
    cid: claims.cid,
    sid: claims.sid,
    name: claims.name,
    perms: claims.perms,
    amr: claims.amr,
    typ: TOKEN_TYPE,
  })
    .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid })
    .setSubject(claims.sub)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(keys.privateKey);
}

/**
 * Verifies signature (EdDSA only, so `alg: none` and HMAC tricks fail), issuer, audience, expiry and
 * `typ: 'access'`. Returns the claims or null; never throws.
 */
export async function verifyAccessToken(
  keys: SigningKeys,
  token: string,
): Promise<VerifiedClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: ['EdDSA'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['exp', 'sub', 'iat'],
    });
    if (
      payload.typ !== TOKEN_TYPE ||
      typeof payload.sub !== 'string' ||
      typeof payload.cid !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.exp !== 'number'
    ) {
      return null;
    }
    return {
      sub: payload.sub,
      cid: payload.cid,
      sid: payload.sid,
      name: typeof payload.name === 'string' ? payload.name : '',
      perms: Array.isArray(payload.perms) ? payload.perms.map(String) : [],
      amr: amrOf(payload.amr),
      exp: payload.exp,
    };
  } catch {
    return null;
  }
}
