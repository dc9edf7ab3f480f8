import { describe, expect, it } from 'vitest';
import { POLL_MS } from '../../hooks/use-document-visible';
import { pollInterval } from './use-status-polling';

describe('status polling', () => {
  it('polls while the job can change and the page is visible', () => {
    expect(pollInterval(undefined, true)).toBe(POLL_MS);
    expect(pollInterval('queued', true)).toBe(POLL_MS);
    expect(pollInterval('running', true)).toBe(POLL_MS);
  });

  it('stops when the job ended or the tab is hidden', () => {
    for (const status of ['done', 'failed', 'cancelled'] as const) {
      expect(pollInterval(status, true)).toBe(0);
    }
    expect(pollInterval('running', false)).toBe(0);
  });
});
