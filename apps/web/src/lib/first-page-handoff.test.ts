import { describe, expect, it } from 'vitest';
import {
  finishHandoff,
  handOver,
  pendingHandoff,
  type FirstPageHandoff,
} from './first-page-handoff';

const handoff: FirstPageHandoff = {
  path: '/auth/signin',
  values: { login: 'admin', password: 'secret' },
  action: 'submit',
};

describe('first page handoff', () => {
  it('is found by the page it was left for only', () => {
    handOver(handoff);
    expect(pendingHandoff('/auth/forgot-password')).toBeNull();
    expect(pendingHandoff('/auth/signin')).toBe(handoff);
    expect(finishHandoff(handoff)).toBe(true);
  });

  it('is acted on once: a re-run effect or a later visit finds it finished', () => {
    handOver(handoff);
    expect(finishHandoff(handoff)).toBe(true);
    expect(finishHandoff(handoff)).toBe(false);
    expect(pendingHandoff('/auth/signin')).toBeNull();
  });

  it('a newer handoff replaces an older one', () => {
    const older = { ...handoff, action: 'passkey' as const };
    handOver(older);
    handOver(handoff);
    expect(finishHandoff(older)).toBe(false);
    expect(finishHandoff(handoff)).toBe(true);
  });
});
