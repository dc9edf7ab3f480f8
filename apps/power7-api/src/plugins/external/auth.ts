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
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TYPE } from '@pa/contracts/access-token';
import type { Power7Permission } from '@pa/contracts/permission-codes';
import { forbidden, unauthorized } from '@pa/server-kit/errors';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';

export type { Power7Permission };

/** The caller, from a verified access token. */
export interface Caller {
  userId: string;
  companyId: string;
  /** The portal sign-in the token belongs to (`sid`). */
  sessionId: string | null;
  name: string | null;
  perms: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export interface KeySource {
  getKey: JWTVerifyGetKey;
  /** Readiness: the key material can be loaded. */
  check(): Promise<boolean>;
  /** Sign-ins the portal ended, whose tokens are refused before they expire. */
  ended?: EndedSignIns;
}

/** How often the list of ended sign-ins is fetched: the bound on how long an ended one still works. */
export const ENDED_SIGN_INS_POLL_MS = 2_000;

export interface EndedSignIns {
  has(sessionId: string): boolean;
  /** Fetches now, then every `ENDED_SIGN_INS_POLL_MS` until `stop()`. */
  start(log: { warn(object: object, message: string): void }): void;
  stop(): void;
}

/**
 * How long after `start()` a portal that has never answered is still taken to be starting (`npm
 * start` starts both services at once): its failures are not logged before then.
 */
const PORTAL_START_GRACE_MS = 30_000;

/**
 * The portal's list of ended sign-ins (`/api/.well-known/revoked-sessions`, beside its JWKS),
 * polled every two seconds. Tokens stay verified locally; only their `sid` is checked against the
 * list. When the portal cannot be reached the last list stays in force (logged once per outage, and
 * not while a portal that never answered may still be starting): Power 7 keeps working while the
 * portal restarts, and learns ended sign-ins when it is back.
 */
export function endedSignIns(
  url: string,
  intervalMs = ENDED_SIGN_INS_POLL_MS,
  startGraceMs = PORTAL_START_GRACE_MS,
): EndedSignIns {
  let ids = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let inFlight = false;
  let failing = false;
  let answered = false;
  let startedAt = 0;
  const refresh = async (log: { warn(object: object, message: string): void }) => {
    if (inFlight) return;
    inFlight = true;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(intervalMs) });
      if (!response.ok) throw new Error(`the portal answered ${response.status}`);
      const body = (await response.json()) as { data?: { sessionIds?: unknown } };
      const list = body.data?.sessionIds;
      if (!Array.isArray(list)) throw new Error('the answer holds no sessionIds');
      ids = new Set(list.filter((id): id is string => typeof id === 'string'));
      failing = false;
      answered = true;
    } catch (error) {
      const mayBeStarting = !answered && Date.now() - startedAt < startGraceMs;
      if (!failing && !mayBeStarting) {
        log.warn({ err: error, url }, 'cannot fetch the ended sign-ins; keeping the last list');
        failing = true;
      }
    } finally {
      inFlight = false;
    }
  };
  return {
    // The portal lists keys of ended sign-ins, not their ids (which tell the sign-in time).
    has: (sessionId) => ids.has(endedSignInKey(sessionId)),
    start(log) {
      if (timer) return;
      startedAt = Date.now();
      void refresh(log);
      timer = setInterval(() => void refresh(log), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/**
 * The portal's public keys, from a JWK set file (re-read when the file changes, so a key rotation
 * needs no restart) or from its JWKS URL (fetched and cached by jose).
 */
export function keySource(options: {
  JWKS_FILE?: string | undefined;
  JWKS_URL: string;
}): KeySource {
  // The list of ended sign-ins sits beside the portal's JWKS (JWKS_URL defaults to the portal).
  const ended = endedSignIns(new URL('revoked-sessions', options.JWKS_URL).toString());
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
      ended,
      getKey: async (header, token) => (await load())(header, token),
      check: async () => {
        await load();
        return true;
      },
    };
  }
  const remote = createRemoteJWKSet(new URL(options.JWKS_URL), { cooldownDuration: 5_000 });
  return {
    ended,
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
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('The access token has expired.');
    if (error instanceof joseErrors.JOSEError) throw unauthorized('The access token is invalid.');
    throw error;
  }
}

/**
 * Reads `Authorization: Bearer …` on every request (never a call to the portal per request). Routes
 * then call `requirePermission(request, code)`. The web app's `X-CSRFToken` header is accepted and
 * needs no check here: these calls authenticate by bearer token, never by cookie.
 */
export const authPlugin = fp<{ keys: KeySource }>(
  async function auth(app: FastifyInstance, { keys }) {
    app.decorateRequest('caller', null);
    keys.ended?.start(app.log);
    app.addHook('onClose', async () => keys.ended?.stop());
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      if (!header) return;
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw unauthorized('The Authorization header must be "Bearer <token>".');
      const caller = await verifyAccessToken(match[1]!, keys);
      if (caller.sessionId && keys.ended?.has(caller.sessionId)) {
        throw unauthorized('This sign-in has ended. Sign in again.');
      }
      request.caller = caller;
    });
  },
  { name: 'power7-auth' },
);

/** The caller when they hold `permission`; 401 without a token, 403 without the permission. */
export function requirePermission(request: FastifyRequest, permission: Power7Permission): Caller {
  const caller = request.caller;
  if (!caller) throw unauthorized();
  if (!caller.perms.has(permission)) {
    throw forbidden(`This needs the permission ${permission}.`);
  }
  return caller;
}
