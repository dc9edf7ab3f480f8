import type { VisibilityState } from '@tanstack/react-table';
import { PAGE_SIZES } from './list-url';

/**
 * Per-list choices that outlive the session (issue 26): page size and hidden columns, in
 * localStorage under `pa:list:<list>:…`. Unreadable or foreign values count as none.
 */
const key = (list: string, what: string) => `pa:list:${list}:${what}`;

function read(list: string, what: string): unknown {
  try {
    const text = localStorage.getItem(key(list, what));
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

function write(list: string, what: string, value: unknown) {
  try {
    if (value === null) localStorage.removeItem(key(list, what));
    else localStorage.setItem(key(list, what), JSON.stringify(value));
  } catch {
    // Storage full or blocked: the choice lasts for this page only.
  }
}

export function storedPageSize(list: string): number | null {
  const size = read(list, 'pageSize');
  return typeof size === 'number' && (PAGE_SIZES as readonly number[]).includes(size) ? size : null;
}

export const storePageSize = (list: string, size: number | null) => write(list, 'pageSize', size);

export function storedColumns(list: string): VisibilityState | null {
  const value = read(list, 'columns');
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value).filter(([, v]) => typeof v === 'boolean');
  return Object.fromEntries(entries) as VisibilityState;
}

export const storeColumns = (list: string, columns: VisibilityState | null) =>
  write(list, 'columns', columns);
