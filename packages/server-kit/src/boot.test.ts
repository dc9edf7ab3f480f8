import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Both services parse their configuration once at boot: a bad value must stop the start with a
// message naming the variable, before anything listens or touches the data folder.
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const services = [
  ['portal', 'apps/portal-api/src/server.ts', 'PORTAL_PORT'],
  ['power7', 'apps/power7-api/src/server.ts', 'POWER7_PORT'],
] as const;

describe('service boot with a bad setting', () => {
  it.each(services)(
    '%s stops with a message naming the variable',
    (_name, entry, portVariable) => {
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], {
        cwd: repoRoot,
        env: { ...process.env, [portVariable]: 'not-a-port', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${portVariable}:`);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
    },
    60_000,
  );
});
