// `npm run admin -- backup` of a running product, `restore` into a fresh DATA_DIR: the restored
// product signs the admin in and serves the finished Power 7 session. The session's files, the
// archive and what is restored are the service user's only (issue 39).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { notPrivate } from '@pa/server-kit/testing/private-modes';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, customerCsv, DEFAULT_FIELDS, multipart, tempDir } from './helper';
import { runAdmin, startProduct } from './product-process';

describe('backup and restore of the embedded default', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await cleanup(dir);
  });

  it('backs up a running product and restores it into a fresh DATA_DIR', async () => {
    dir = await tempDir('backup-');
    const [original, restored, archive] = ['a', 'b', 'backup.tar.gz'].map((name) =>
      join(dir, name),
    ) as [string, string, string];
    const product = await startProduct(original);
    let session: string;
    try {
      const token = await product.signIn();
      const auth = { authorization: `Bearer ${token}` };
      const body = multipart(
        { ...DEFAULT_FIELDS, pool_size: '14' },
        { name: 'customers.csv', content: customerCsv(500, 14, 3) },
      );
      const upload = await fetch(`${product.power7}/api/upload/`, {
        method: 'POST',
        headers: { ...body.headers, ...auth, 'x-csrftoken': 'form-token' },
        body: body.payload,
      });
      expect(upload.status).toBe(202);
      session = ((await upload.json()) as { data: { _id: string } }).data._id;
      let status = 'queued';
      for (let i = 0; i < 1200 && (status === 'queued' || status === 'running'); i++) {
        if (i) await new Promise((r) => setTimeout(r, 50));
        const res = await fetch(
          `${product.power7}/api/power7/processing-status/?session=${session}`,
          {
            headers: auth,
          },
        );
        status = ((await res.json()) as { data: { status: string } }).data.status;
      }
      expect(status).toBe('done');
      // the customer list and its results (names, phones) are the service user's only
      expect(readdirSync(join(original, 'power7', session)).length).toBeGreaterThan(0);
      expect(notPrivate(join(original, 'power7'))).toEqual([]);
      expect(notPrivate(join(original, 'power7-db'))).toEqual([]);

      // while both services run
      const saved = await runAdmin(original, ['backup', '--out', archive]);
      expect(saved.output).toContain(`Backup written to ${archive}`);
      expect(saved.code).toBe(0);
      expect(statSync(archive).mode & 0o777).toBe(0o600);
      // Ctrl+C stops both services, cleanly
      expect(await product.stop()).toBe(0);
      await expect(fetch(`${product.power7}/api/live/`)).rejects.toThrow();
      await expect(fetch(`${product.portal}/api/live/`)).rejects.toThrow();
    } finally {
      await product.stop();
    }
    expect(existsSync(`${archive}.partial`)).toBe(false);

    const back = await runAdmin(restored, ['restore', '--in', archive]);
    expect(back.code, back.output).toBe(0);
    // the keys are kept apart (ADR 018): a restore without them signs in with a new key
    expect(back.output).toContain('portal-db, power7-db, power7 from');
    expect(back.output).toContain('The archive holds no keys');
    expect(notPrivate(restored)).toEqual([]);
    // never over existing data
    const twice = await runAdmin(restored, ['restore', '--in', archive]);
    expect(twice.code).toBe(1);
    expect(twice.output).toContain('Will not overwrite');

    const again = await startProduct(restored);
    try {
      const auth = { authorization: `Bearer ${await again.signIn()}` };
      const res = await fetch(`${again.power7}/api/power7/processing-status/?session=${session}`, {
        headers: auth,
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { status: string } }).data.status).toBe('done');
      const rejected = await fetch(`${again.power7}/api/power7/sessions/${session}/rejected.csv`, {
        headers: auth,
      });
      expect(rejected.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 600_000);
});
