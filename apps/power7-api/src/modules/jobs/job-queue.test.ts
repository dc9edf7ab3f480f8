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

  it("takes companies in turn: one company's many jobs do not hold back another's", async () => {
    const c = controlled();
    const started: string[] = [];
    const queue = new EmbeddedJobQueue(1);
    queue.process((id, context) => {
      started.push(id);
      return c.processor(id, context);
    });
    // company A queues four jobs (the first starts at once), then company B two, company C one
    for (const id of ['a1', 'a2', 'a3', 'a4']) void queue.enqueue(id, { group: 'A', ahead: 0 });
    for (const id of ['b1', 'b2']) void queue.enqueue(id, { group: 'B', ahead: 0 });
    void queue.enqueue('c1', { group: 'C', ahead: 0 });
    expect(queue.stats()).toMatchObject({ queued: 6, running: 1 });
    for (let i = 0; i < 7; i++) {
      await tick();
      const [running] = [...c.running];
      c.release.get(running!)!();
      await tick();
    }
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.stats()).toMatchObject({ queued: 0, running: 0, done: 7 });
  });

  it('with room for two jobs, gives the second to the company with none running', async () => {
    const c = controlled();
    const queue = new EmbeddedJobQueue(2);
    queue.process(c.processor);
    for (const id of ['a1', 'a2', 'a3']) void queue.enqueue(id, { group: 'A', ahead: 0 });
    void queue.enqueue('b1', { group: 'B', ahead: 0 });
    await tick();
    // a1 and a2 took both places before b1 came; when a1 ends, b1 (not a3) starts
    expect([...c.running]).toEqual(['a1', 'a2']);
    c.release.get('a1')!();
    await tick();
    await tick();
    expect([...c.running].sort()).toEqual(['a2', 'b1']);
    expect(await queue.cancel('a3')).toBe(true);
    await queue.close();
  });
});
