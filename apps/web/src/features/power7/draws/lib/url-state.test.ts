import { describe, expect, it } from 'vitest';
import {
  drawsViewFromSearch,
  drawsViewParams,
  emptyDrawsView,
  filterBodyOf,
  writeDrawsView,
  type DrawsView,
} from './url-state';

describe('draws view ↔ URL', () => {
  const view: DrawsView = {
    winners: { 3: { min: 10 }, 7: { max: 0 } },
    totalPayout: { min: 5, max: 2000.5 },
    mustInclude: [1, 9],
    mustExclude: [4],
    sort: 'winners5:desc',
    page: 3,
  };

  it('round-trips a view and keeps the other parameters', () => {
    const search = writeDrawsView(new URLSearchParams('session=abc'), view);
    expect(search.get('session')).toBe('abc');
    expect(search.toString()).toBe(
      'session=abc&w3=10..&w7=..0&total=5..2000.5&inc=1%2C9&exc=4&sort=winners5%3Adesc&page=3',
    );
    expect(drawsViewFromSearch(search)).toEqual(view);
  });

  it('leaves defaults out and falls back to them for malformed values', () => {
    expect(writeDrawsView(new URLSearchParams(), emptyDrawsView()).toString()).toBe('');
    const parsed = drawsViewFromSearch(
      new URLSearchParams('w3=x..-1&total=..abc&inc=0,50,7,7&exc=7,8&sort=price:desc&page=-2'),
    );
    expect(parsed).toEqual({ ...emptyDrawsView(), mustInclude: [7], mustExclude: [8] });
  });

  it('carries only the view parameters to another step', () => {
    expect(drawsViewParams(new URLSearchParams('session=s&combo=1-2&inc=3')).toString()).toBe(
      'inc=3',
    );
  });

  it('builds the filter request of a page, or of one position', () => {
    expect(filterBodyOf('s', view)).toEqual({
      session: 's',
      sort: 'winners5:desc',
      page: 3,
      pageSize: 10,
      filters: {
        winners: { 3: { min: 10 }, 7: { max: 0 } },
        totalPayout: { min: 5, max: 2000.5 },
        mustInclude: [1, 9],
        mustExclude: [4],
      },
    });
    expect(filterBodyOf('s', emptyDrawsView(), 24)).toEqual({
      session: 's',
      sort: 'totalPayout:desc',
      page: 25,
      pageSize: 1,
    });
  });
});
