import { readFile, stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import { amrOf, TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TYPE } from '@pa/contracts/access-token';
import type { PermissionCode, Power7Permission } from '@pa/contracts/permission-codes';
import { forbidden, unauthorized } from '@pa/server-kit/errors';
import type { Caller } from '../../modules/caller';
import type { EndedSignIns } from '../../modules/revocation/ended-sign-ins';

export type { Caller, Power7Permission };

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export interface KeySource {
  getKey: JWTVerifyGetKey;
  /** Readiness: the key material can be loaded. */
  check(): Promise<boolean>;
}

/**
 * The portal's public keys, from a JWK set file (re-read when the file changes, so a key rotation
 * needs no restart) or from its JWKS URL (fetched and cached by jose).
 */
export function keySource(options: {
  JWKS_FILE?: string | undefined;
  JWKS_URL: string;
}): KeySource {
  const file = options.JWKS_FILE;
  if (file) {
    let cached: { mtimeMs: number; getKey: JWTVerifyGetKey } | null = null;
    const load = async () => {
      const { mtimeMs } = await stat(file);
      if (!cached || cached.mtimeMs !== mtimeMs) {
        const jwks = JSON.parse(await readFile(file, 'utf8')) as JSONWebKeySet;
        cached = { mtimeMs, getKey: createLocalJWKSet(jwks) };
      }
      return cached.getKey;
    };
    return {
      getKey: async (header, token) => (await load())(header, token),
      check: async () => {
        await load();
        return true;
      },
    };
  }
  const remote = createRemoteJWKSet(new URL(options.JWKS_URL), { cooldownDuration: 5_000 });
  return {
    getKey: remote,
    check: async () => {
      const response = await fetch(options.JWKS_URL, { signal: AbortSignal.timeout(2_000) });
      if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
      const body = (await response.json()) as JSONWebKeySet;
      if (!Array.isArray(body.keys) || body.keys.length === 0) throw new Error('JWKS has no keys');
      return true;
    },
  };
}

/** Verifies a bearer access token locally: EdDSA signature, issuer, audience, expiry, `typ`. */
export async function verifyAccessToken(token: string, keys: KeySource): Promise<Caller> {
  try {
    const { payload } = await jwtVerify(token, keys.getKey, {
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      algorithms: ['EdDSA'],
      requiredClaims: ['sub', 'exp'],
    });
    if (payload.typ !== TOKEN_TYPE) throw unauthorized('This is not an access token.');
    const cid = payload.cid;
    if (typeof payload.sub !== 'string' || typeof cid !== 'string' || !cid) {
      throw unauthorized('The access token lacks its user or company.');
    }
    const perms = Array.isArray(payload.perms)
      ? payload.perms.filter((p): p is string => typeof p === 'string')
      : [];
    return {
      userId: payload.sub,
      companyId: cid,
      sessionId: typeof payload.sid === 'string' ? payload.sid : null,
      name: typeof payload.name === 'string' ? payload.name : null,
      perms: new Set(perms),
      amr: amrOf(payload.amr),
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired.');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('The access token is invalid.');
    throw error;
  }
}

/**
 * Authenticates every request of the route group it is registered in (the Power 7 routes,
 * routes/api/power7/index.ts; the health and status checks stay outside it): `Authorization: Bearer …`
 * is required (401 without it, before the parameters or the body are read) and verified locally,
 * never calling the portal per request. Routes then name their permission with
 * `requirePermission(request, code)`. A token is refused while the list of ended sign-ins is too old
 * to trust (503), and when its sign-in is on it (401). The web app's `X-CSRFToken` header is
 * accepted and needs no check here: these calls authenticate by bearer token, never by cookie.
 */
export const authPlugin = fp<{ keys: KeySource; ended: EndedSignIns }>(
  async function auth(app: FastifyInstance, { keys, ended }) {
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header) throw unauthorized();
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw unauthorized('The Authorization header must be "Bearer <token>".');
      const caller = await verifyAccessToken(match[1]!, keys);
      ended.assertFresh();
      if (caller.sessionId && ended.has(caller.sessionId)) {
        throw unauthorized('This sign-in has ended. Sign in again.');
      }
      request.caller = caller;
    });
  },
  { name: 'power7-auth' },
);

/**
 * The caller when they hold `permission` (403 without it). Only routes of the authenticated group
 * call it: a request without a token was refused before (401 here too, should one get through).
 */
export function requirePermission(request: FastifyRequest, permission: PermissionCode): Caller {
  const caller = request.caller;
  if (!caller) throw unauthorized();
  if (!caller.perms.has(permission)) {
    throw forbidden(`This needs the permission ${permission}.`);
  }
  return caller;
}
