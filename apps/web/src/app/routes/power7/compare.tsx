import { CompareView } from '@/features/power7/scenarios/components/compare-view';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <CompareView />;
}
