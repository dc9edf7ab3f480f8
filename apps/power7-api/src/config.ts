import path from 'node:path';
import { z } from 'zod';
import { listVar, loadConfig, logLevelVar, portVar } from '@pa/server-kit/config';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every setting of the Power 7 service, read from the environment once at boot (see README "Settings"). */
export const power7ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  POWER7_PORT: portVar(8001),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  LOG_LEVEL: logLevelVar,
  CORS_ORIGINS: listVar(['http://127.0.0.1:8000', 'http://localhost:8000']),
});

export type Power7Config = z.infer<typeof power7ConfigSchema>;

export const loadPower7Config = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(power7ConfigSchema, env);
