import { createApi } from '@reduxjs/toolkit/query/react';
import { CACHE_RETENTION_SECONDS, TAG_TYPES } from '@/config/constants';
import { POWER7_API_URL } from '@/config/env';
import { createBaseQuery } from './base-query';

/** A CSRF form token present on the page is sent along (docs/product/web.md §7, Power 7 API). */
export function csrfHeader(): Record<string, string> {
  const input = document.querySelector<HTMLInputElement>('input[name="csrfmiddlewaretoken"]');
  return input?.value ? { 'X-CSRFToken': input.value } : {};
}

/** The Power 7 API slice (separate host); the Power 7 feature injects its endpoints. */
export const power7Api = createApi({
  reducerPath: 'power7Api',
  baseQuery: createBaseQuery({ baseUrl: `${POWER7_API_URL}/api`, extraHeaders: csrfHeader }),
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: CACHE_RETENTION_SECONDS,
  endpoints: () => ({}),
});
