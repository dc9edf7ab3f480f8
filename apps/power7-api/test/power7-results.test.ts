// Results of a finished session: filters, winners and downloads, against the engine CLI.
import { describe, expect, it } from 'vitest';
import { isEnvelope } from '@pa/contracts/envelope';
import { engineCliAnalyze, randomTicket, rng } from './helper';
import {
  app,
  auth,
  csvFile,
  keys,
  matchCount,
  POOL,
  sessionA,
  tickets,
  tokenA,
  uploadAndWait,
  usePower7App,
} from './power7-fixture';

usePower7App();

describe('filter, winners and downloads', () => {
  it('equals the engine CLI on the same file', async () => {
    const cli = await engineCliAnalyze(csvFile, 60000, POOL);
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: { session: sessionA, pageSize: 20, sort: 'totalPayout:desc' },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.qualified).toBe(cli.qualified);
    expect(data.total).toBe(cli.qualified);
    expect(data.stats).toMatchObject(cli.totalPayout);
    expect(data.stats.draws).toBe(cli.draws);
    expect(
      data.items.map((d: { combo: string; winners: unknown; totalPayout: number }) => ({
        combo: d.combo,
        winners: d.winners,
        totalPayout: d.totalPayout,
      })),
    ).toEqual(cli.top);
    expect(data.stats.histogram.counts.reduce((a: number, b: number) => a + b, 0)).toBe(cli.draws);
    expect(data.stats.worstDraw.totalPayout).toBe(cli.totalPayout.max);
  });

  it('filters, sorts and pages the qualifying draws', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: {
        session: sessionA,
        filters: {
          winners: { 3: { min: 1 } },
          totalPayout: { min: 40000, max: 55000 },
          mustInclude: [1],
          mustExclude: [2],
        },
        sort: 'totalPayout:asc',
        page: 1,
        pageSize: 5,
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.pageSize).toBe(5);
    expect(data.items.length).toBeGreaterThan(0);
    for (const d of data.items) {
      expect(d.numbers).toContain(1);
      expect(d.numbers).not.toContain(2);
      expect(d.totalPayout).toBeGreaterThanOrEqual(40000);
      expect(d.totalPayout).toBeLessThanOrEqual(55000);
      // recount this draw's winners ticket by ticket
      const byMatch = { 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 } as Record<number, number>;
      for (const t of tickets) {
        const m = matchCount(t, d.numbers);
        if (m >= 3) byMatch[m]!++;
      }
      expect(d.winners).toEqual({
        3: byMatch[3],
        4: byMatch[4],
        5: byMatch[5],
        6: byMatch[6],
        7: byMatch[7],
      });
    }
    const totals = data.items.map((d: { totalPayout: number }) => d.totalPayout);
    expect([...totals].sort((a, b) => a - b)).toEqual(totals);
    for (const payload of [
      { session: sessionA, sort: 'luck:desc' },
      { session: sessionA, pageSize: 1000 },
      { session: sessionA, filters: { totalPayout: { min: 5, max: 1 } } },
      { session: sessionA, filters: { mustInclude: [60] } },
    ]) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('lists winners page by page and the downloads hold the same tickets', async () => {
    const draw = randomTicket(POOL, rng(99));
    const combo = draw.join('-');
    const expected = tickets
      .map((t, i) => ({ t, line: i + 2 }))
      .filter(({ t }) => matchCount(t, draw) === 3);
    const seen: number[] = [];
    let page = 1;
    for (;;) {
      const res = await app.inject({
        url: `/api/winners/${combo}/3/?session=${sessionA}&page=${page}&pageSize=100`,
        headers: auth(tokenA),
      });
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.total).toBe(expected.length);
      seen.push(...data.items.map((w: { line: number }) => w.line));
      if (page >= data.totalPages) break;
      page++;
    }
    expect(seen).toEqual(expected.map((e) => e.line));
    const first = (
      await app.inject({
        url: `/api/winners/${combo}/3/?session=${sessionA}&pageSize=1`,
        headers: auth(tokenA),
      })
    ).json().data.items[0];
    expect(first).toMatchObject({
      matchType: 3,
      payout: 1,
      customerId: expect.stringMatching(/^C\d+$/),
    });
    expect(first.matched).toHaveLength(3);

    const csv = await app.inject({
      url: `/api/download/${combo}/3/?session=${sessionA}`,
      headers: auth(tokenA),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="power7-${combo}-match3.csv"`,
    );
    const rows = csv.body.trim().split(/\r?\n/);
    expect(rows[0]).toMatch(/^customer_id,name,phone,n1/);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(
      expected.map(({ line }) => `C${line - 1}`),
    );

    const all = await app.inject({
      url: `/api/download-all/${combo}/?session=${sessionA}`,
      headers: auth(tokenA),
    });
    expect(all.statusCode).toBe(200);
    const allCount = tickets.filter((t) => matchCount(t, draw) >= 3).length;
    expect(all.body.trim().split(/\r?\n/)).toHaveLength(allCount + 1);
  });

  it('neutralises formula cells in every download and in the rejected-rows report', async () => {
    const content = [
      'customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note',
      'C1,"=HYPERLINK(""http://evil.example"",""click"")",+15551234,1,2,3,4,5,6,7,@SUM(A1)',
      'C2,-1+1,-5,1,2,3,4,5,6,7,"\t=cmd"',
      "=cmd|' /C calc'!A0,x,1,1,2,3,4,5,6,99,y",
    ].join('\n');
    const done = await uploadAndWait(tokenA, content);
    expect(done.status).toBe('done');
    const query = `?session=${done._id}`;
    const c1 = `C1,"'=HYPERLINK(""http://evil.example"",""click"")",+15551234,1,2,3,4,5,6,7,"'@SUM(A1)",7,1 2 3 4 5 6 7,5000`;
    const c2 = `C2,"'-1+1",-5,1,2,3,4,5,6,7,"'\t=cmd",7,1 2 3 4 5 6 7,5000`;
    for (const url of ['/api/download/1-2-3-4-5-6-7/7/', '/api/download-all/1-2-3-4-5-6-7/']) {
      const res = await app.inject({ url: url + query, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(200);
      expect(res.body.split('\r\n'), url).toEqual([
        '\uFEFFcustomer_id,name,phone,n1,n2,n3,n4,n5,n6,n7,note,match_type,matched_numbers,payout',
        c1,
        c2,
        '',
      ]);
    }
    const report = await app.inject({
      url: `/api/power7/sessions/${done._id}/rejected.csv`,
      headers: auth(tokenA),
    });
    expect(report.body.split('\r\n')[1]).toBe(
      `4,out of pool: 99 is not in 1..${POOL},"'=cmd|' /C calc'!A0,x,1,1,2,3,4,5,6,99,y"`,
    );
  });

  it('answers 400 for a malformed combo, a number outside the pool or a match type outside 3..7', async () => {
    for (const url of [
      '/api/winners/1-2-3/3/',
      '/api/winners/7-6-5-4-3-2-1/3/',
      '/api/winners/1-2-3-4-5-6-15/3/',
      '/api/winners/a-b-c-d-e-f-g/3/',
      '/api/winners/1-2-3-4-5-6-7/8/',
      '/api/winners/1-2-3-4-5-6-7/2/',
      '/api/download/1-2-3-4-5-6-99/4/',
      '/api/download/1-2-3-4-5-6-7/x/',
      '/api/download-all/1-1-2-3-4-5-6/',
      // one spelling per draw and match type: no leading zeros, no other number forms
      '/api/winners/01-2-3-4-5-6-7/3/',
      '/api/download-all/1-2-3-4-5-6-07/',
      '/api/winners/1-2-3-4-5-6-7/03/',
      '/api/download/1-2-3-4-5-6-7/3.0/',
      '/api/download/1-2-3-4-5-6-7/%203/',
    ]) {
      const res = await app.inject({ url: `${url}?session=${sessionA}`, headers: auth(tokenA) });
      expect(res.statusCode, url).toBe(400);
      expect(isEnvelope(res.json()), url).toBe(true);
    }
  });

  it('answers 400 naming an unknown key of the filter request instead of ignoring it', async () => {
    for (const [payload, key] of [
      [{ session: sessionA, filters: { evil: 1 } }, 'evil'],
      [{ session: sessionA, filters: { winners: { 9: { min: 1 } } } }, '9'],
      [{ session: sessionA, filters: { totalPayout: { min: 1, mx: 5 } } }, 'mx'],
      [{ session: sessionA, filter: { mustInclude: [1] } }, 'filter'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/filter/',
        headers: auth(tokenA),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toContain(`"${key}"`);
    }
  });

  it('answers 404 for an unknown session and 409 before the analysis has finished', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/filter/',
      headers: auth(tokenA),
      payload: { session: '0190c0de-0000-7000-8000-000000000000' },
    });
    expect(res.statusCode).toBe(404);
    const nobody = await keys.sign({ sub: 'new-user' });
    const none = await app.inject({ url: '/api/power7/processing-status/', headers: auth(nobody) });
    expect(none.statusCode).toBe(404);
  });
});
