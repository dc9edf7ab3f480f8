import { describe, expect, it, vi } from 'vitest';
import { DataChanges } from '../../db/changes';
import { AuthCache, VerifiedTokens } from './auth-cache';

describe('AuthCache', () => {
  it('serves an entry until the next write, then reads again', async () => {
    const changes = new DataChanges();
    const cache = new AuthCache(changes, null);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('auth', 'a', load)).toBe(1);
    expect(await cache.get('auth', 'a', load)).toBe(1);
    changes.bump();
    expect(await cache.get('auth', 'a', load)).toBe(2);
    expect(reads).toBe(2);
  });

  it('does not keep what was read while a write happened', async () => {
    const changes = new DataChanges();
    const cache = new AuthCache(changes, null);
    let reads = 0;
    await cache.get('verify', 'u', async () => {
      reads++;
      changes.bump(); // a write committed while this read ran: its answer may be stale
      return 'old';
    });
    expect(await cache.get('verify', 'u', async () => `new ${++reads}`)).toBe('new 2');
  });

  it('bounds an entry by the TTL, and a TTL of 0 caches nothing', async () => {
    // The cache reads the time from Date.now(): held still here, so a slow machine cannot let the
    // TTL pass between two calls the test means to land within it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const changes = new DataChanges();
      let reads = 0;
      const load = async () => ++reads;
      const short = new AuthCache(changes, 20);
      await short.get('auth', 'a', load);
      vi.advanceTimersByTime(19);
      await short.get('auth', 'a', load);
      expect(reads).toBe(1);
      vi.advanceTimersByTime(1);
      await short.get('auth', 'a', load);
      expect(reads).toBe(2);
      const off = new AuthCache(changes, 0);
      await off.get('auth', 'a', load);
      await off.get('auth', 'a', load);
      expect(reads).toBe(4);
      expect(off.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps at most maxEntries per region, dropping the oldest', async () => {
    const cache = new AuthCache(new DataChanges(), null, 2);
    for (const key of ['a', 'b', 'c']) await cache.get('auth', key, async () => key);
    expect(cache.size).toBe(2);
    expect(await cache.get('auth', 'a', async () => 'read again')).toBe('read again');
  });
});

describe('VerifiedTokens', () => {
  it('answers a token until its expiry', () => {
    const tokens = new VerifiedTokens<{ exp: number }>();
    const now = Math.floor(Date.now() / 1000);
    tokens.set('live', { exp: now + 60 });
    tokens.set('expired', { exp: now - 1 });
    expect(tokens.get('live')).toEqual({ exp: now + 60 });
    expect(tokens.get('expired')).toBeUndefined();
    expect(tokens.get('unknown')).toBeUndefined();
  });
});
