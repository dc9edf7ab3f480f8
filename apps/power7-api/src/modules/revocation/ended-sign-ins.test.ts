import { describe, expect, it, vi } from 'vitest';
import { endedSignInKey } from '@pa/server-kit/ended-sign-ins';
import { EndedSignIns, type EndedSignInsSource } from './ended-sign-ins';

/** A source that answers `ids` while `up`, and fails otherwise. */
function source() {
  // the portal publishes keys of ended sign-in ids, not the ids
  const state = { up: false, reads: 0, ids: [endedSignInKey('s-1')] };
  const read: EndedSignInsSource['read'] = async () => {
    state.reads++;
    if (!state.up) throw new Error('the portal answered 503');
    return state.ids;
  };
  return { state, source: { read } };
}

describe('EndedSignIns', () => {
  it('is not fresh before a first read, fresh after one, stale past the bound', async () => {
    const { state, source: s } = source();
    const list = new EndedSignIns(s, 10_000, 60_000, 0);
    const warn = vi.fn();
    await list.start({ warn });
    expect(() => list.assertFresh()).toThrow(/cannot check sign-ins/i);
    expect(() => list.check()).toThrow(
      /no list of ended sign-ins read yet: the portal answered 503/,
    );
    expect(warn).toHaveBeenCalledTimes(1);
    // never read: retried soon (250 ms), not at the next poll (60 s)
    await vi.waitFor(() => expect(state.reads).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    list.stop();

    state.up = true;
    const fresh = new EndedSignIns(s, 10_000, 60_000);
    await fresh.start({ warn });
    fresh.stop();
    expect(fresh.has('s-1')).toBe(true);
    expect(() => fresh.assertFresh()).not.toThrow();
    expect(fresh.check()).toBe(true);
    expect(() => fresh.assertFresh(Date.now() + 10_001)).toThrow(/cannot check sign-ins/i);
  });

  it('does not log a portal that may still be starting', async () => {
    const { state, source: s } = source();
    const warn = vi.fn();
    const list = new EndedSignIns(s, 10_000, 60_000, 60_000);
    try {
      await list.start({ warn });
      await vi.waitFor(() => expect(state.reads).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
      expect(warn).not.toHaveBeenCalled();
      expect(() => list.assertFresh()).toThrow(/cannot check sign-ins/i);
    } finally {
      list.stop();
    }
  });

  it('logs an outage once however long it lasts, and again after a recovery', async () => {
    const { state, source: s } = source();
    state.up = true;
    const warn = vi.fn();
    const list = new EndedSignIns(s, 60_000, 20);
    try {
      await list.start({ warn });
      state.up = false;
      await vi.waitFor(() => expect(state.reads).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(list.has('s-1')).toBe(true); // the last list stays in force within the bound
      state.up = true;
      const seen = state.reads;
      await vi.waitFor(() => expect(state.reads).toBeGreaterThanOrEqual(seen + 2));
      state.up = false;
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    } finally {
      list.stop();
    }
  });
});
