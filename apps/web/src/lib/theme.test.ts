import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, readTheme, writeTheme } from './theme';

afterEach(() => vi.restoreAllMocks());

describe('theme storage', () => {
  it('defaults to system and keeps the choice under vite-ui-theme', () => {
    expect(readTheme()).toBe('system');
    writeTheme('dark');
    expect(localStorage.getItem('vite-ui-theme')).toBe('dark');
    expect(readTheme()).toBe('dark');
    localStorage.setItem('vite-ui-theme', 'purple');
    expect(readTheme()).toBe('system');
  });

  it('puts exactly one of light/dark on the root; system follows the OS', () => {
    const root = document.documentElement;
    applyTheme('dark');
    expect([...root.classList]).toEqual(['dark']);
    applyTheme('light');
    expect([...root.classList]).toEqual(['light']);
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (q) => ({ matches: q === '(prefers-color-scheme: dark)' }) as MediaQueryList,
    );
    expect(applyTheme('system')).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);
  });
});
