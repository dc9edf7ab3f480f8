import { ResultsView } from '@/features/power7/draws/components/results-view';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <ResultsView />;
}
