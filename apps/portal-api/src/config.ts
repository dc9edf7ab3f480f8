import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackIp } from './modules/mfa/relying-party';
import { boolVar, listVar, loadConfig, logLevelVar, portVar } from '@pa/server-kit/config';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A whole number of at least `min` (seconds, counts, limits), `fallback` when unset. */
const wholeNumberVar = (fallback: number, min = 1) =>
  z.coerce.number().int().min(min).default(fallback);

/** Every setting of the portal service, read from the environment once at boot (see README "Settings"). */
export const portalConfigSchema = z
  .object({
    HOST: z.string().default('127.0.0.1'),
    PORTAL_PORT: portVar(8000),
    DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
    DATABASE_URL: z.url({ message: 'must be a postgres:// URL' }).optional(),
    LOG_LEVEL: logLevelVar,
    /** `GET /metrics` (Prometheus) on the portal's port; false = 404 (docs/operations.md). */
    METRICS: boolVar(true),
    WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    /** The web app's public address; unset = the portal's own (it serves the web app). */
    PUBLIC_URL: z.url().optional(),
    CORS_ORIGINS: listVar([]),
    /**
     * Where browsers reach the Power 7 API (the CSP's connect-src); unset = what the web app derives:
     * its own host, one port above the portal (apps/web/src/config/env.ts).
     */
    POWER7_PUBLIC_URL: z.url().optional(),
    /** Password of the seeded Demo Company administrator; generated and printed once when unset. */
    DEMO_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    /** Access-token lifetime in seconds (the token contract's default: 15 minutes). */
    ACCESS_TOKEN_TTL: wholeNumberVar(900),
    /** Absolute lifetime of a sign-in (refresh-token family) in seconds: 7 days. */
    REFRESH_TOKEN_TTL: wholeNumberVar(7 * 24 * 3600),
    /**
     * Seconds in which a spent refresh token whose successor was never used may be presented again
     * (a client that lost the answer, e.g. to a reload); 0 = every reuse ends the sign-in (ADR 006).
     */
    REFRESH_REUSE_GRACE: wholeNumberVar(30, 0),
    /**
     * Failed sign-ins allowed from one client address (any accounts) in one window: successes do not
     * count, so a company of a hundred people behind one address never reaches it.
     */
    SIGNIN_RATE_LIMIT_IP: wholeNumberVar(300),
    /** Failed sign-ins allowed per account and client address in one window. */
    SIGNIN_RATE_LIMIT_ACCOUNT: wholeNumberVar(5),
    /** Failed sign-ins of one account (all addresses) after which each try waits 1, 2, 4… up to 60 s. */
    SIGNIN_ACCOUNT_DELAY_AFTER: wholeNumberVar(10),
    /** Failed sign-ins of one account (all addresses) after which it waits out the window. */
    SIGNIN_ACCOUNT_CEILING: wholeNumberVar(100),
    /** Length of the sign-in rate-limit window in seconds. */
    SIGNIN_RATE_LIMIT_WINDOW: wholeNumberVar(900),
    /**
     * Lifetime in seconds of the sign-in device cookie a successful sign-in leaves (180 days): a
     * browser that holds one for the account is exempt from the account's cross-address delays (ADR 007).
     */
    SIGNIN_DEVICE_TTL: wholeNumberVar(180 * 24 * 3600),
    /**
     * Wrong second-step codes allowed in one sign-in window per account (clients without the
     * account's device cookie together), per known device, and per `mfaToken` (ADR 011).
     */
    MFA_RATE_LIMIT: wholeNumberVar(5),
    /** Lifetime in seconds of the `mfaToken` a proven password gives for the second step or enrolment. */
    MFA_TOKEN_TTL: wholeNumberVar(600),
    /** How long the link mailed to the old address after an email change can undo it, in seconds (7 days). */
    EMAIL_CHANGE_UNDO_TTL: wholeNumberVar(7 * 24 * 3600),
    /** How long an invitation's mailed link works, in seconds (7 days); a resend starts it again. */
    INVITATION_TTL: wholeNumberVar(7 * 24 * 3600),
    /** Password reset mails per email address in one reset window. */
    FORGOT_PASSWORD_LIMIT_EMAIL: wholeNumberVar(3),
    /** Password reset requests per client address in one reset window. */
    FORGOT_PASSWORD_LIMIT_IP: wholeNumberVar(20),
    /** Length of the reset-mail window in seconds. */
    FORGOT_PASSWORD_LIMIT_WINDOW: wholeNumberVar(3600),
    /**
     * PostgreSQL only: how long (ms) the in-process auth cache may keep what another portal process could
     * have changed (ADR 004); 0 = no cache, read the database on every request. PGlite (one process per
     * data folder) ignores it: there every write of the process invalidates the cache at once.
     */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /**
     * redis:// URL: the sign-in and reset-mail rate limits are counted there, shared by every portal
     * process; unset = in each process's memory.
     */
    REDIS_URL: z.url({ message: 'must be a redis:// URL' }).optional(),
    /** smtp:// or smtps:// URL; unset = write each message to DATA_DIR/outbox and log it. */
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Power Analyzer <no-reply@power-analyzer.local>'),
    /** Seconds after a delete during which `POST /api/users/:id/restore` brings the user back. */
    USER_RESTORE_WINDOW_SECONDS: wholeNumberVar(600, 10),
    /** The same for roles and permissions (`POST /api/roles/:id/restore`, `/api/permissions/:id/restore`). */
    ACCESS_RESTORE_WINDOW_SECONDS: wholeNumberVar(600, 10),
  })
  .transform((config) => {
    const PUBLIC_URL =
      config.PUBLIC_URL ?? `http://${publicHost(config.HOST)}:${config.PORTAL_PORT}`;
    return { ...config, PUBLIC_URL, POWER7_ORIGINS: power7Origins(config, PUBLIC_URL) };
  });

