/**
 * A Power 7 app of the calling file's own (temp data folder, test keys, `env` on top of the test
 * defaults): built in its `beforeAll`, closed in its `afterAll`. The fields are set once `beforeAll`
 * has run; `upload` and `finished` talk to this app as the signed-in test user.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  buildTestApp,
  cleanup,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
  type UploadFields,
} from './helper';

export interface OwnApp {
  dir: string;
  app: FastifyInstance;
  keys: Awaited<ReturnType<typeof makeKeys>>;
  token: string;
  auth(): { authorization: string };
  /** Uploads a file (expects 202) and returns the new session's id. */
  upload(content: Buffer | string, fields?: UploadFields, name?: string): Promise<string>;
  /** The session's status once it left queued / running. */
  finished(session: string): Promise<{ status: string; [key: string]: unknown }>;
}

export function useOwnApp(env: Record<string, string> = {}): OwnApp {
  const own = {
    auth: () => ({ authorization: `Bearer ${own.token}` }),
    async upload(content, fields = DEFAULT_FIELDS, name = 'customers.csv') {
      const body = multipart(fields, { name, content });
      const res = await own.app.inject({
        method: 'POST',
        url: '/api/upload/',
        payload: body.payload,
        headers: { ...body.headers, ...own.auth() },
      });
      expect(res.statusCode, res.body).toBe(202);
      return res.json().data._id as string;
    },
    async finished(session) {
      for (let i = 0; i < 4800; i++) {
        const res = await own.app.inject({
          url: `/api/power7/processing-status/?session=${session}`,
          headers: own.auth(),
        });
        const data = res.json().data;
        if (data.status !== 'queued' && data.status !== 'running') return data;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the session did not finish');
    },
  } as OwnApp;
  beforeAll(async () => {
    own.dir = await tempDir();
    own.keys = await makeKeys(own.dir);
    own.app = await buildTestApp({
      DATA_DIR: join(own.dir, 'data'),
      JWKS_FILE: own.keys.file,
      ...env,
    });
    own.token = await own.keys.sign();
  }, 60_000);
  afterAll(async () => {
    await own.app?.close();
    if (own.dir) await cleanup(own.dir);
  });
  return own;
}
