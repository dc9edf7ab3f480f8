import path from 'node:path';
import { z } from 'zod';
import { listVar, loadConfig, logLevelVar, portVar } from '@pa/server-kit/config';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every setting of the portal service, read from the environment once at boot (see README "Settings"). */
export const portalConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORTAL_PORT: portVar(8000),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  DATABASE_URL: z.url({ message: 'must be a postgres:// URL' }).optional(),
  LOG_LEVEL: logLevelVar,
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  PUBLIC_URL: z.url().default('http://127.0.0.1:8000'),
  CORS_ORIGINS: listVar([]),
});

export type PortalConfig = z.infer<typeof portalConfigSchema>;

export const loadPortalConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(portalConfigSchema, env);
