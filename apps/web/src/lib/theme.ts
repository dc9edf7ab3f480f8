import { THEME_DEFAULT, THEME_STORAGE_KEY } from '@/config/constants';

export type Theme = 'light' | 'dark' | 'system';
const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

/** The stored theme (local storage `vite-ui-theme`), `system` when absent or unknown (docs/product/web.md §3). */
export function readTheme(storage: Storage = localStorage): Theme {
  const value = storage.getItem(THEME_STORAGE_KEY);
  return THEMES.includes(value as Theme) ? (value as Theme) : THEME_DEFAULT;
}

export function writeTheme(theme: Theme, storage: Storage = localStorage) {
  storage.setItem(THEME_STORAGE_KEY, theme);
}

export const systemPrefersDark = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/** Puts `light` or `dark` on the root element; `system` follows the OS preference (docs/product/web.md §4). */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement) {
  const resolved = theme === 'system' ? (systemPrefersDark() ? 'dark' : 'light') : theme;
  root.classList.remove('light', 'dark');
  root.classList.add(resolved);
  return resolved;
}
