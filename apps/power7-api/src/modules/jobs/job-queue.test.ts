import { describe, expect, it } from 'vitest';
import { EmbeddedJobQueue, type JobContext } from './job-queue';

/** A processor whose jobs finish when the test says so (or fail, or honour cancellation). */
function controlled() {
  const running = new Set<string>();
  let peak = 0;
  const release = new Map<string, (fail?: boolean) => void>();
  const processor = (id: string, { signal, report }: JobContext) =>
    new Promise<void>((resolve, reject) => {
      running.add(id);
      peak = Math.max(peak, running.size);
      report({ phase: 'scanning', fraction: 0.5 });
      const end = (fail?: boolean) => {
        running.delete(id);
        if (fail) reject(new Error('boom'));
        else resolve();
      };
      release.set(id, end);
      signal.addEventListener('abort', () => {
        running.delete(id);
        reject(Object.assign(new Error('cancelled'), { code: 'CANCELLED' }));
      });
    });
  return { processor, running, release, peak: () => peak };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('EmbeddedJobQueue', () => {
  it('runs at most `concurrency` jobs, FIFO, one per session, and counts outcomes', async () => {
    const c = controlled();
    const errors: string[] = [];
    const queue = new EmbeddedJobQueue(2);
    queue.process(c.processor, (id) => errors.push(id));
    const progress: string[] = [];
    queue.onProgress((id, p) => progress.push(`${id}:${p.phase}`));
    for (const id of ['a', 'b', 'c', 'a', 'd']) queue.enqueue(id);
    await tick();
    expect([...c.running]).toEqual(['a', 'b']);
    expect(queue.stats()).toMatchObject({ queued: 2, running: 2, done: 0 });
    c.release.get('a')!();
    await tick();
    await tick();
    expect([...c.running].sort()).toEqual(['b', 'c']);
    c.release.get('b')!(true);
    c.release.get('c')!();
    await tick();
    await tick();
    c.release.get('d')!();
    await tick();
    await tick();
    expect(c.peak()).toBe(2);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 0, done: 3, failed: 1 });
    expect(errors).toEqual(['b']);
    expect(progress).toEqual(['a:scanning', 'b:scanning', 'c:scanning', 'd:scanning']);
  });

  it('cancels a queued job and a running one, and close() stops the rest', async () => {
    const c = controlled();
    const queue = new EmbeddedJobQueue(1);
    queue.process(c.processor);
    queue.enqueue('a');
    queue.enqueue('b');
    queue.enqueue('c');
    await tick();
    expect(await queue.cancel('b')).toBe(true);
    expect(queue.has('b')).toBe(false);
    expect(await queue.cancel('a')).toBe(true);
    expect(queue.has('a')).toBe(false);
    expect(await queue.cancel('nope')).toBe(false);
    await tick();
    expect([...c.running]).toEqual(['c']);
    await queue.close();
    expect(c.running.size).toBe(0);
    queue.enqueue('e');
    expect(queue.has('e')).toBe(false);
    expect(queue.stats()).toMatchObject({ cancelled: 3, done: 0, failed: 0 });
  });
});
