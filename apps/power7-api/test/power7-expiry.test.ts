// Removing sessions: expiry after SESSION_TTL_HOURS and clear-all.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customerCsv, DEFAULT_FIELDS } from './helper';
import {
  app,
  auth,
  csvText,
  dir,
  keys,
  tokenA,
  upload,
  uploadAndWait,
  usePower7App,
} from './power7-fixture';

usePower7App();

describe('clearing and expiry', () => {
  it('expires sessions with their files after SESSION_TTL_HOURS', async () => {
    const done = await uploadAndWait(tokenA, csvText);
    const folder = join(dir, 'data', 'power7', done._id);
    expect(existsSync(folder)).toBe(true);
    const orphan = join(dir, 'data', 'power7', 'orphan-folder');
    await mkdir(orphan);
    const deleted = await app.power7.sessions.sweep(new Date(Date.now() + 25 * 3_600_000));
    expect(deleted).toBeGreaterThan(0);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(orphan)).toBe(false);
    const status = await app.inject({
      url: `/api/power7/processing-status/?session=${done._id}`,
      headers: auth(tokenA),
    });
    expect(status.statusCode).toBe(404);
  });

  it("clear-all deletes only the caller's sessions, files and results", async () => {
    const userB = await keys.sign({ sub: 'user-b' });
    const a = await uploadAndWait(tokenA, csvText);
    const b = await uploadAndWait(userB, csvText);
    // a running job is cancelled too
    const running = (
      await upload(tokenA, customerCsv(20000, 20, 3), { ...DEFAULT_FIELDS, pool_size: '20' })
    ).json().data._id;
    const res = await app.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(tokenA),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.deleted).toBeGreaterThanOrEqual(2);
    for (const id of [a._id, running]) {
      expect(existsSync(join(dir, 'data', 'power7', id))).toBe(false);
    }
    const list = await app.inject({ url: '/api/power7/sessions/', headers: auth(tokenA) });
    expect(list.json().data.total).toBe(0);
    const other = await app.inject({
      url: `/api/power7/processing-status/?session=${b._id}`,
      headers: auth(userB),
    });
    expect(other.json().data.status).toBe('done');
    expect(app.power7.queue.has(running)).toBe(false);
  });
});
