import type { PermissionCode } from '@pa/contracts/permission-codes';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, lt } from 'drizzle-orm';
import { AppError, forbidden, unauthorized } from '@pa/server-kit/errors';
import { companies, signIns, users } from '../../db/schema';
import { auditFrom, recordAudit } from '../../modules/audit/record';
import { verifyAccessToken, type VerifiedClaims } from '../../modules/auth/access-token';
import { type AuthCache, VerifiedTokens } from '../../modules/auth/auth-cache';
import { effectivePermissionsSql } from '../../modules/auth/effective-permissions';
import type { SigningKeys } from '../../modules/auth/keys';

/** Who is calling: set by `app.authenticate` from the token AND the database's current state. */
export interface AuthContext {
  userId: string;
  companyId: string;
  companyName: string;
  /** The sign-in (refresh-token family) the access token belongs to. */
  signInId: string;
  userName: string;
  /** Effective permission codes read from the database on this request. */
  permissions: Set<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    signingKeys: SigningKeys;
    /** The per-user authorisation state cache (ADR 004); `verify` keeps account details in it too. */
    authCache: AuthCache;
    /** preHandler: 401 unless a valid access token of an active user and a live sign-in. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler (after authenticate): 403 unless the caller holds every code. */
    requirePermission: (...codes: PermissionCode[]) => preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate`; absent on public routes. */
    auth?: AuthContext;
  }
}

/** The authenticated caller of a route behind `app.authenticate` (throws 401 when absent). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** A refusal for lacking permission codes; `missing` names them for the audit trail. */
class PermissionDenied extends AppError {
  constructor(
    readonly missing: string[],
    base = forbidden(),
  ) {
    super(base.code, base.message);
  }
}

// The wording clients show (unchanged): "session" here is the person's sign-in.
const SIGN_IN_ENDED = 'Your session has expired or is no longer valid. Please sign in again.';
/** Sign-ins record "last used" at most this often from ordinary requests (one write, not one per call). */
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthPluginOptions {
  keys: SigningKeys;
  cache: AuthCache;
}

/**
 * Bearer-token authentication and permission checks. Every request checks the user, their sign-in and
 * their effective permissions as the database has them now: read once and kept in the auth cache until
 * the next write (ADR 004), so revoking a sign-in, locking a user or changing a role applies on the
 * very next request (the token's `perms` claim is for the Power 7 API only).
 */
export const authPlugin = fp<AuthPluginOptions>(
  async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
    const { keys, cache } = options;
    const { db } = app;
    app.decorate('signingKeys', keys);
    app.decorate('authCache', cache);
    const verified = new VerifiedTokens<VerifiedClaims>();

    // One round trip: the user, their company, the sign-in and the current permission codes.
    const readState = async (sub: string, sid: string, cid: string) => {
      const [row] = await db
        .select({
          userId: users.id,
          companyId: users.companyId,
          userName: users.userName,
          status: users.status,
          companyName: companies.name,
          revokedAt: signIns.revokedAt,
          expiresAt: signIns.expiresAt,
          lastUsedAt: signIns.lastUsedAt,
          codes: effectivePermissionsSql(users.id, users.companyId),
        })
        .from(users)
        .innerJoin(signIns, and(eq(signIns.id, sid), eq(signIns.userId, users.id)))
        .innerJoin(companies, eq(companies.id, users.companyId))
        .where(and(eq(users.id, sub), eq(users.companyId, cid)))
        .limit(1);
      return row ? { ...row, permissions: new Set(row.codes ?? []) } : null;
    };
    app.decorateRequest('auth', undefined);

    app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized();
      const token = match[1];
      let claims = verified.get(token);
      if (!claims) {
        const checked = await verifyAccessToken(keys, token);
        if (!checked) throw unauthorized(SIGN_IN_ENDED);
        verified.set(token, checked);
        claims = checked;
      }
      const { sub, sid, cid } = claims;
      // By sign-in id: a sign-in belongs to one user of one company (checked again below).
      const row = await cache.get('auth', sid, () => readState(sub, sid, cid));
      if (
        !row ||
        row.userId !== sub ||
        row.companyId !== cid ||
        row.status !== 'active' ||
        row.revokedAt !== null ||
        row.expiresAt.getTime() <= Date.now()
      ) {
        throw unauthorized(SIGN_IN_ENDED);
      }
      if (Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        // "Last used" is written at most once a minute per sign-in; this write leaves the cache as is
        // (db/changes.ts), so the cached entry carries the new time itself.
        row.lastUsedAt = new Date();
        await db
          .update(signIns)
          .set({ lastUsedAt: row.lastUsedAt })
          .where(
            and(
              eq(signIns.id, sid),
              lt(signIns.lastUsedAt, new Date(Date.now() - TOUCH_INTERVAL_MS)),
            ),
          );
      }
      request.auth = {
        userId: claims.sub,
        companyId: claims.cid,
        companyName: row.companyName,
        signInId: claims.sid,
        userName: row.userName,
        permissions: row.permissions,
      };
    });

    app.decorate('requirePermission', (...codes: PermissionCode[]) => {
      return async function requirePermission(request: FastifyRequest, _reply: FastifyReply) {
        const auth = authOf(request);
        const missing = codes.filter((code) => !auth.permissions.has(code));
        if (missing.length > 0) throw new PermissionDenied(missing);
      };
    });

    // Every refusal (403) of a signed-in caller, from a permission check or a rule of a route (an
    // escalation, an own account), goes to their company's trail from this one place: who, which
    // route, which permission was missing when known, the reason; never the body or the query.
    app.addHook('onError', async (request, _reply, error) => {
      const status = error instanceof AppError ? error.status : error.statusCode;
      if (!request.auth || status !== 403) return;
      const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
      try {
        await recordAudit(db, {
          ...auditFrom(request),
          action: 'access.denied',
          entityType: 'route',
          entityId: `${request.method} ${route}`,
          after: {
            method: request.method,
            route,
            ...(error instanceof PermissionDenied ? { missingPermissions: error.missing } : {}),
            reason: error.message,
          },
        });
      } catch (failure) {
        // The refusal is answered whatever becomes of its record.
        request.log.error({ err: failure }, 'recording a refused request failed');
      }
    });
  },
  { name: 'portal-auth', dependencies: ['portal-db'] },
);
