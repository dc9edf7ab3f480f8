// Power 7's audit trail: uploads, downloads and clearing are recorded (who, company, session, action;
// never file contents) and read back per company by holders of audit.read.
import { describe, expect, it } from 'vitest';
import { app, auth, csvText, keys, sessionA, tokenA, upload, usePower7App } from './power7-fixture';

usePower7App();

interface Event {
  actorId: string;
  actorName: string;
  action: string;
  sessionId: string | null;
  detail: Record<string, unknown>;
  ip: string;
  createdAt: string;
}

async function events(token: string) {
  const res = await app.inject({
    url: '/api/power7/audit-events/?pageSize=100',
    headers: auth(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { items: Event[]; total: number };
}

describe('audit events', () => {
  it('records uploads, downloads and clear-all, readable with audit.read in the same company only', async () => {
    const auditor = await keys.sign({ sub: 'auditor', perms: ['audit.read'] });
    const combo = '1-2-3-4-5-6-7';
    for (const url of [
      `/api/download/${combo}/3/?session=${sessionA}`,
      `/api/download-all/${combo}/?session=${sessionA}`,
      `/api/power7/sessions/${sessionA}/rejected.csv`,
    ]) {
      const res = await app.inject({ url, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(200);
    }
    // a refused upload is not an upload: no record
    const refused = await upload(tokenA, csvText, { budget_type: 'weekly' });
    expect(refused.statusCode).toBe(400);
    const cleared = await app.inject({
      method: 'POST',
      url: '/api/sessions/clear-all/',
      headers: auth(tokenA),
    });
    expect(cleared.statusCode).toBe(200);

    const { items, total } = await events(auditor);
    expect(total).toBe(5);
    // newest first
    expect(items.map((e) => e.action)).toEqual([
      'power7.sessions.clear',
      'power7.download',
      'power7.download',
      'power7.download',
      'power7.upload',
    ]);
    for (const event of items) {
      expect(event).toMatchObject({ actorId: 'user-a', actorName: 'tester' });
      expect(event.ip).not.toBe('');
    }
    expect(items[0]!.detail).toEqual({ deleted: 1, sessionIds: [sessionA] });
    expect(items[1]!).toMatchObject({ sessionId: sessionA, detail: { file: 'rejected.csv' } });
    expect(items[2]!.detail).toEqual({ combo, matchType: 'all' });
    expect(items[3]!.detail).toEqual({ combo, matchType: 3 });
    expect(items[4]!).toMatchObject({
      sessionId: sessionA,
      detail: { originalName: 'customers.csv' },
    });
    // no file contents anywhere in the trail
    expect(JSON.stringify(items)).not.toContain('Name 1,');

    // another company sees none of it; without audit.read: 403
    const elsewhere = await keys.sign({
      sub: 'auditor-b',
      cid: 'company-b',
      perms: ['audit.read'],
    });
    expect((await events(elsewhere)).total).toBe(0);
    const denied = await app.inject({ url: '/api/power7/audit-events/', headers: auth(tokenA) });
    expect(denied.statusCode).toBe(403);
  });
});
