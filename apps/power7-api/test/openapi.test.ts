// The OpenAPI document at /api/docs/json: lint-clean, every answer in the envelope (issue #24).
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe } from 'vitest';
import { openApiSuite } from '@pa/server-kit/testing/openapi-lint';
import { buildTestApp, makeKeys, tempDir } from './helper';

let app: Awaited<ReturnType<typeof buildTestApp>>;
let dir: string;
beforeAll(async () => {
  dir = await tempDir();
  app = await buildTestApp({ DATA_DIR: dir, JWKS_FILE: (await makeKeys(dir)).file });
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Power 7 OpenAPI document', () => {
  openApiSuite(() => app);
});