/**
 * The origins the web app may call the Power 7 API at. Mirrors the web app's rule (same host, the
 * port after the page's, 8001 for a page without a port) for the addresses the web app is opened
 * at: PUBLIC_URL and the two loopback names.
 */
function power7Origins(
  config: { POWER7_PUBLIC_URL?: string | undefined; PORTAL_PORT: number },
  publicUrl: string,
): string[] {
  if (config.POWER7_PUBLIC_URL) return [new URL(config.POWER7_PUBLIC_URL).origin];
  const page = new URL(publicUrl);
  const origins = new Set([
    `${page.protocol}//${page.hostname}:${page.port ? Number(page.port) + 1 : 8001}`,
    `http://127.0.0.1:${config.PORTAL_PORT + 1}`,
    `http://localhost:${config.PORTAL_PORT + 1}`,
  ]);
  return [...origins];
}

/**
 * A host for links: a wildcard listen address is not one a browser can open, and a loopback IP
 * address is one where browsers refuse passkeys (ADR 023), so both become `localhost`.
 */
function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  const bracketed = host.includes(':') ? `[${host}]` : host;
  return isLoopbackIp(bracketed) ? 'localhost' : bracketed;
}

export type PortalConfig = z.infer<typeof portalConfigSchema>;

export const loadPortalConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(portalConfigSchema, env);

const REMEMBERED_URL_FILE = 'portal-url';

/** The server notes the address it serves the web app at, for commands run from another shell. */
export function rememberPublicUrl(dataDir: string, url: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, REMEMBERED_URL_FILE), `${url}\n`);
}

/**
 * The web app's address for a command (the admin CLI): PUBLIC_URL or PORTAL_PORT when this shell
 * sets them, otherwise what the server last noted in DATA_DIR (it may run on another port), else
 * the default.
 */
export function publicUrlForCommand(config: PortalConfig, env: NodeJS.ProcessEnv): string {
  if (env.PUBLIC_URL || env.PORTAL_PORT) return config.PUBLIC_URL;
  try {
    const noted = fs.readFileSync(path.join(config.DATA_DIR, REMEMBERED_URL_FILE), 'utf8').trim();
    return noted ? new URL(noted).toString().replace(/\/$/, '') : config.PUBLIC_URL;
  } catch {
    return config.PUBLIC_URL;
  }
}
