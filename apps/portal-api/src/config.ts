import path from 'node:path';
import { z } from 'zod';
import { listVar, loadConfig, logLevelVar, portVar } from '@pa/server-kit/config';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const seconds = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

/** Every setting of the portal service, read from the environment once at boot (see README "Settings"). */
export const portalConfigSchema = z
  .object({
    HOST: z.string().default('127.0.0.1'),
    PORTAL_PORT: portVar(8000),
    DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
    DATABASE_URL: z.url({ message: 'must be a postgres:// URL' }).optional(),
    LOG_LEVEL: logLevelVar,
    WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    /** The web app's public address; unset = the portal's own (it serves the web app). */
    PUBLIC_URL: z.url().optional(),
    CORS_ORIGINS: listVar([]),
    /** Password of the seeded Demo Company administrator; generated and printed once when unset. */
    DEMO_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    /** Access-token lifetime in seconds (the token contract's default: 15 minutes). */
    ACCESS_TOKEN_TTL: seconds(900),
    /** Absolute lifetime of a sign-in (refresh-token family) in seconds: 7 days. */
    REFRESH_TOKEN_TTL: seconds(7 * 24 * 3600),
    /** Sign-in attempts allowed per client address in one window. */
    SIGNIN_RATE_LIMIT_IP: seconds(20),
    /** Failed sign-ins allowed per account (user name / email) in one window. */
    SIGNIN_RATE_LIMIT_ACCOUNT: seconds(5),
    /** Length of the sign-in rate-limit window in seconds. */
    SIGNIN_RATE_LIMIT_WINDOW: seconds(900),
    /**
     * PostgreSQL only: how long (ms) the in-process auth cache may keep what another portal process could
     * have changed (ADR 004); 0 = no cache, read the database on every request. PGlite (one process per
     * data folder) ignores it: there every write of the process invalidates the cache at once.
     */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** smtp:// or smtps:// URL; unset = write each message to DATA_DIR/outbox and log it. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Power Analyzer <no-reply@power-analyzer.local>'),
  })
  .transform((config) => ({
    ...config,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://${publicHost(config.HOST)}:${config.PORTAL_PORT}`,
  }));

/** A host for links: a wildcard listen address is not one a browser can open. */
function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

export type PortalConfig = z.infer<typeof portalConfigSchema>;

export const loadPortalConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(portalConfigSchema, env);
