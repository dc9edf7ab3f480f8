import { describe, expect, it } from 'vitest';
import { isNavItemActive } from './navigation';

describe('isNavItemActive', () => {
  it('marks only the deepest item whose url holds the path', () => {
    expect(isNavItemActive('/app/power7/books', '/app/power7/books/b1')).toBe(true);
    expect(isNavItemActive('/app/power7', '/app/power7/books/b1')).toBe(false);
    expect(isNavItemActive('/app/power7', '/app/power7/books')).toBe(false);
    expect(isNavItemActive('/app/power7', '/app/power7/results')).toBe(true);
    expect(isNavItemActive('/app/power7/books', '/app/power7/results')).toBe(false);
    expect(isNavItemActive('/app', '/app/')).toBe(true);
    expect(isNavItemActive('/app', '/app/power7')).toBe(false);
  });
});
