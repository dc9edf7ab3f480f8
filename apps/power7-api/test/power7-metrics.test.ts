// GET /metrics: Prometheus text a scraper parses, with the Power 7 series and no id in any label.
import { parseMetrics, valueOf } from '@pa/server-kit/testing/prometheus';
import { describe, expect, it } from 'vitest';
import { buildTestApp, cleanup, tempDir } from './helper';
import { app, auth, sessionA, tokenA, uploadAndWait, usePower7App } from './power7-fixture';

usePower7App();

async function scrape() {
  const res = await app.inject({ url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

describe('GET /metrics on the Power 7 service', () => {
  it('has process defaults, request durations by route pattern, jobs, queue, cache and revocation age', async () => {
    const failed = await uploadAndWait(tokenA, 'n1,n2,n3,n4,n5,n6,n7\n1,1,2,3,4,5,6\n');
    expect(failed.status).toBe('failed');
    const rejected = await app.inject({
      url: `/api/power7/sessions/${sessionA}/rejected.csv`,
      headers: auth(tokenA),
    });
    expect(rejected.statusCode).toBe(200);
    const metrics = await scrape();

    expect(valueOf(metrics, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
    expect(metrics.get('http_request_duration_seconds')?.type).toBe('histogram');
    const routes = metrics.get('http_request_duration_seconds')!.samples.map((s) => s.labels.route);
    expect(routes).toContain('/api/power7/sessions/:id/rejected.csv');
    expect(routes).toContain('/api/power7/processing-status/');
    const download = {
      route: '/api/power7/sessions/:id/rejected.csv',
      method: 'GET',
      status_code: '200',
      service: 'power7-api',
    };
    const count = 'http_request_duration_seconds_count';
    expect(valueOf(metrics, 'http_request_duration_seconds', download, count)).toBe(1);

    // the fixture's analysis and the failed one
    expect(valueOf(metrics, 'power7_jobs_total', { outcome: 'done' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(metrics, 'power7_jobs_total', { outcome: 'failed' })).toBe(1);
    expect(valueOf(metrics, 'power7_jobs_total', { outcome: 'cancelled' })).toBe(0);
    const analysis = 'power7_analysis_duration_seconds';
    const done = { outcome: 'done' };
    expect(valueOf(metrics, analysis, done, `${analysis}_count`)).toBeGreaterThanOrEqual(1);
    expect(valueOf(metrics, analysis, done, `${analysis}_sum`)).toBeGreaterThan(0);
    expect(valueOf(metrics, 'power7_queue_depth', { state: 'waiting' })).toBe(0);
    expect(valueOf(metrics, 'power7_queue_depth', { state: 'running' })).toBe(0);
    expect(metrics.has('power7_jobs_running')).toBe(true);
    // the rejected-rows download opened the finished session into the cache
    expect(valueOf(metrics, 'power7_result_cache_bytes')).toBeGreaterThanOrEqual(0);
    const age = valueOf(metrics, 'power7_revocation_list_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(30);
  });

  it('answers 404 with METRICS=false', async () => {
    const dir = await tempDir();
    const off = await buildTestApp({ DATA_DIR: dir, METRICS: 'false' });
    try {
      const res = await off.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    } finally {
      await off.close();
      await cleanup(dir);
    }
  });
});
