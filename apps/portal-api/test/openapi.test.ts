// The OpenAPI document at /api/docs/json: lint-clean, every answer in the envelope (issue #24).
import { afterAll, beforeAll, describe } from 'vitest';
import { openApiSuite } from '@pa/server-kit/testing/openapi-lint';
import { buildTestApp, type TestApp } from './helper';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

describe('the portal OpenAPI document', () => {
  openApiSuite(() => t.app);
});
