import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { EndedSignIns } from '../../modules/revocation/ended-sign-ins';

/**
 * Power 7's own series on `app.metrics` (server-kit's metrics plugin): jobs by outcome and by phase,
 * queue depth, analysis durations, result-cache bytes and the age of the list of ended sign-ins. The
 * gauges are read at scrape time; no label holds a session or user id.
 */
export function power7Metrics(app: FastifyInstance, ended: EndedSignIns | null): void {
  const { sessions, queue, cache } = app.power7;
  const registers = [app.metrics];
  const jobs = new Counter({
    name: 'power7_jobs_total',
    help: 'Power 7 jobs run by this process that ended, by outcome: done, failed, cancelled.',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of ['done', 'failed', 'cancelled']) jobs.inc({ outcome }, 0);
  const duration = new Histogram({
    name: 'power7_analysis_duration_seconds',
    help: 'Time a Power 7 job took (reading the file and analysing it), by outcome.',
    labelNames: ['outcome'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers,
  });
  sessions.jobs.onJobEnd((outcome, seconds) => {
    jobs.inc({ outcome });
    duration.observe({ outcome }, seconds);
  });
  new Gauge({
    name: 'power7_queue_depth',
    help: "Power 7 jobs waiting or running in this process's queue (with Redis: this process's view).",
    labelNames: ['state'],
    registers,
    collect() {
      const stats = queue.stats();
      this.set({ state: 'waiting' }, stats.queued);
      this.set({ state: 'running' }, stats.running);
    },
  });
  new Gauge({
    name: 'power7_jobs_running',
    help: 'Power 7 jobs running in this process, by phase (reading, building, scanning, writing…).',
    labelNames: ['phase'],
    registers,
    collect() {
      this.reset();
      for (const progress of sessions.memory.live.values()) this.inc({ phase: progress.phase });
    },
  });
  new Gauge({
    name: 'power7_limit_runs',
    help: 'Liability-limit runs this process remembers, by state: running, done, failed.',
    labelNames: ['state'],
    registers,
    collect() {
      for (const [state, count] of Object.entries(sessions.limits.stats()))
        this.set({ state }, count);
    },
  });
  new Gauge({
    name: 'power7_result_cache_bytes',
    help: 'Bytes of finished sessions held in memory for fast queries (RESULT_CACHE_MB is the budget).',
    registers,
    collect() {
      this.set(cache.stats().bytes);
    },
  });
  // a worker process takes no tokens and reads no list
  if (ended)
    new Gauge({
      name: 'power7_revocation_list_age_seconds',
      help: 'Seconds since the list of ended sign-ins was last read (+Inf before the first read); tokens are refused past REVOCATION_MAX_STALENESS.',
      registers,
      collect() {
        this.set(ended.ageSeconds() ?? Infinity);
      },
    });
}
