import type { RouteObject } from 'react-router';

/**
 * The Power 7 tool's routes under /app/power7 (home, parameters, process, results),
 * the scenarios of one file (rerun with other parameters, compare runs) and the live books.
 * Each screen is loaded on demand (route `lazy`), so public pages never pay for it and the chart
 * code loads only with the process step.
 */
export const power7Routes: RouteObject[] = [
  { index: true, lazy: () => import('./home') },
  { path: 'parameters', lazy: () => import('./parameters') },
  { path: 'process', lazy: () => import('./process') },
  { path: 'results', lazy: () => import('./results') },
  { path: 'rerun', lazy: () => import('./rerun') },
  { path: 'compare', lazy: () => import('./compare') },
  // a finished session as a printable A4 document
  { path: 'report', lazy: () => import('./report') },
  // the live books of a liability limit (issue #41): the list, and one book as a sales terminal
  { path: 'books', lazy: () => import('./books') },
  { path: 'books/:id', lazy: () => import('./book') },
];
