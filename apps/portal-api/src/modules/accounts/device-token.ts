import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_ISSUER } from '@pa/contracts/access-token';
import type { SigningKeys } from '../auth/keys';

/**
 * The sign-in device token (ADR 007): what the device cookie holds. A successful sign-in leaves one;
 * a later sign-in of the same account that presents it is exempt from the account's cross-address
 * delays (strangers guessing elsewhere cannot keep the owner out). Signed with the portal's EdDSA key
 * like the access tokens, but with an audience of its own, so it is never taken for an access token
 * (here or by the Power 7 API). It grants no access: it only says "this browser signed in to this
 * account before, while its current password was set".
 */
const DEVICE_AUDIENCE = 'power-analyzer-portal-device';
const DEVICE_TYPE = 'sign-in-device';

export interface DeviceClaims {
  userId: string;
  /** A random id per browser: the key of the device's own failure counter. */
  deviceId: string;
  /**
   * The account's `password_changed_at` (ms) when the token was issued: a password change or reset
   * (or an undone email change) voids every device token issued before it.
   */
  passwordEpoch: number;
}

export const newDeviceId = () => randomUUID();

export async function signDeviceToken(
  keys: SigningKeys,
  claims: DeviceClaims,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({ typ: DEVICE_TYPE, pwd: claims.passwordEpoch })
    .setProtectedHeader({ alg: 'EdDSA', kid: keys.kid })
    .setSubject(claims.userId)
    .setJti(claims.deviceId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(DEVICE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(keys.privateKey);
}

/** The claims of a valid device token (signature, audience, type, expiry), or null; never throws. */
export async function verifyDeviceToken(
  keys: SigningKeys,
  token: string,
): Promise<DeviceClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: ['EdDSA'],
      issuer: TOKEN_ISSUER,
      audience: DEVICE_AUDIENCE,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    if (
      payload.typ !== DEVICE_TYPE ||
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload.pwd !== 'number'
    ) {
      return null;
    }
    return { userId: payload.sub, deviceId: payload.jti, passwordEpoch: payload.pwd };
  } catch {
    return null;
  }
}
