import { expect, it } from 'vitest';
import type { OpenSession } from '@pa/power7-engine/session-store';
import { ResultCache, sessionBytes } from './result-cache';

// Stand-ins with the two sizes the cache reads; the engine's real sessions are covered by the HTTP tests.
function fake(tickets: number, qualified: number, closed: string[], name: string): OpenSession {
  return {
    ingest: { accepted: tickets },
    analysis: { qualified },
    close: () => closed.push(name),
  } as unknown as OpenSession;
}

it('keeps the most recently used sessions under the budget and reopens evicted ones', async () => {
  const closed: string[] = [];
  const size = sessionBytes(fake(1000, 100, [], ''));
  const cache = new ResultCache(size * 2);
  let opens = 0;
  const get = (id: string) =>
    cache.get(id, async () => {
      opens++;
      return fake(1000, 100, closed, id);
    });
  await get('a');
  await get('b');
  await get('a'); // a is now the most recent
  expect(opens).toBe(2);
  await get('c'); // over budget: b (least recent) goes
  await new Promise((r) => setImmediate(r));
  expect(closed).toEqual(['b']);
  expect(cache.stats()).toMatchObject({ sessions: 2, bytes: size * 2 });
  await get('b');
  expect(opens).toBe(4);
  // a failed open is not cached
  await expect(cache.get('x', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
  expect(cache.stats().sessions).toBe(2);
  // one session larger than the whole budget still stays while it is the one in use
  const tiny = new ResultCache(1);
  await tiny.get('big', async () => fake(10_000, 10_000, [], 'big'));
  expect(tiny.stats().sessions).toBe(1);
});
