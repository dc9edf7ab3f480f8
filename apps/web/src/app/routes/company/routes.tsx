import type { RouteObject } from 'react-router';

/**
 * The company administration routes under /app/company (users, roles, permissions, audit).
 * Each screen is loaded on demand (route `lazy`), so public pages never pay for it.
 */
export const companyRoutes: RouteObject[] = [];
