import { createApi } from '@reduxjs/toolkit/query/react';
import { CACHE_RETENTION_SECONDS, TAG_TYPES } from '@/config/constants';
import { PORTAL_API_URL } from '@/config/env';
import { createBaseQuery } from './base-query';

/**
 * The portal API slice; features inject their endpoints. Subscription updates are synced to the
 * store at most every 500 ms by RTK Query 2 itself (docs/product/web.md §9 "Subscription update batching 500 ms").
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: createBaseQuery({ baseUrl: `${PORTAL_API_URL}/api`, timeout: 30_000 }),
  tagTypes: TAG_TYPES,
  keepUnusedDataFor: CACHE_RETENTION_SECONDS,
  endpoints: () => ({}),
});
