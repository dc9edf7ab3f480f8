import { describe, expect, it } from 'vitest';
import { emptyDrawsView } from '../lib/url-state';
import { invertedRanges } from './draws-explorer';
import { fileSizeProblem } from '../../upload/components/parameters-form';

describe('checks made in the browser before asking the service', () => {
  it('names each draw filter whose minimum is above its maximum', () => {
    const view = emptyDrawsView();
    expect(invertedRanges(view)).toEqual([]);
    view.winners[3] = { min: 5, max: 2 };
    view.winners[4] = { min: 2, max: 2 };
    view.totalPayout = { min: 100, max: 10 };
    expect(invertedRanges(view)).toEqual(['3 matches', 'Total payout']);
  });

  it('refuses a file over the service limit and names the limit', () => {
    expect(fileSizeProblem(10, undefined)).toBeNull();
    expect(fileSizeProblem(1024, 1024)).toBeNull();
    expect(fileSizeProblem(3 * 1024 * 1024, 1024 * 1024)).toBe(
      'This file is 3.0 MB; the largest file the service accepts is 1.0 MB. Split it or remove columns the analysis does not need.',
    );
  });
});
