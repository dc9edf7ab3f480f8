import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, lt } from 'drizzle-orm';
import { forbidden, unauthorized } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { companies, signIns, users } from '../../db/schema';
import { verifyAccessToken } from '../../modules/auth/access-token';
import { effectivePermissionsSql } from '../../modules/auth/effective-permissions';
import type { SigningKeys } from '../../modules/auth/keys';

/** Who is calling: set by `app.authenticate` from the token AND the database's current state. */
export interface AuthContext {
  userId: string;
  companyId: string;
  companyName: string;
  /** The sign-in (refresh-token family) the access token belongs to. */
  sessionId: string;
  userName: string;
  /** Effective permission codes read from the database on this request. */
  permissions: Set<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: PortalDb;
    signingKeys: SigningKeys;
    /** preHandler: 401 unless a valid access token of an active user and a live sign-in. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler (after authenticate): 403 unless the caller holds every code. */
    requirePermission: (...codes: string[]) => preHandlerAsyncHookHandler;
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

const INVALID_SESSION = 'Your session has expired or is no longer valid. Please sign in again.';
/** Sign-ins record "last used" at most this often from ordinary requests (one write, not one per call). */
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthPluginOptions {
  db: PortalDb;
  keys: SigningKeys;
}

/**
 * Bearer-token authentication and permission checks. Every request re-reads the user, their sign-in
 * and their effective permissions, so revoking a sign-in, locking a user or changing a role applies
 * on the very next request (the token's `perms` claim is for the Power 7 API only).
 */
export const authPlugin = fp<AuthPluginOptions>(
  async function authPlugin(app: FastifyInstance, options: AuthPluginOptions) {
    const { db, keys } = options;
    app.decorate('db', db);
    app.decorate('signingKeys', keys);
    app.decorateRequest('auth', undefined);

    app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) throw unauthorized();
      const claims = await verifyAccessToken(keys, match[1]);
      if (!claims) throw unauthorized(INVALID_SESSION);
      // One round trip: the user, their company, the sign-in and the current permission codes.
      const [row] = await db
        .select({
          userName: users.userName,
          status: users.status,
          companyName: companies.name,
          revokedAt: signIns.revokedAt,
          expiresAt: signIns.expiresAt,
          lastUsedAt: signIns.lastUsedAt,
          codes: effectivePermissionsSql(users.id, users.companyId),
        })
        .from(users)
        .innerJoin(signIns, and(eq(signIns.id, claims.sid), eq(signIns.userId, users.id)))
        .innerJoin(companies, eq(companies.id, users.companyId))
        .where(and(eq(users.id, claims.sub), eq(users.companyId, claims.cid)))
        .limit(1);
      if (
        !row ||
        row.status !== 'active' ||
        row.revokedAt !== null ||
        row.expiresAt.getTime() <= Date.now()
      ) {
        throw unauthorized(INVALID_SESSION);
      }
      const codes = row.codes ?? [];
      if (Date.now() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        await db
          .update(signIns)
          .set({ lastUsedAt: new Date() })
          .where(
            and(
              eq(signIns.id, claims.sid),
              lt(signIns.lastUsedAt, new Date(Date.now() - TOUCH_INTERVAL_MS)),
            ),
          );
      }
      request.auth = {
        userId: claims.sub,
        companyId: claims.cid,
        companyName: row.companyName,
        sessionId: claims.sid,
        userName: row.userName,
        permissions: new Set(codes),
      };
    });

    app.decorate('requirePermission', (...codes: string[]) => {
      return async function requirePermission(request: FastifyRequest, _reply: FastifyReply) {
        const auth = authOf(request);
        if (!codes.every((code) => auth.permissions.has(code))) throw forbidden();
      };
    });
  },
  { name: 'portal-auth' },
);
